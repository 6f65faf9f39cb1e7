import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { capturePaymentIntent } from '../../../app/captures/capture-payment-intent.ts';
import type { AppContext } from '../../../app/context.ts';
import { cancelPaymentIntent } from '../../../app/payments/cancel-payment-intent.ts';
import { paymentIntentResource } from '../../../app/resources/payment-intent.ts';
import { idempotentRoute, route } from '../../declare-route.ts';
import { principalOf } from '../../principal.ts';

/**
 * What ends a payment intent other than its payment: the capture of a manual intent's
 * authorisation, and the cancel (a void of an authorisation). Apart from the confirm's routes, so
 * that the confirm path does not carry the capture machinery (test/confirm-path.test.ts).
 */
export async function paymentIntentEndingRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const secretView = { kind: 'secret', clientSecretKey: ctx.clientSecretKey } as const;

  idempotentRoute(app, operations.capturePaymentIntent, (request, keyed) =>
    capturePaymentIntent(ctx, keyed(principalOf(request)), request.params.id, request.body ?? {}),
  );

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
