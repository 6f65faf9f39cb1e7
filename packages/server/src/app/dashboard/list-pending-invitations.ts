import { listPendingInvitations } from '../../storage/repositories/dashboard-team.ts';
import type { AppContext } from '../context.ts';

/** The merchant's invitations not yet accepted and not expired (the team page). */
export async function pendingInvitations(ctx: AppContext, merchantId: string) {
  const rows = await listPendingInvitations(ctx.db, merchantId, ctx.clock.now());
  return rows.map((row) => ({
    email: row.email,
    role: row.role,
    invited_by: row.invited_by_email,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  }));
}
