import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { inviteUser } from '../../../app/back-office-users/accounts.ts';
import { exportAuditCsv, searchAudit } from '../../../app/back-office-users/audit.ts';
import type { AppContext } from '../../../app/context.ts';
import { listTeamMembers } from '../../../app/dashboard/list-team-members.ts';
import { dashboardInvitationResource } from '../../../app/resources/dashboard.ts';
import { listResource } from '../../../app/resources/list.ts';
import { route } from '../../../http/declare-route.ts';
import { sendCsv } from '../csv-download.ts';
import { scopeOf } from '../scope.ts';

/** The team page: users, invitations (owners), the audit log (owners). */
export async function dashboardTeamRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  route(app, operations.dashboardInviteUser, async (request, reply) => {
    const scope = scopeOf(request);
    const invitation = await inviteUser(ctx, scope.merchantId, request.body, scope.user.id, scope.locale);
    return reply.code(201).send(dashboardInvitationResource(invitation));
  });

  route(app, operations.dashboardListUsers, async (request) =>
    listResource(await listTeamMembers(ctx, scopeOf(request).merchantId)),
  );

  route(app, operations.dashboardAuditLog, async (request) => {
    const { data, ...paging } = await searchAudit(ctx, scopeOf(request).merchantId, request.query);
    return { ...listResource(data), ...paging };
  });

  // Every entry the same filters find (owners only, as the log), streamed.
  route(app, operations.dashboardExportAuditLog, async (request, reply) => {
    const csv = exportAuditCsv(ctx, scopeOf(request).merchantId, request.query);
    return sendCsv(reply, ctx.clock.now(), 'audit-log', csv);
  });
}
