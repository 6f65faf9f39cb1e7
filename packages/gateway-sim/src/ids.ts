import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `<prefix>_` + 24 uniform base62 characters from a CSPRNG (bytes >= 248 are dropped to avoid bias). */
export function simId(prefix: string): string {
  let out = '';
  while (out.length < 24) {
    for (const byte of randomBytes(48)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === 24) break;
    }
  }
  return `${prefix}_${out}`;
}
