import type { RefundRequest } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import { listAttempts } from '../../storage/repositories/charge-attempts.ts';
import { findLateCaptureByRefundKey } from '../../storage/repositories/late-captures.ts';
import type { PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import type { RefundRecord } from '../../storage/repositories/refunds.ts';

/** The charge that captured the intent's money: the gateway's reference, and its connector data. */
export interface CapturedCharge {
  reference: string;
  connectorData: string | null;
}

export async function capturedChargeOf(
  tx: Queryable,
  intent: Pick<PaymentIntentRecord, 'id'>,
): Promise<CapturedCharge> {
  const succeeded = (await listAttempts(tx, intent.id)).find((a) => a.status === 'SUCCEEDED');
  if (!succeeded?.gatewayReference) {
    throw new Error(`payment intent ${intent.id} is SUCCEEDED but has no succeeded charge on record`);
  }
  return { reference: succeeded.gatewayReference, connectorData: succeeded.connectorData };
}

/**
 * The charge a refund gives money back from: for the automatic refund of a late capture (its
 * gateway key is the capture's repair key), the charge the gateway captured late; else the
 * intent's succeeded charge.
 */
export async function chargeRefundedBy(
  q: Queryable,
  refund: Pick<RefundRecord, 'gatewayId' | 'gatewayIdempotencyKey' | 'paymentIntentId'>,
): Promise<CapturedCharge> {
  const late = await findLateCaptureByRefundKey(q, refund.gatewayId, refund.gatewayIdempotencyKey);
  if (!late) return capturedChargeOf(q, { id: refund.paymentIntentId });
  const attempt = (await listAttempts(q, late.paymentIntentId)).find(
    (a) => a.attemptNumber === late.attemptNumber,
  );
  return { reference: late.chargeReference, connectorData: attempt?.connectorData ?? null };
}

/**
 * The gateway request of a refund. Every field is stable for the refund (its derived key, the
 * charge, the amount): the first send, a merchant's retry and reconciliation's resend build the
 * very same request, which the gateway answers once per key. `refundId` is ours, for logs; no
 * connector puts it in what it sends.
 */
export function refundRequestFor(refund: RefundRecord, captured: CapturedCharge): RefundRequest {
  return {
    idempotencyKey: refund.gatewayIdempotencyKey,
    refundId: refund.id,
    paymentIntentId: refund.paymentIntentId,
    chargeReference: captured.reference,
    chargeConnectorData: captured.connectorData,
    amountMinor: refund.amountMinor,
    currency: refund.currency,
    livemode: refund.livemode,
  };
}
