import type { DashboardRole } from '../../domain/dashboard-roles.ts';
import { AppError, NotFoundError } from '../../domain/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  expirePendingInvitations,
  findTeamMemberForUpdate,
  listPendingInvitations,
  lockOwnersOfMerchant,
  markUserRemoved,
  type TeamMemberRow,
  updateUserRole,
} from '../../storage/repositories/dashboard-team.ts';
import { deleteSessionsOfUser } from '../../storage/repositories/dashboard-users.ts';
import type { AppContext } from '../context.ts';
import { recordAudit } from './audit.ts';

/** The rule both changes check: a merchant always keeps one owner who can administer the team. */
function lastOwnerRefused(what: 'demoted' | 'removed'): AppError {
  return new AppError(
    'invalid_state_transition',
    `The last owner cannot be ${what}: a merchant keeps at least one owner. Make another user an owner first.`,
    { members: { rule: 'last_owner' } },
  );
}

async function lockedMember(tx: Queryable, merchantId: string, userId: string) {
  // Owners first, then the member: every team change takes the locks in this order.
  const owners = await lockOwnersOfMerchant(tx, merchantId);
  const member = await findTeamMemberForUpdate(tx, merchantId, userId);
  if (!member) throw new NotFoundError('dashboard user', userId);
  return { owners, member };
}

function isLastOwner(owners: string[], member: TeamMemberRow): boolean {
  return member.role === 'owner' && owners.length === 1 && owners[0] === member.id;
}

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
