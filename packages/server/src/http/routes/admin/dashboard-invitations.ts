import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { inviteUser } from '../../../app/back-office-users/accounts.ts';
import type { AppContext } from '../../../app/context.ts';
import { dashboardInvitationResource } from '../../../app/resources/dashboard.ts';
import { creatingRoute } from './creating-route.ts';

/** The operator invites a merchant's first dashboard owner; owners invite everyone else. */
export async function dashboardInvitationAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  creatingRoute(app, ctx, operations.adminInviteDashboardOwner, async (request, keyed) => {
    const invitation = await inviteUser(
      keyed,
      request.params.id,
      { email: request.body.email, role: 'owner' },
      null,
    );
    return {
      status: 201,
      body: dashboardInvitationResource(invitation),
    };
  });
}
