import { randomFillSync } from 'node:crypto';

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
  captureReversal: 'crv',
  dashboardUser: 'usr',
  auditEntry: 'aud',
  outboundMail: 'mail',
  gatewayAccount: 'gwa',
  dispute: 'dp',
  deprecation: 'dep',
  operatorUser: 'opu',
  // A capture or void of a manual intent's authorisation (app/captures/).
  authorizationOperation: 'auo',
  // A merchant's customer (app/customers/).
  customer: 'cus',
  // A customer's payment method saved at a gateway (app/saved-payment-methods/).
  savedPaymentMethod: 'spm',
} as const;
export type IdPrefix = (typeof idPrefixes)[keyof typeof idPrefixes];

/**
 * CSPRNG bytes drawn in blocks: one call into OpenSSL per POOL_BYTES instead of one per id (a
 * request makes two ids at least). Each byte is handed out once; a block is refilled when spent.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function nextRandomByte(): number {
  if (poolOffset === POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] as number;
  // Spent bytes are zeroed, so the pool never holds an id's randomness after the id is made.
  pool[poolOffset] = 0;
  poolOffset += 1;
  return byte;
}

/**
 * Uniform base62 from a CSPRNG. Bytes at or above 248 are dropped (rejection sampling) so that
 * `byte % 62` has no bias.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

const ID_SHAPES = new Map<string, RegExp>();

export function hasIdShape(value: string, prefix: IdPrefix): boolean {
  let shape = ID_SHAPES.get(prefix);
  if (!shape) {
    shape = new RegExp(`^${prefix}_[0-9A-Za-z]{24}$`);
    ID_SHAPES.set(prefix, shape);
  }
  return shape.test(value);
}

const BASE62_CUBED = 62 * 62 * 62;

/**
 * Encodes bytes as base62 (big-endian), for secrets derived from a MAC: the `length` lowest base62
 * digits of the bytes read as one number, least significant first ('0' once the number is spent).
 * Long division by 62^3 (three digits a pass) on 32-bit limbs: every intermediate value stays
 * below 62^3 * 2^32 < 2^53, so plain numbers are exact.
 */
export function bytesToBase62(bytes: Uint8Array, length: number): string {
  const limbs: number[] = [];
  // The first limb takes the bytes beyond a multiple of 4, so every other limb holds four.
  let i = bytes.length % 4;
  if (i > 0) {
    let head = 0;
    for (let j = 0; j < i; j++) head = head * 256 + (bytes[j] as number);
    limbs.push(head);
  }
  for (; i < bytes.length; i += 4) {
    limbs.push(
      (bytes[i] as number) * 16_777_216 +
        (((bytes[i + 1] as number) << 16) | ((bytes[i + 2] as number) << 8) | (bytes[i + 3] as number)),
    );
  }
  let out = '';
  while (out.length < length) {
    let remainder = 0;
    for (let j = 0; j < limbs.length; j++) {
      const current = remainder * 4_294_967_296 + (limbs[j] as number);
      const quotient = Math.floor(current / BASE62_CUBED);
      limbs[j] = quotient;
      remainder = current - quotient * BASE62_CUBED;
    }
    for (let digit = 0; digit < 3 && out.length < length; digit++) {
      out += BASE62[remainder % 62];
      remainder = Math.floor(remainder / 62);
    }
  }
  return out;
}
