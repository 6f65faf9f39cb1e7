import { ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
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

export interface AuditQuery {
  limit?: number;
  cursor?: string;
  action?: string;
  user_email?: string;
  created_gte?: string;
  created_lt?: string;
}

/** A date (YYYY-MM-DD, the UTC day's start) or an ISO time; anything else names the field. */
function parseBound(field: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const at = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
    throw new ValidationError(field, 'must be a date (YYYY-MM-DD) or an ISO 8601 time');
  }
  return at;
}

/** The cursor is the last entry's (created_at, id), opaque to callers. */
function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [time = '', id = ''] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time);
  if (!id.startsWith('aud_') || Number.isNaN(createdAt.getTime())) {
    throw new ValidationError('cursor', 'is not a cursor this list gave out');
  }
  return { createdAt, id };
}

/** One page of the merchant's audit log, newest first, with the filters of the audit page. */
export async function searchAudit(ctx: AppContext, merchantId: string, query: AuditQuery) {
  const limit = query.limit ?? 50;
  const rows = await listAuditEntries(ctx.db, merchantId, {
    limit: limit + 1,
    ...(query.cursor ? { before: decodeCursor(query.cursor) } : {}),
    ...(query.action ? { action: query.action.trim() } : {}),
    ...(query.user_email ? { userEmail: query.user_email.trim().toLowerCase() } : {}),
    createdGte: parseBound('created_gte', query.created_gte),
    createdLt: parseBound('created_lt', query.created_lt),
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const hasMore = rows.length > limit;
  return {
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(last.created_at, last.id) : null,
    data: page.map((row) => ({
      id: row.id,
      action: row.action,
      target: row.target,
      livemode: row.livemode,
      user_email: row.user_email,
      created_at: row.created_at.toISOString(),
    })),
  };
}

/** The merchant's latest audit entries, newest first (the team page's excerpt). */
export async function listAudit(ctx: AppContext, merchantId: string) {
  return (await searchAudit(ctx, merchantId, { limit: AUDIT_LIST_LIMIT })).data;
}
