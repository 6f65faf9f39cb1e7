import type { FastifyInstance } from 'fastify';
import { pickLanguage } from '../../i18n/i18n.ts';
import { DASHBOARD_CSS, DASHBOARD_ICON, DASHBOARD_JS } from '../kit/assets.ts';
import { href } from '../kit/navigation.ts';

/**
 * The back office's stylesheet, script and icon, and its front door (`/dashboard`). Its pages are
 * registered beside their actions in each screen's folder (session/page-routes.ts, team/forms.ts, ...), rendered on the server
 * from the same use cases the dashboard API calls.
 */
export async function dashboardPageRoutes(app: FastifyInstance): Promise<void> {
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
}
