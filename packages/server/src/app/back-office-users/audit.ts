import { csvLine, keysetCsv } from '../../domain/csv.ts';
import { ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { type KeysetSide, keysetPage, keysetSide } from '../../domain/keyset.ts';
import type { ListPosition } from '../../domain/list-cursor.ts';
import { decodeTransactionCursor, encodeTransactionCursor } from '../../domain/transaction-cursor.ts';
import type { Queryable } from '../../storage/db.ts';
import { insertAuditEntry, listAuditEntries } from '../../storage/repositories/dashboard-users.ts';
import type { AppContext } from '../context.ts';

export interface AuditAction {
  merchantId: string;
  /** Null for the operator. */
  userId: string | null;
  /** Dotted, past-tense-free names: `refund.created`, `sign_in.failed`, `invitation.created`. */
  action: string;
  target?: string;
  livemode?: boolean;
}

/** Writes one audit entry in the caller's transaction, so an action and its record commit together. */
export async function recordAudit(tx: Queryable, now: Date, entry: AuditAction): Promise<void> {
  await insertAuditEntry(tx, {
    id: newId('aud'),
    merchant_id: entry.merchantId,
    user_id: entry.userId,
    action: entry.action,
    target: entry.target ?? null,
    livemode: entry.livemode ?? null,
    created_at: now,
  });
}

export const AUDIT_LIST_LIMIT = 200;
export const AUDIT_PAGE_LIMIT = 50;

export interface AuditQuery {
  limit?: number | undefined;
  /** A page's next_cursor: the older entries after it. */
  cursor?: string | undefined;
  /** A page's previous_cursor: the newer entries before it. */
  before?: string | undefined;
  action?: string | undefined;
  user_email?: string | undefined;
  created_gte?: string | undefined;
  created_lt?: string | undefined;
}

/** A date (YYYY-MM-DD, the UTC day's start) or an ISO time; anything else names the field. */
export function parseBound(field: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const at = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
    throw new ValidationError(field, 'must be a date (YYYY-MM-DD) or an ISO 8601 time');
  }
  return at;
}

/** An audit page's rows per page from its URL: 1 to 200 (the API's bounds), 50 when it has none. */
export function pageLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 200) {
    throw new ValidationError('limit', 'must be a whole number from 1 to 200');
  }
  return Number(value);
}

/**
 * One page of an audit log from the rows its side read: keyset pages both ways (domain/keyset.ts)
 * with the payments' signed cursors, so a cursor this service did not give out is refused.
 */
export function auditPageOf<R>(
  ctx: AppContext,
  rows: { entry: R; position: ListPosition }[],
  limit: number,
  side: KeysetSide<ListPosition>,
) {
  const page = keysetPage(rows, limit, side);
  const first = page.rows[0];
  const last = page.rows.at(-1);
  return {
    has_more: page.hasOlder,
    next_cursor: page.hasOlder && last ? encodeTransactionCursor(last.position, ctx.cursorKey) : null,
    previous_cursor: page.hasNewer && first ? encodeTransactionCursor(first.position, ctx.cursorKey) : null,
    entries: page.rows.map((row) => row.entry),
  };
}

/** The side an audit page reads from; a cursor that does not decode names its field. */
export function auditSide(
  ctx: AppContext,
  query: { cursor?: string | undefined; before?: string | undefined },
) {
  return keysetSide(query.cursor, query.before, (cursor) =>
    decodeTransactionCursor(cursor, ctx.cursorKey, 'aud'),
  );
}

/** One page of the merchant's audit log, newest first, with the filters of the audit page. */
export async function searchAudit(ctx: AppContext, merchantId: string, query: AuditQuery) {
  const limit = query.limit ?? AUDIT_PAGE_LIMIT;
  const side = auditSide(ctx, query);
  const rows = await listAuditEntries(ctx.db, merchantId, {
    ...auditFilterOf(query),
    limit: limit + 1,
    side,
  });
  const { entries, ...page } = auditPageOf(ctx, rows, limit, side);
  return {
    ...page,
    data: entries.map((row) => ({
      id: row.id,
      action: row.action,
      target: row.target,
      livemode: row.livemode,
      user_email: row.user_email,
      created_at: row.created_at.toISOString(),
    })),
  };
}

export type AuditFilterInput = Omit<AuditQuery, 'limit' | 'cursor' | 'before'>;

/** The audit page's filters as the repository reads them; a bad date names its field. */
function auditFilterOf(query: AuditFilterInput) {
  return {
    action: query.action?.trim() || undefined,
    userEmail: query.user_email?.trim().toLowerCase() || undefined,
    createdGte: parseBound('created_gte', query.created_gte),
    createdLt: parseBound('created_lt', query.created_lt),
  };
}

export const AUDIT_CSV_COLUMNS = ['id', 'created_at', 'user_email', 'action', 'target', 'livemode'] as const;

/**
 * Every audit entry the filters find (the page's and the API's, without the paging), newest
 * first, as CSV text (domain/csv.ts's keysetCsv: flat memory; injection-safe cells).
 */
export function exportAuditCsv(
  ctx: AppContext,
  merchantId: string,
  input: AuditFilterInput,
): AsyncIterable<string> {
  const filter = auditFilterOf(input);
  return keysetCsv(
    AUDIT_CSV_COLUMNS,
    (after: ListPosition | undefined, limit) =>
      listAuditEntries(ctx.db, merchantId, { ...filter, limit, side: after ? { older: after } : null }),
    ({ entry }) =>
      csvLine([
        entry.id,
        entry.created_at.toISOString(),
        entry.user_email,
        entry.action,
        entry.target,
        entry.livemode,
      ]),
  );
}

/** The merchant's latest audit entries, newest first (the team page's excerpt). */
export async function listAudit(ctx: AppContext, merchantId: string) {
  return (await searchAudit(ctx, merchantId, { limit: AUDIT_LIST_LIMIT })).data;
}
