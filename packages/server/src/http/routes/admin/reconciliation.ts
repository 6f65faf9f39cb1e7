import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { readReconciliation } from '../../../app/gateways/read-reconciliation.ts';
import { reconciliationResource } from '../../../app/resources/reconciliation.ts';
import { route } from '../../declare-route.ts';

/** The operator's read of the differences between Paygate and each gateway's books. */
export async function reconciliationAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.adminReconciliation, async (request) =>
    reconciliationResource(await readReconciliation(ctx, request.query)),
  );
}
