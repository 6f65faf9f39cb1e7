import { operations } from '@paygate/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { connectorFor, gatewayKeyOf } from '../../../app/gateways/connectors.ts';
import { cancelPaymentIntent } from '../../../app/payments/cancel-payment-intent.ts';
import { confirmPaymentIntent, gatewayDeclineError } from '../../../app/payments/confirm-payment-intent.ts';
import { createPaymentIntent } from '../../../app/payments/create-payment-intent.ts';
import { assertClientSecret, retrievePaymentIntent } from '../../../app/payments/retrieve-payment-intent.ts';
import { type PaymentIntentRecord, paymentIntentResource } from '../../../app/resources/payment-intent.ts';
import { idempotentRoute, route } from '../../declare-route.ts';
import { principalOf } from '../../principal.ts';

export async function paymentIntentRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const secretView = { kind: 'secret', clientSecretKey: ctx.clientSecretKey } as const;

  /**
   * How the caller sees one intent: a secret key with its client_secret; the payer's browser
   * (publishable key, after its X-Client-Secret is checked) with the checkout block instead.
   */
  const callerView = (request: FastifyRequest, intentId: string) => {
    if (principalOf(request).kind === 'secret') {
      return async (intent: PaymentIntentRecord) => paymentIntentResource(intent, secretView);
    }
    const secret = request.headers['x-client-secret'];
    assertClientSecret(ctx, intentId, typeof secret === 'string' ? secret : undefined);
    return async (intent: PaymentIntentRecord) =>
      paymentIntentResource(intent, {
        kind: 'client',
        connector: await connectorFor(ctx, gatewayKeyOf(intent), { forNewPayment: false }),
      });
  };

  idempotentRoute(app, operations.createPaymentIntent, (request, keyed) =>
    createPaymentIntent(ctx, keyed(principalOf(request)), request.body),
  );

  route(app, operations.retrievePaymentIntent, async (request) => {
    const principal = principalOf(request);
    const render = callerView(request, request.params.id);
    return render(await retrievePaymentIntent(ctx, principal, request.params.id));
  });

  route(app, operations.confirmPaymentIntent, async (request) => {
    const principal = principalOf(request);
    const render = callerView(request, request.params.id);
    const result = await confirmPaymentIntent(ctx, principal, request.params.id, {
      paymentMethodToken: request.body?.payment_method_token,
    });
    if (result.warning) request.log.warn({ paymentIntent: result.intent.id }, result.warning);
    if (result.failure) throw gatewayDeclineError(result.failure, await render(result.intent));
    return render(result.intent);
  });

  route(app, operations.cancelPaymentIntent, async (request) => {
    const principal = principalOf(request);
    const intent = await cancelPaymentIntent(
      ctx,
      principal,
      request.params.id,
      request.body?.cancellation_reason ?? null,
    );
    return paymentIntentResource(intent, secretView);
  });
}
