import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { inviteUser } from '../../../app/dashboard/accounts.ts';
import { route } from '../../declare-route.ts';

/** The operator invites a merchant's first dashboard owner; owners invite everyone else. */
export async function dashboardInvitationAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.adminInviteDashboardOwner, async (request, reply) => {
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
      accept_url: invitation.acceptUrl,
    });
  });
}
