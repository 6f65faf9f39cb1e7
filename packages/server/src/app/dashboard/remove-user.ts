import { markUserRemoved } from '../../storage/repositories/dashboard-team.ts';
import { deleteSessionsOfUser } from '../../storage/repositories/dashboard-users.ts';
import { recordAudit } from '../back-office-users/audit.ts';
import type { AppContext } from '../context.ts';
import { isLastOwner, lastOwnerRefused, lockedMember } from './team-member-checks.ts';

/** Removes a user from the team: their sessions end in the same transaction, so at once. */
export async function removeUser(
  ctx: AppContext,
  merchantId: string,
  actingUserId: string,
  userId: string,
): Promise<{ id: string; sessionsEnded: number }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const { owners, member } = await lockedMember(tx, merchantId, userId);
    if (isLastOwner(owners, member)) throw lastOwnerRefused('removed');
    await markUserRemoved(tx, member.id, now);
    const sessionsEnded = await deleteSessionsOfUser(tx, member.id);
    await recordAudit(tx, now, {
      merchantId,
      userId: actingUserId,
      action: 'user.removed',
      target: member.email,
    });
    return { id: member.id, sessionsEnded };
  });
}
