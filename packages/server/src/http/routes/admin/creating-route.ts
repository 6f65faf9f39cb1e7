import type { Operation } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import type { WorkResult } from '../../../app/idempotent-phases.ts';
import { OPERATOR_KEY_SPACE, runOperatorIdempotently } from '../../../app/operator-idempotency.ts';
import {
  idempotentRequestOf,
  type OperationRequest,
  route,
  sendIdempotentAnswer,
} from '../../declare-route.ts';

/**
 * The route of an operator POST that creates something: with an `Idempotency-Key` it runs once per
 * key in the operator's key space, as `/v1` does (a repeat is answered with the first answer, byte
 * for byte, marked Idempotent-Replayed; a repeat while the first runs is `409
 * idempotency_key_in_flight`; another request under the key is `409 idempotency_key_reuse`), the
 * created resource and the stored answer committed together. Without a key it runs as it always
 * did. `handler` must do all its work through the context it is given.
 */
export function creatingRoute<const Op extends Operation & { idempotencyKeyOptional: true }>(
  app: FastifyInstance,
  ctx: AppContext,
  operation: Op,
  handler: (request: OperationRequest<Op>, ctx: AppContext) => Promise<WorkResult>,
): void {
  route(app, operation, async (request, reply) => {
    if (request.headers['idempotency-key'] === undefined) {
      const { status, body } = await handler(request, ctx);
      return reply.code(status).send(body);
    }
    const keyed = idempotentRequestOf(request, reply, OPERATOR_KEY_SPACE);
    const answer = await runOperatorIdempotently(ctx, keyed, (inKeyed) => handler(request, inKeyed));
    return sendIdempotentAnswer(reply, answer);
  });
}
