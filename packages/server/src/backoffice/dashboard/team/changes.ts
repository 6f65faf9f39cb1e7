import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { changeUserRole } from '../../../app/dashboard/change-user-role.ts';
import { pendingInvitations } from '../../../app/dashboard/list-pending-invitations.ts';
import { removeUser } from '../../../app/dashboard/remove-user.ts';
import { revokeInvitation } from '../../../app/dashboard/revoke-invitation.ts';
import { listResource } from '../../../app/resources/list.ts';
import {
  dashboardUserResource,
  invitationRevocationResource,
  removedDashboardUserResource,
} from '../../../app/resources/sessions.ts';
import { route } from '../../../http/declare-route.ts';
import { scopeOf } from '../scope.ts';

/** The team page's changes (owners only): roles, removal, pending invitations. */
export async function dashboardTeamChangeRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardChangeUserRole, async (request) => {
    const { merchantId, user } = scopeOf(request);
    const member = await changeUserRole(ctx, merchantId, user.id, request.params.id, request.body.role);
    return dashboardUserResource(member);
  });

  route(app, operations.dashboardRemoveUser, async (request) => {
    const { merchantId, user } = scopeOf(request);
    const removed = await removeUser(ctx, merchantId, user.id, request.params.id);
    return removedDashboardUserResource(removed);
  });

  route(app, operations.dashboardListInvitations, async (request) =>
    listResource(await pendingInvitations(ctx, scopeOf(request).merchantId)),
  );

  route(app, operations.dashboardRevokeInvitation, async (request) => {
    const { merchantId, user } = scopeOf(request);
    const revoked = await revokeInvitation(ctx, merchantId, user.id, request.body.email);
    return invitationRevocationResource(revoked);
  });
}
