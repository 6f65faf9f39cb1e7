import type { DashboardRole } from '../../domain/dashboard-roles.ts';
import { type TeamMemberRow, updateUserRole } from '../../storage/repositories/dashboard-team.ts';
import { recordAudit } from '../back-office-users/audit.ts';
import type { AppContext } from '../context.ts';
import { isLastOwner, lastOwnerRefused, lockedMember } from './team-member-checks.ts';

/** Gives a user of the merchant another role; the last owner stays an owner. */
export async function changeUserRole(
  ctx: AppContext,
  merchantId: string,
  actingUserId: string,
  userId: string,
  role: DashboardRole,
): Promise<TeamMemberRow> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const { owners, member } = await lockedMember(tx, merchantId, userId);
    if (role !== 'owner' && isLastOwner(owners, member)) throw lastOwnerRefused('demoted');
    if (member.role !== role) {
      await updateUserRole(tx, member.id, role);
      await recordAudit(tx, now, {
        merchantId,
        userId: actingUserId,
        action: 'user.role_changed',
        target: `${member.email}: ${member.role} -> ${role}`,
      });
    }
    return { ...member, role };
  });
}
