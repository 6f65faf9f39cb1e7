import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { retrievePaymentIntent } from '../../../app/payments/retrieve-payment-intent.ts';
import { createRefund } from '../../../app/refunds/create-refund.ts';
import { paymentIntentResource } from '../../../app/resources/payment-intent.ts';
import { listTransactions } from '../../../app/transactions/list-transactions.ts';
import { idempotentRequestOf, sendIdempotentAnswer } from '../../declare-route.ts';
import { listBody } from '../v1/transactions.ts';
import { scopeOf } from './scope.ts';

/**
 * Payments: the list, one payment, a refund. Each calls the use case the public API calls, with
 * the tenant taken from the session instead of an API key; nothing here decides a payment rule.
 */
export async function dashboardPaymentRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const list = operations.dashboardListTransactions;
  api.get(
    routePath(list),
    {
      schema: { params: list.params, querystring: list.querystring, response: responseSchemas(list) },
      config: { dashboard: 'read' },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const page = await listTransactions(ctx, scope, request.query);
      return reply.type('application/json; charset=utf-8').send(listBody(page));
    },
  );

  const retrieve = operations.dashboardRetrievePaymentIntent;
  api.get(
    routePath(retrieve),
    {
      schema: { params: retrieve.params, response: responseSchemas(retrieve) },
      config: { dashboard: 'read' },
    },
    async (request) => {
      const scope = scopeOf(request);
      // The event view: no client_secret, which the back office has no use for.
      return paymentIntentResource(await retrievePaymentIntent(ctx, scope, request.params.id), {
        kind: 'event',
      });
    },
  );

  const refund = operations.dashboardCreateRefund;
  api.post(
    routePath(refund),
    {
      schema: { params: refund.params, body: refund.body, response: responseSchemas(refund) },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const audit = auditDashboardAction(ctx, scope, 'refund.created');
      const idempotent = idempotentRequestOf(request, reply, scope);
      const answer = await createRefund(ctx, idempotent, request.body, (tx, refund) => audit(tx, refund.id));
      return sendIdempotentAnswer(reply, answer);
    },
  );
}
