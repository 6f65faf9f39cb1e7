import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from './errors.ts';
import { hasIdShape, type IdPrefix } from './ids.ts';

/** A row's place in the transaction list order: its exact created_at (UTC, microseconds) and id. */
export interface TransactionPosition {
  createdAt: string;
  id: string;
}

const VERSION = '2';
const SEPARATOR = '|';
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** 128 bits of HMAC-SHA256: forging one is out of reach, and the cursor stays short. */
const MAC_BYTES = 16;

function malformed(): ValidationError {
  return new ValidationError('cursor', 'is malformed; pass the next_cursor of the previous page unchanged');
}

function macOf(payload: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(payload, 'utf8').digest().subarray(0, MAC_BYTES);
}

/**
 * The list cursor: base64url of `2|<created_at>|<id>`, a dot, and a truncated HMAC of that text
 * under a key derived from the master key. Opaque to callers; the MAC makes a well-formed
 * position that this service never issued fail (a forged cursor could otherwise page from any
 * place, e.g. to probe ids or timing). It holds no tenant data beyond a position, and a cursor of
 * one tenant used by another only positions in that tenant's own list.
 */
export function encodeTransactionCursor(position: TransactionPosition, key: Buffer): string {
  const payload = [VERSION, position.createdAt, position.id].join(SEPARATOR);
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${macOf(payload, key).toString('base64url')}`;
}

/**
 * Reads a cursor back; anything that is not one this service issued is `400 validation_error`.
 * `idPrefix` names the list (the payment search pages intents, `pi`, the same way).
 */
export function decodeTransactionCursor(
  cursor: string,
  key: Buffer,
  idPrefix: IdPrefix = 'txn',
): TransactionPosition {
  const match = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!match) throw malformed();
  const payload = Buffer.from(match[1] as string, 'base64url').toString('utf8');
  const presented = Buffer.from(match[2] as string, 'base64url');
  // Equal lengths by the pattern above; compared in constant time before anything is parsed.
  if (presented.length !== MAC_BYTES || !timingSafeEqual(presented, macOf(payload, key))) throw malformed();
  const parts = payload.split(SEPARATOR);
  if (parts.length !== 3) throw malformed();
  const [version, createdAt, id] = parts as [string, string, string];
  if (version !== VERSION) throw malformed();
  if (!INSTANT.test(createdAt) || !Number.isFinite(Date.parse(createdAt))) throw malformed();
  if (!hasIdShape(id, idPrefix)) throw malformed();
  // Round-trip check: a cursor that decodes but is not in canonical form was not made here.
  if (encodeTransactionCursor({ createdAt, id }, key) !== cursor) throw malformed();
  return { createdAt, id };
}
