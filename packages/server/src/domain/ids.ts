import { randomBytes } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const idPrefixes = {
  paymentIntent: 'pi',
  refund: 're',
  transaction: 'txn',
  event: 'evt',
  merchant: 'acct',
  webhookEndpoint: 'we',
  webhookDelivery: 'wd',
  apiKey: 'key',
  request: 'req',
  lateCapture: 'lc',
  dashboardUser: 'usr',
  auditEntry: 'aud',
  outboundMail: 'mail',
  gatewayAccount: 'gwa',
} as const;
export type IdPrefix = (typeof idPrefixes)[keyof typeof idPrefixes];

/**
 * Uniform base62 from a CSPRNG. Bytes at or above 248 are dropped (rejection sampling) so that
 * `byte % 62` has no bias.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function hasIdShape(value: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[0-9A-Za-z]{24}$`).test(value);
}

/** Encodes bytes as base62 (big-endian), for secrets derived from a MAC. */
export function bytesToBase62(bytes: Uint8Array, length: number): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (out.length < length) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}
