import { listUsersOfMerchant } from '../../storage/repositories/dashboard-users.ts';
import type { AppContext } from '../context.ts';

/** The merchant's current users (removed ones left out), oldest first, as the team list shows them. */
export async function listTeamMembers(ctx: AppContext, merchantId: string) {
  const users = await listUsersOfMerchant(ctx.db, merchantId);
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    role: u.role,
    created_at: u.created_at.toISOString(),
  }));
}
