import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { listLateCapturesFor } from '../../../app/late-captures/list-late-captures.ts';
import { retrieveLateCapture } from '../../../app/late-captures/retrieve-late-capture.ts';
import { listResource } from '../../../app/resources/list.ts';
import { lateCaptureResource } from '../../../app/resources/operator.ts';
import { route } from '../../declare-route.ts';

/** The operator's view of late captures and their automatic repair (docs/operations.md). */
export async function lateCaptureAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.adminListLateCaptures, async (request) => {
    const captures = await listLateCapturesFor(ctx, {
      repairStatus: request.query.repair_status ?? null,
      limit: request.query.limit ?? 20,
    });
    return listResource(captures.map(lateCaptureResource));
  });
  route(app, operations.adminRetrieveLateCapture, async (request) => {
    return lateCaptureResource(await retrieveLateCapture(ctx, request.params.id));
  });
}
