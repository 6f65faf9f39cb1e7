import { ValidationError } from './errors.ts';
import { hasIdShape } from './ids.ts';

/** A row's place in the transaction list order: its exact created_at (UTC, microseconds) and id. */
export interface TransactionPosition {
  createdAt: string;
  id: string;
}

const VERSION = '1';
const SEPARATOR = '|';
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function malformed(): ValidationError {
  return new ValidationError('cursor', 'is malformed; pass the next_cursor of the previous page unchanged');
}

/**
 * The list cursor: base64url of `1|<created_at>|<id>`. Opaque to callers; the version lets the
 * format change later without misreading old cursors. It holds no tenant data beyond a position,
 * and a cursor of one tenant used by another only positions in that tenant's own list.
 */
export function encodeTransactionCursor(position: TransactionPosition): string {
  return Buffer.from([VERSION, position.createdAt, position.id].join(SEPARATOR), 'utf8').toString(
    'base64url',
  );
}

/** Reads a cursor back; anything that is not one this service issued is `400 validation_error`. */
export function decodeTransactionCursor(cursor: string): TransactionPosition {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw malformed();
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split(SEPARATOR);
  if (parts.length !== 3) throw malformed();
  const [version, createdAt, id] = parts as [string, string, string];
  if (version !== VERSION) throw malformed();
  if (!INSTANT.test(createdAt) || !Number.isFinite(Date.parse(createdAt))) throw malformed();
  if (!hasIdShape(id, 'txn')) throw malformed();
  // Round-trip check: a cursor that decodes but is not in canonical form was not made here.
  if (encodeTransactionCursor({ createdAt, id }) !== cursor) throw malformed();
  return { createdAt, id };
}
