import { AppError, NotFoundError } from '../../domain/errors.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  findTeamMemberForUpdate,
  lockOwnersOfMerchant,
  type TeamMemberRow,
} from '../../storage/repositories/dashboard-team.ts';

// What every change of a merchant's team checks first: the member, locked after the owners (the
// order every team change takes), and the rule that a merchant keeps one owner.

/** The rule both changes check: a merchant always keeps one owner who can administer the team. */
export function lastOwnerRefused(what: 'demoted' | 'removed'): AppError {
  return new AppError(
    'invalid_state_transition',
    `The last owner cannot be ${what}: a merchant keeps at least one owner. Make another user an owner first.`,
    { members: { rule: 'last_owner' } },
  );
}

/** The member, locked after the merchant's owners; `404` for a user not in the team. */
export async function lockedMember(tx: Queryable, merchantId: string, userId: string) {
  // Owners first, then the member: every team change takes the locks in this order.
  const owners = await lockOwnersOfMerchant(tx, merchantId);
  const member = await findTeamMemberForUpdate(tx, merchantId, userId);
  if (!member) throw new NotFoundError('dashboard user', userId);
  return { owners, member };
}

/** Whether the member is the merchant's only owner. */
export function isLastOwner(owners: string[], member: TeamMemberRow): boolean {
  return member.role === 'owner' && owners.length === 1 && owners[0] === member.id;
}
