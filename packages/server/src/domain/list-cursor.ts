import { ValidationError } from './errors.ts';
import { hasIdShape, type IdPrefix } from './ids.ts';

/** A row's place in a newest-first list: its exact created_at (UTC, microseconds) and id. */
export interface ListPosition {
  createdAt: string;
  id: string;
}

const VERSION = '1';
const SEPARATOR = '|';
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function malformed(): ValidationError {
  return new ValidationError('cursor', 'is malformed; pass the next_cursor of the previous page unchanged');
}

/** The operator lists' cursor: base64url of `1|<created_at>|<id>`, opaque to callers. */
export function encodeListCursor(position: ListPosition): string {
  return Buffer.from([VERSION, position.createdAt, position.id].join(SEPARATOR), 'utf8').toString(
    'base64url',
  );
}

/** Reads a cursor of a list of `prefix` ids back; anything else is `400 validation_error`. */
export function decodeListCursor(cursor: string, prefix: IdPrefix): ListPosition {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw malformed();
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split(SEPARATOR);
  if (parts.length !== 3) throw malformed();
  const [version, createdAt, id] = parts as [string, string, string];
  if (version !== VERSION || !INSTANT.test(createdAt) || !Number.isFinite(Date.parse(createdAt)))
    throw malformed();
  if (!hasIdShape(id, prefix)) throw malformed();
  if (encodeListCursor({ createdAt, id }) !== cursor) throw malformed();
  return { createdAt, id };
}
