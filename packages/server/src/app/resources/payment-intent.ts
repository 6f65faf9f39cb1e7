import { cancellationReasons, type PaymentIntent } from '@paygate/contract';
import { deriveClientSecret } from '../../domain/api-keys.ts';
import { capturableAmount, capturedAmount } from '../../domain/capture.ts';
import { shownStatus } from '../../domain/payment-intent.ts';
import type { GatewayConnector } from '../../gateways/connector.ts';
import type { PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';

// Every resource the APIs and the events show is rendered in this folder, from the records the use
// cases return, so that the merchant API, the operator API, the events and (later) the dashboard
// show one shape of each: one file per resource family. Transactions are the exception: the
// database writes their JSON text itself (storage/repositories/transactions.ts), so a page of the
// list is never parsed and re-rendered.

export type { PaymentIntentRecord };

/**
 * How a payment intent is shown: to its merchant's secret key (with client_secret), to the
 * payer's browser (with checkout instead), or inside events and lists (with neither).
 */
export type IntentView =
  | { kind: 'secret'; clientSecretKey: Buffer }
  | { kind: 'client'; connector: GatewayConnector | null; merchantName: string | null }
  | { kind: 'event' };

type CancellationReason = (typeof cancellationReasons)[number];

/** The stored reason as the contract names it; one it does not know (none is written) reads null. */
function cancellationReasonOf(reason: string | null): CancellationReason | null {
  return cancellationReasons.find((known) => known === reason) ?? null;
}

export function paymentIntentResource(intent: PaymentIntentRecord, view: IntentView): PaymentIntent {
  const resource: PaymentIntent = {
    id: intent.id,
    object: 'payment_intent',
    amount_minor: intent.amountMinor,
    currency: intent.currency,
    status: shownStatus(intent.status, intent.chargeInFlight, intent.authorizationInFlight),
    gateway_id: intent.gatewayId,
    redirect_url: intent.status === 'REQUIRES_ACTION' ? intent.redirectUrl : null,
    return_url: intent.returnUrl,
    metadata: intent.metadata,
    livemode: intent.livemode,
    amount_refunded_minor: intent.amountRefundedMinor,
    payment_method: null,
    last_payment_error: intent.lastPaymentError
      ? {
          code: intent.lastPaymentError.code,
          decline_code: intent.lastPaymentError.declineCode,
          gateway_code: intent.lastPaymentError.gatewayCode,
          message: intent.lastPaymentError.message,
        }
      : null,
    capture_method: intent.captureMethod,
    amount_capturable_minor: capturableAmount(intent),
    amount_captured_minor: capturedAmount(intent),
    capture_before:
      intent.status === 'REQUIRES_CAPTURE' ? (intent.captureBefore?.toISOString() ?? null) : null,
    cancellation_reason:
      intent.status === 'CANCELED' ? cancellationReasonOf(intent.cancellationReason) : null,
    customer_id: intent.customerId,
    setup_future_usage: intent.setupFutureUsage,
    version: intent.version,
    created_at: intent.createdAt.toISOString(),
    expires_at: intent.expiresAt.toISOString(),
  };
  if (view.kind === 'secret') resource.client_secret = deriveClientSecret(intent.id, view.clientSecretKey);
  if (view.kind === 'client') {
    const hosted = view.connector?.hostedFields() ?? null;
    resource.checkout = {
      gateway_id: intent.gatewayId,
      hosted_fields_url: hosted?.url ?? null,
      gateway_origin: hosted?.origin ?? null,
      component_key: hosted?.publicKey ?? null,
      component: hosted?.component ?? null,
      saves_method_for: intent.setupFutureUsage === null ? null : view.merchantName,
    };
  }
  return resource;
}
