import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { listLateCapturesFor, retrieveLateCapture } from '../../../app/payments/late-captures.ts';
import { lateCaptureResource } from '../../../app/resources/operator.ts';

/** The operator's view of late captures and their automatic repair (docs/operations.md). */
export async function lateCaptureAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { credential: 'admin' as const, rateLimit: false };

  const list = operations.adminListLateCaptures;
  api.get(
    routePath(list),
    { schema: { querystring: list.querystring, response: responseSchemas(list) }, config },
    async (request) => {
      const captures = await listLateCapturesFor(ctx, {
        repairStatus: request.query.repair_status ?? null,
        limit: request.query.limit ?? 20,
      });
      return { object: 'list', data: captures.map(lateCaptureResource) };
    },
  );

  const retrieve = operations.adminRetrieveLateCapture;
  api.get(
    routePath(retrieve),
    { schema: { params: retrieve.params, response: responseSchemas(retrieve) }, config },
    async (request) => {
      return lateCaptureResource(await retrieveLateCapture(ctx, request.params.id));
    },
  );
}
