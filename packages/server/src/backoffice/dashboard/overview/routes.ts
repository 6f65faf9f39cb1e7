import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { dashboardOverview } from '../../../app/dashboard/overview.ts';
import { route } from '../../../http/declare-route.ts';
import { modePage } from '../page-kit.ts';
import { scopeOf } from '../scope.ts';
import { overviewPage } from './page.ts';

/** The overview: the API and the page, both from `dashboardOverview`. */
export async function dashboardOverviewRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardOverview, async (request) => dashboardOverview(ctx, scopeOf(request)));

  modePage(app, ctx, 'overview', 'overview', async ({ scope, frame }) =>
    overviewPage(frame, await dashboardOverview(ctx, scope)),
  );
}
