import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { listClients } from '../../../app/clients/client-telemetry.ts';
import type { AppContext } from '../../../app/context.ts';
import { clientsWithDeprecations } from '../../../app/deprecations/client-deprecations.ts';
import { listResource } from '../../../app/resources/list.ts';
import { route } from '../../../http/declare-route.ts';
import { modePage } from '../page-kit.ts';
import { scopeOf } from '../scope.ts';
import { clientsPage } from './page.ts';

/** The clients page: which Paygate client libraries and versions called the API, per mode. */
export async function dashboardClientRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardListClients, async (request) =>
    listResource(await listClients(ctx, scopeOf(request))),
  );

  modePage(app, ctx, 'clients', 'clients', async ({ scope, frame }) =>
    clientsPage(frame, await clientsWithDeprecations(ctx, scope)),
  );
}
