import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { listAudit } from '../../../app/dashboard/audit.ts';
import { pendingInvitations } from '../../../app/dashboard/list-pending-invitations.ts';
import { listTeamMembers } from '../../../app/dashboard/list-team-members.ts';
import { DASHBOARD_CSS, DASHBOARD_ICON, DASHBOARD_JS } from '../../../dashboard/assets.ts';
import { pickLanguage, t } from '../../../dashboard/i18n.ts';
import { href } from '../../../dashboard/navigation.ts';
import { acceptInvitationPage, signInPage, teamPage } from '../../../dashboard/pages.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { dashboardPage, html, text } from './page-kit.ts';

/**
 * The back office's pages, rendered on the server from the same use cases the dashboard API
 * calls. A page without a live session sends the browser to the sign-in page; the role decides
 * what the page offers (the API behind each form checks it again).
 */
export async function dashboardPageRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const assets = {
    'dashboard.css': ['text/css', DASHBOARD_CSS],
    'dashboard.js': ['text/javascript', DASHBOARD_JS],
    'favicon.svg': ['image/svg+xml', DASHBOARD_ICON],
  };
  app.get<{ Params: { name: string } }>('/dashboard/assets/:name', async (request, reply) => {
    const asset = Object.entries(assets).find(([name]) => name === request.params.name)?.[1];
    if (!asset) return reply.code(404).type('text/plain').send('not found');
    return reply.type(`${asset[0]}; charset=utf-8`).header('cache-control', 'no-cache').send(asset[1]);
  });

  app.get('/dashboard', async (request, reply) =>
    reply.redirect(
      href('/dashboard/test/payments', pickLanguage(request.query, request.headers['accept-language'])),
      303,
    ),
  );
  app.get('/dashboard/sign-in', async (request, reply) =>
    html(reply, signInPage(pickLanguage(request.query, request.headers['accept-language']))),
  );
  app.get('/dashboard/accept-invitation', async (request, reply) =>
    html(
      reply,
      acceptInvitationPage(
        pickLanguage(request.query, request.headers['accept-language']),
        text(request.query, 'token'),
      ),
    ),
  );

  dashboardPage(app, ctx, '/dashboard/team', async (request, reply, { scope, frame }) => {
    const { merchantId } = scope;
    const users = await listTeamMembers(ctx, merchantId);
    const owner = roleAllows(scope.role, 'administer');
    const audit = owner ? await listAudit(ctx, merchantId) : null;
    const invitations = owner ? await pendingInvitations(ctx, merchantId) : null;
    const framed = await frame('/dashboard/team', t(scope.locale).team);
    return html(reply, teamPage(framed, { users, audit, invitations }, text(request.query, 'removed')));
  });
}
