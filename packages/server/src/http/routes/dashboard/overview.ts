import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { dashboardOverview } from '../../../app/dashboard/overview.ts';
import { overviewPage } from '../../../dashboard/overview-page.ts';
import { modePage } from './page-kit.ts';
import { scopeOf } from './scope.ts';

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
    async (request) => dashboardOverview(ctx, scopeOf(request)),
  );

  modePage(app, ctx, 'overview', 'overview', async ({ scope, frame }) =>
    overviewPage(frame, await dashboardOverview(ctx, scope)),
  );
}
