import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { finishRefund, sendRefund, startRefund } from '../../../app/refunds/create-refund.ts';
import { retrieveRefund } from '../../../app/refunds/retrieve-refund.ts';
import { refundResource } from '../../../app/resources/refund.ts';
import { AppError } from '../../../domain/errors.ts';
import { respondInPhases } from '../../plugins/idempotency.ts';
import { principalOf } from '../../principal.ts';

export async function refundRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const create = operations.createRefund;
  api.post(
    routePath(create),
    {
      schema: { body: create.body, querystring: create.querystring, response: responseSchemas(create) },
      config: { credential: create.credential, permission: 'refunds:write' },
    },
    async (request, reply) => {
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
    },
  );

  const retrieve = operations.retrieveRefund;
  api.get(
    routePath(retrieve),
    {
      schema: {
        params: retrieve.params,
        querystring: retrieve.querystring,
        response: responseSchemas(retrieve),
      },
      config: { credential: retrieve.credential, permission: 'refunds:read' },
    },
    async (request) => refundResource(await retrieveRefund(ctx, principalOf(request), request.params.id)),
  );
}
