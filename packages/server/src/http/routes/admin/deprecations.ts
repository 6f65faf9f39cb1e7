import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { announceDeprecation } from '../../../app/deprecations/announce-deprecation.ts';
import {
  listAnnouncedDeprecations,
  retrieveDeprecation,
} from '../../../app/deprecations/retrieve-deprecation.ts';
import { deprecationResource, deprecationSummaryResource } from '../../../app/resources/deprecation.ts';
import { listResource } from '../../../app/resources/list.ts';
import { route } from '../../declare-route.ts';
import { creatingRoute } from './creating-route.ts';

/** Deprecation notices: announce one (the affected teams are e-mailed), list, and see who was told. */
export async function deprecationAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  creatingRoute(app, ctx, operations.adminCreateDeprecation, async (request, keyed) => ({
    status: 201,
    body: deprecationResource(await announceDeprecation(keyed, request.body)),
  }));
  route(app, operations.adminListDeprecations, async () =>
    listResource((await listAnnouncedDeprecations(ctx)).map(deprecationSummaryResource)),
  );
  route(app, operations.adminRetrieveDeprecation, async (request) =>
    deprecationResource(await retrieveDeprecation(ctx, request.params.id)),
  );
}
