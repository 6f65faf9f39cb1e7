import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { finishRefund, sendRefund, startRefund } from '../../../app/refunds/create-refund.ts';
import { retrieveRefund } from '../../../app/refunds/retrieve-refund.ts';
import { refundResource } from '../../../app/resources/refund.ts';
import { AppError } from '../../../domain/errors.ts';
import { route } from '../../declare-route.ts';
import { respondInPhases } from '../../plugins/idempotency.ts';
import { principalOf } from '../../principal.ts';

export async function refundRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  route(app, operations.createRefund, async (request, reply) => {
    const principal = principalOf(request);
    return respondInPhases(ctx, principal, request, reply, {
      start: (tx, key) =>
        startRefund(ctx, tx, principal, request.body, { idempotencyKey: key.key, requestHash: key.hash }),
      callOut: (started) => sendRefund(ctx, started),
      finish: async (tx, started, outcome) => {
        const refund = await finishRefund(ctx, tx, started, outcome);
        return refund instanceof AppError ? refund : { status: 200, body: refundResource(refund) };
      },
    });
  });

  route(app, operations.retrieveRefund, async (request) =>
    refundResource(await retrieveRefund(ctx, principalOf(request), request.params.id)),
  );
}
