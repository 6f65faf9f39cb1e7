import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { announceDeprecation } from '../../../app/deprecations/announce-deprecation.ts';
import {
  listAnnouncedDeprecations,
  retrieveDeprecation,
} from '../../../app/deprecations/retrieve-deprecation.ts';
import { deprecationResource, deprecationSummaryResource } from '../../../app/resources/deprecation.ts';
import { route } from '../../declare-route.ts';

/** Deprecation notices: announce one (the affected teams are e-mailed), list, and see who was told. */
export async function deprecationAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.adminCreateDeprecation, async (request, reply) => {
    return reply.code(201).send(deprecationResource(await announceDeprecation(ctx, request.body)));
  });
  route(app, operations.adminListDeprecations, async () => ({
    object: 'list' as const,
    data: (await listAnnouncedDeprecations(ctx)).map(deprecationSummaryResource),
  }));
  route(app, operations.adminRetrieveDeprecation, async (request) =>
    deprecationResource(await retrieveDeprecation(ctx, request.params.id)),
  );
}
