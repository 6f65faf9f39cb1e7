import type { IdPrefix } from '../domain/ids.ts';
import { decodeListCursor, encodeListCursor, type ListPosition } from '../domain/list-cursor.ts';
import { type Page, pageResource } from './resources/list.ts';

// Cursor pagination of the operator's lists, like the transaction list: newest first, an opaque
// cursor naming the last row shown.

export type { Page };

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** The position to continue after, from the caller's cursor (a malformed one is `400`). */
export function pageStart(request: PageRequest, prefix: IdPrefix): ListPosition | null {
  return request.cursor === undefined ? null : decodeListCursor(request.cursor, prefix);
}

/** A page from `limit + 1` rows read newest first: the extra row only says that more follow. */
export function toPage<Row extends { id: string; position: string }, T>(
  rows: Row[],
  limit: number,
  show: (row: Row) => T,
): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const hasMore = rows.length > limit;
  return pageResource(
    shown.map(show),
    hasMore,
    hasMore && last ? encodeListCursor({ createdAt: last.position, id: last.id }) : null,
  );
}
