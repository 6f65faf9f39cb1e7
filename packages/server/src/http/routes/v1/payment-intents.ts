import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { cancelPaymentIntent } from '../../../app/cancel-payment-intent.ts';
import type { AppContext } from '../../../app/context.ts';
import { createPaymentIntent } from '../../../app/create-payment-intent.ts';
import { paymentIntentResource } from '../../../app/resources.ts';
import { assertClientSecret, retrievePaymentIntent } from '../../../app/retrieve-payment-intent.ts';
import { principalOf } from '../../plugins/auth.ts';
import { respondIdempotently } from '../../plugins/idempotency.ts';

export async function paymentIntentRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const secretView = { kind: 'secret', clientSecretKey: ctx.clientSecretKey } as const;

  const create = operations.createPaymentIntent;
  api.post(
    routePath(create),
    {
      schema: { body: create.body, querystring: create.querystring },
      config: { credential: create.credential, permission: 'payment_intents:write' },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      return respondIdempotently(ctx, principal, request, reply, async (tx) => ({
        status: 200,
        body: paymentIntentResource(await createPaymentIntent(ctx, tx, principal, request.body), secretView),
      }));
    },
  );

  const retrieve = operations.retrievePaymentIntent;
  api.get(
    routePath(retrieve),
    {
      schema: { params: retrieve.params, querystring: retrieve.querystring },
      config: { credential: retrieve.credential, permission: 'payment_intents:read' },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.kind === 'publishable') {
        const secret = request.headers['x-client-secret'];
        assertClientSecret(ctx, request.params.id, typeof secret === 'string' ? secret : undefined);
        const intent = await retrievePaymentIntent(ctx, principal, request.params.id);
        return paymentIntentResource(intent, {
          kind: 'client',
          connector: ctx.gateways.get(intent.gatewayId),
        });
      }
      return paymentIntentResource(
        await retrievePaymentIntent(ctx, principal, request.params.id),
        secretView,
      );
    },
  );

  const cancel = operations.cancelPaymentIntent;
  api.post(
    routePath(cancel),
    {
      schema: { params: cancel.params, querystring: cancel.querystring, body: cancel.body },
      config: { credential: cancel.credential, permission: 'payment_intents:write' },
    },
    async (request) => {
      const principal = principalOf(request);
      const intent = await cancelPaymentIntent(
        ctx,
        principal,
        request.params.id,
        request.body?.cancellation_reason ?? null,
      );
      return paymentIntentResource(intent, secretView);
    },
  );
}
