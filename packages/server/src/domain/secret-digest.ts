import { createHash } from 'node:crypto';

/** Session ids, invitation tokens and recovery codes are looked up by their SHA-256; the tables never hold one. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
