import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { changeUserRole } from '../../../app/dashboard/change-user-role.ts';
import { pendingInvitations } from '../../../app/dashboard/list-pending-invitations.ts';
import { removeUser } from '../../../app/dashboard/remove-user.ts';
import { revokeInvitation } from '../../../app/dashboard/revoke-invitation.ts';
import { route } from '../../declare-route.ts';
import { scopeOf } from './scope.ts';

/** The team page's changes (owners only): roles, removal, pending invitations. */
export async function dashboardTeamChangeRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardChangeUserRole, async (request) => {
    const { merchantId, user } = scopeOf(request);
    const member = await changeUserRole(ctx, merchantId, user.id, request.params.id, request.body.role);
    return {
      object: 'dashboard_user' as const,
      id: member.id,
      email: member.email,
      role: member.role,
      created_at: member.created_at.toISOString(),
    };
  });

  route(app, operations.dashboardRemoveUser, async (request) => {
    const { merchantId, user } = scopeOf(request);
    const removed = await removeUser(ctx, merchantId, user.id, request.params.id);
    return {
      object: 'dashboard_user' as const,
      id: removed.id,
      removed: true as const,
      sessions_ended: removed.sessionsEnded,
    };
  });

  route(app, operations.dashboardListInvitations, async (request) => ({
    object: 'list' as const,
    data: await pendingInvitations(ctx, scopeOf(request).merchantId),
  }));

  route(app, operations.dashboardRevokeInvitation, async (request) => {
    const { merchantId, user } = scopeOf(request);
    const revoked = await revokeInvitation(ctx, merchantId, user.id, request.body.email);
    return { object: 'invitation_revocation' as const, email: revoked.email, revoked: revoked.revoked };
  });
}
