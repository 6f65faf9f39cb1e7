import { operations } from '@paygate/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { confirmPaymentIntentAs } from '../../../app/payments/confirm-payment-intent.ts';
import { createPaymentIntent } from '../../../app/payments/create-payment-intent.ts';
import { type IntentCaller, retrievePaymentIntentAs } from '../../../app/payments/retrieve-payment-intent.ts';
import { idempotentRoute, route } from '../../declare-route.ts';
import { principalOf } from '../../principal.ts';

export async function paymentIntentRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  /** Who asks: the key's merchant and kind, and the payer's X-Client-Secret when one was sent. */
  const callerOf = (request: FastifyRequest): IntentCaller => {
    const secret = request.headers['x-client-secret'];
    return { ...principalOf(request), clientSecret: typeof secret === 'string' ? secret : undefined };
  };

  idempotentRoute(app, operations.createPaymentIntent, (request, keyed) =>
    createPaymentIntent(ctx, keyed(principalOf(request)), request.body),
  );

  route(app, operations.retrievePaymentIntent, (request) =>
    retrievePaymentIntentAs(ctx, callerOf(request), request.params.id),
  );

  route(app, operations.confirmPaymentIntent, (request) =>
    confirmPaymentIntentAs(
      ctx,
      callerOf(request),
      request.params.id,
      {
        paymentMethodToken: request.body?.payment_method_token,
        savedPaymentMethodId: request.body?.saved_payment_method_id,
        offSession: request.body?.off_session,
      },
      (warning) => request.log.warn({ paymentIntent: request.params.id }, warning),
    ),
  );
}
