import { ValidationError } from './errors.ts';

/**
 * Keyset pages in both directions, for the back office's long lists (payments, webhook deliveries,
 * the audit log): a list is newest first by (created_at, id); `cursor` (a page's next_cursor)
 * reads the rows older than a position, `before` (a page's previous_cursor) the rows newer than
 * one. Rows written meanwhile never shift a page, and no page costs more than its own rows.
 */
export type KeysetSide<P> = { older: P } | { newer: P } | null;

/** The side a request reads from; a cursor that does not decode names its field. */
export function keysetSide<P>(
  cursor: string | undefined,
  before: string | undefined,
  decode: (cursor: string) => P,
): KeysetSide<P> {
  if (cursor !== undefined && before !== undefined)
    throw new ValidationError('before', 'cannot be combined with cursor: pass one of them');
  if (cursor !== undefined) return { older: decode(cursor) };
  if (before === undefined) return null;
  try {
    return { newer: decode(before) };
  } catch (error) {
    if (error instanceof ValidationError)
      throw new ValidationError('before', 'is malformed; pass the previous_cursor of a page unchanged');
    throw error;
  }
}

/** The SQL of a side: the position condition and the order to read `limit + 1` rows in. */
export function keysetSql(
  side: KeysetSide<unknown>,
  columns: { createdAt: string; id: string },
  params: { createdAt: string; id: string },
): { where: string | null; order: string } {
  const key = `(${columns.createdAt}, ${columns.id})`;
  const at = `(${params.createdAt}::timestamptz, ${params.id})`;
  if (side && 'newer' in side)
    return { where: `${key} > ${at}`, order: `${columns.createdAt} ASC, ${columns.id} ASC` };
  return {
    where: side ? `${key} < ${at}` : null,
    order: `${columns.createdAt} DESC, ${columns.id} DESC`,
  };
}

/**
 * One page from the `limit + 1` rows a side read (newer rows come oldest first and are turned
 * round): the rows shown newest first, and whether older and newer rows exist. A page read from
 * a cursor has newer rows (the page it came from), one read from `before` has older ones.
 */
export function keysetPage<R>(
  rows: R[],
  limit: number,
  side: KeysetSide<unknown>,
): { rows: R[]; hasOlder: boolean; hasNewer: boolean } {
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  if (side && 'newer' in side) return { rows: shown.reverse(), hasOlder: true, hasNewer: more };
  return { rows: shown, hasOlder: more, hasNewer: side !== null };
}

/**
 * keysetSql for a query whose parameters are numbered as they are added: `param` adds the
 * position's two values only when the side has one (an unused parameter has no type in SQL).
 */
export function keysetWhere(
  side: KeysetSide<{ createdAt: string; id: string }>,
  columns: { createdAt: string; id: string },
  param: (value: unknown) => string,
): { where: string | null; order: string } {
  if (!side) return keysetSql(null, columns, { createdAt: '', id: '' });
  const position = 'older' in side ? side.older : side.newer;
  return keysetSql(side, columns, { createdAt: param(position.createdAt), id: param(position.id) });
}

/** The select of a row's exact position (microseconds, UTC), the text a cursor carries. */
export function positionAt(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at`;
}
