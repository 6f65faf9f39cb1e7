import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { lateCaptureResource } from '../../../app/late-captures.ts';
import { NotFoundError } from '../../../domain/errors.ts';
import { findLateCapture, listLateCaptures } from '../../../storage/repositories/late-captures.ts';

/** The operator's view of late captures and their automatic repair (docs/operations.md). */
export async function lateCaptureAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { credential: 'admin' as const, rateLimit: false };

  const list = operations.adminListLateCaptures;
  api.get(routePath(list), { schema: { querystring: list.querystring }, config }, async (request) => {
    const captures = await listLateCaptures(ctx.db, {
      repairStatus: request.query.repair_status ?? null,
      limit: request.query.limit ?? 20,
    });
    return { object: 'list', data: captures.map(lateCaptureResource) };
  });

  const retrieve = operations.adminRetrieveLateCapture;
  api.get(routePath(retrieve), { schema: { params: retrieve.params }, config }, async (request) => {
    const capture = await findLateCapture(ctx.db, request.params.id);
    if (!capture) throw new NotFoundError('late capture', request.params.id);
    return lateCaptureResource(capture);
  });
}
