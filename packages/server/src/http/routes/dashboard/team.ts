import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { inviteUser } from '../../../app/dashboard/accounts.ts';
import { searchAudit } from '../../../app/dashboard/audit.ts';
import { pickLanguage } from '../../../dashboard/i18n.ts';
import { listUsersOfMerchant } from '../../../storage/repositories/dashboard-users.ts';
import { dashboardCallerOf } from '../../plugins/dashboard-auth.ts';

/** The team page: users, invitations (owners), the audit log (owners). */
export async function dashboardTeamRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const invite = operations.dashboardInviteUser;
  api.post(
    routePath(invite),
    { schema: { body: invite.body, response: responseSchemas(invite) }, config: { dashboard: 'administer' } },
    async (request, reply) => {
      const { user } = dashboardCallerOf(request);
      const lang = pickLanguage(request.query, request.headers['accept-language']);
      const invitation = await inviteUser(ctx, user.merchant_id, request.body, user.id, lang);
      return reply.code(201).send({
        object: 'dashboard_invitation',
        email: invitation.email,
        role: invitation.role,
        expires_at: invitation.expiresAt.toISOString(),
        token: invitation.token,
        accept_url: invitation.acceptUrl,
      });
    },
  );

  api.get(
    routePath(operations.dashboardListUsers),
    { schema: { response: responseSchemas(operations.dashboardListUsers) }, config: { dashboard: 'read' } },
    async (request) => {
      const users = await listUsersOfMerchant(ctx.db, dashboardCallerOf(request).user.merchant_id);
      return {
        object: 'list' as const,
        data: users.map((u) => ({
          id: u.id,
          email: u.email,
          role: u.role,
          created_at: u.created_at.toISOString(),
        })),
      };
    },
  );

  api.get(
    routePath(operations.dashboardAuditLog),
    {
      schema: {
        querystring: operations.dashboardAuditLog.querystring,
        response: responseSchemas(operations.dashboardAuditLog),
      },
      config: { dashboard: 'administer' },
    },
    async (request) => ({
      object: 'list' as const,
      ...(await searchAudit(ctx, dashboardCallerOf(request).user.merchant_id, request.query)),
    }),
  );
}
