import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { dashboardOverview } from '../../../app/dashboard-overview.ts';
import { rt } from '../../../dashboard/i18n-rest.ts';
import { overviewPage } from '../../../dashboard/overview-page.ts';
import { dashboardCallerOf } from '../../plugins/dashboard-auth.ts';
import { frameFor, html, isMode, languageOf, signedIn } from './page-kit.ts';

/** The overview: the API and the page, both from `dashboardOverview`. */
export async function dashboardOverviewRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const op = operations.dashboardOverview;
  api.get(
    routePath(op),
    { schema: { params: op.params, response: { 200: op.response } }, config: { dashboard: 'read' } },
    async (request) => {
      const { user } = dashboardCallerOf(request);
      return dashboardOverview(ctx, {
        merchantId: user.merchant_id,
        livemode: request.params.mode === 'live',
      });
    },
  );

  app.get<{ Params: { mode: string } }>('/dashboard/:mode/overview', async (request, reply) => {
    const lang = languageOf(request);
    const { mode } = request.params;
    if (!isMode(mode)) return reply.code(404).type('text/plain').send('not found');
    const found = await signedIn(ctx, request, reply, lang);
    if (!found) return reply;
    const overview = await dashboardOverview(ctx, {
      merchantId: found.user.merchant_id,
      livemode: mode === 'live',
    });
    const frame = frameFor(lang, `/dashboard/${mode}/overview`, rt(lang).overview, mode, found);
    return html(reply, overviewPage(frame, overview));
  });
}
