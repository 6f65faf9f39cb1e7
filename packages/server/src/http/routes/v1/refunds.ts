import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { createRefund } from '../../../app/create-refund.ts';
import { refundResource } from '../../../app/resources/refund.ts';
import { retrieveRefund } from '../../../app/retrieve-refund.ts';
import { principalOf } from '../../plugins/auth.ts';
import { readIdempotencyKey, respondIdempotently } from '../../plugins/idempotency.ts';

export async function refundRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const create = operations.createRefund;
  api.post(
    routePath(create),
    {
      schema: { body: create.body, querystring: create.querystring },
      config: { credential: create.credential, permission: 'refunds:write' },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const idempotencyKey = readIdempotencyKey(request);
      return respondIdempotently(ctx, principal, request, reply, async (tx) => ({
        status: 200,
        body: refundResource(await createRefund(ctx, tx, principal, request.body, idempotencyKey)),
      }));
    },
  );

  const retrieve = operations.retrieveRefund;
  api.get(
    routePath(retrieve),
    {
      schema: { params: retrieve.params, querystring: retrieve.querystring },
      config: { credential: retrieve.credential, permission: 'refunds:read' },
    },
    async (request) => refundResource(await retrieveRefund(ctx, principalOf(request), request.params.id)),
  );
}
