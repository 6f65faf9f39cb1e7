import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { createRefund } from '../../../app/refunds/create-refund.ts';
import { retrieveRefund } from '../../../app/refunds/retrieve-refund.ts';
import { refundResource } from '../../../app/resources/refund.ts';
import { idempotentRoute, route } from '../../declare-route.ts';
import { principalOf } from '../../principal.ts';

export async function refundRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  idempotentRoute(app, operations.createRefund, (request, keyed) =>
    createRefund(ctx, keyed(principalOf(request)), request.body),
  );

  route(app, operations.retrieveRefund, async (request) =>
    refundResource(await retrieveRefund(ctx, principalOf(request), request.params.id)),
  );
}
