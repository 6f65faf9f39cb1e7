import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { retrievePaymentIntent } from '../../../app/payments/retrieve-payment-intent.ts';
import { createRefund } from '../../../app/refunds/create-refund.ts';
import { paymentIntentResource } from '../../../app/resources/payment-intent.ts';
import { listTransactions } from '../../../app/transactions/list-transactions.ts';
import { idempotentRoute, route } from '../../../http/declare-route.ts';
import { listBody } from '../../../http/routes/v1/transactions.ts';
import { scopeOf } from '../scope.ts';

/**
 * Payments: the list, one payment, a refund. Each calls the use case the public API calls, with
 * the tenant taken from the session instead of an API key; nothing here decides a payment rule.
 */
export async function dashboardPaymentRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardListTransactions, async (request, reply) => {
    const page = await listTransactions(ctx, scopeOf(request), request.query);
    return reply.type('application/json; charset=utf-8').send(listBody(page));
  });

  route(app, operations.dashboardRetrievePaymentIntent, async (request) => {
    const scope = scopeOf(request);
    // The event view: no client_secret, which the back office has no use for.
    return paymentIntentResource(await retrievePaymentIntent(ctx, scope, request.params.id), {
      kind: 'event',
    });
  });

  // The refund is recorded in the audit log in the same transaction that starts it.
  idempotentRoute(app, operations.dashboardCreateRefund, (request, keyed) => {
    const scope = scopeOf(request);
    const audit = auditDashboardAction(ctx, scope, 'refund.created');
    return createRefund(ctx, keyed(scope), request.body, (tx, refund) => audit(tx, refund.id));
  });
}
