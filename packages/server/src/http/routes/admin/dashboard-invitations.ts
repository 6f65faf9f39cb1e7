import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { inviteUser } from '../../../app/dashboard/accounts.ts';

/** The operator invites a merchant's first dashboard owner; owners invite everyone else. */
export async function dashboardInvitationAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const invite = operations.adminInviteDashboardOwner;
  api.post(
    routePath(invite),
    {
      schema: { params: invite.params, body: invite.body, response: responseSchemas(invite) },
      config: { credential: 'admin', rateLimit: false },
    },
    async (request, reply) => {
      const invitation = await inviteUser(
        ctx,
        request.params.id,
        { email: request.body.email, role: 'owner' },
        null,
      );
      return reply.code(201).send({
        object: 'dashboard_invitation',
        email: invitation.email,
        role: invitation.role,
        expires_at: invitation.expiresAt.toISOString(),
        token: invitation.token,
      });
    },
  );
}
