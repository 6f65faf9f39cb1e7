import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { changeUserRole } from '../../../app/dashboard/change-user-role.ts';
import { pendingInvitations } from '../../../app/dashboard/list-pending-invitations.ts';
import { removeUser } from '../../../app/dashboard/remove-user.ts';
import { revokeInvitation } from '../../../app/dashboard/revoke-invitation.ts';
import { scopeOf } from './scope.ts';

/** The team page's changes (owners only): roles, removal, pending invitations. */
export async function dashboardTeamChangeRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const role = operations.dashboardChangeUserRole;
  api.post(
    routePath(role),
    {
      schema: { params: role.params, body: role.body, response: responseSchemas(role) },
      config: { dashboard: 'administer' },
    },
    async (request) => {
      const { merchantId, user } = scopeOf(request);
      const member = await changeUserRole(ctx, merchantId, user.id, request.params.id, request.body.role);
      return {
        object: 'dashboard_user' as const,
        id: member.id,
        email: member.email,
        role: member.role,
        created_at: member.created_at.toISOString(),
      };
    },
  );

  const remove = operations.dashboardRemoveUser;
  api.post(
    routePath(remove),
    {
      schema: { params: remove.params, response: responseSchemas(remove) },
      config: { dashboard: 'administer' },
    },
    async (request) => {
      const { merchantId, user } = scopeOf(request);
      const removed = await removeUser(ctx, merchantId, user.id, request.params.id);
      return {
        object: 'dashboard_user' as const,
        id: removed.id,
        removed: true as const,
        sessions_ended: removed.sessionsEnded,
      };
    },
  );

  api.get(
    routePath(operations.dashboardListInvitations),
    {
      schema: { response: responseSchemas(operations.dashboardListInvitations) },
      config: { dashboard: 'administer' },
    },
    async (request) => ({
      object: 'list' as const,
      data: await pendingInvitations(ctx, scopeOf(request).merchantId),
    }),
  );

  const revoke = operations.dashboardRevokeInvitation;
  api.post(
    routePath(revoke),
    { schema: { body: revoke.body, response: responseSchemas(revoke) }, config: { dashboard: 'administer' } },
    async (request) => {
      const { merchantId, user } = scopeOf(request);
      const revoked = await revokeInvitation(ctx, merchantId, user.id, request.body.email);
      return { object: 'invitation_revocation' as const, email: revoked.email, revoked: revoked.revoked };
    },
  );
}
