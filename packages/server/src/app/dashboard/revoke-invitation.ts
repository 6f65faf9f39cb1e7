import { NotFoundError } from '../../domain/errors.ts';
import { expirePendingInvitations } from '../../storage/repositories/dashboard-team.ts';
import { recordAudit } from '../back-office-users/audit.ts';
import type { AppContext } from '../context.ts';

/** Revokes every pending invitation of the address; answers how many there were. */
export async function revokeInvitation(
  ctx: AppContext,
  merchantId: string,
  actingUserId: string,
  rawEmail: string,
): Promise<{ email: string; revoked: number }> {
  const email = rawEmail.trim().toLowerCase();
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const revoked = await expirePendingInvitations(tx, merchantId, email, now);
    if (revoked === 0) throw new NotFoundError('pending invitation', email);
    await recordAudit(tx, now, {
      merchantId,
      userId: actingUserId,
      action: 'invitation.revoked',
      target: email,
    });
    return { email, revoked };
  });
}
