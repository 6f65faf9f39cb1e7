import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { dashboardOverview } from '../../../app/dashboard/overview.ts';
import { t } from '../../../dashboard/i18n.ts';
import { overviewPage } from '../../../dashboard/overview-page.ts';
import { dashboardCallerOf } from '../../plugins/dashboard-auth.ts';
import { modePage } from './page-kit.ts';

/** The overview: the API and the page, both from `dashboardOverview`. */
export async function dashboardOverviewRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const op = operations.dashboardOverview;
  api.get(
    routePath(op),
    { schema: { params: op.params, response: responseSchemas(op) }, config: { dashboard: 'read' } },
    async (request) => {
      const { user } = dashboardCallerOf(request);
      return dashboardOverview(ctx, {
        merchantId: user.merchant_id,
        livemode: request.params.mode === 'live',
      });
    },
  );

  modePage(
    app,
    ctx,
    'overview',
    (lang) => t(lang).overview,
    async ({ found, mode, frame }) =>
      overviewPage(
        frame,
        await dashboardOverview(ctx, { merchantId: found.user.merchant_id, livemode: mode === 'live' }),
      ),
  );
}
