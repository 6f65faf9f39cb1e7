import { newId } from '../domain/ids.ts';
import type { Queryable } from '../storage/db.ts';
import { insertAuditEntry, listAuditEntries } from '../storage/repositories/dashboard-users.ts';
import type { AppContext } from './context.ts';

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

/** The merchant's latest audit entries, newest first. */
export async function listAudit(ctx: AppContext, merchantId: string) {
  const rows = await listAuditEntries(ctx.db, merchantId, AUDIT_LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    target: row.target,
    livemode: row.livemode,
    user_email: row.user_email,
    created_at: row.created_at.toISOString(),
  }));
}
