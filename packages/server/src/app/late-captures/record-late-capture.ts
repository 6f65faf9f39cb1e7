import { newId } from '../../domain/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import type { ChargeAttemptRecord } from '../../storage/repositories/charge-attempts.ts';
import { insertLateCapture, type LateCaptureRecord } from '../../storage/repositories/late-captures.ts';
import type { PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';

/**
 * The idempotency key of the refund that repairs a late capture: derived from the attempt's own
 * key, so every try of the repair, in any process, after any crash, sends the same key and the
 * gateway refunds once. `<pi id>:attempt:<n>:refund` is at most 64 characters (Adyen's limit).
 */
export function lateCaptureRefundKey(attempt: Pick<ChargeAttemptRecord, 'idempotencyKey'>): string {
  return `${attempt.idempotencyKey}:refund`;
}

/**
 * Records a capture the gateway reports for an attempt whose intent is final otherwise (canceled,
 * expired or failed while the charge was still open at the gateway), in the transaction that
 * learns of it: the repair worker (`repair-late-captures.ts`) refunds it. Recorded once per
 * attempt; returns the warning for the operator's log when this call recorded it, else null.
 */
export async function recordLateCapture(
  tx: Queryable,
  intent: PaymentIntentRecord,
  attempt: ChargeAttemptRecord,
  chargeReference: string,
  detectedBy: LateCaptureRecord['detectedBy'],
  now: Date,
  /** What the gateway says it captured, when that is not the intent's amount: what is refunded. */
  captured?: { amountMinor: number; currency: string },
): Promise<string | null> {
  const record: LateCaptureRecord = {
    id: newId('lc'),
    merchantId: intent.merchantId,
    livemode: intent.livemode,
    paymentIntentId: intent.id,
    attemptNumber: attempt.attemptNumber,
    gatewayId: attempt.gatewayId,
    chargeReference,
    amountMinor: captured?.amountMinor ?? intent.amountMinor,
    currency: captured?.currency ?? intent.currency,
    intentStatus: intent.status,
    detectedBy,
    repairStatus: 'REFUND_DUE',
    refundIdempotencyKey: lateCaptureRefundKey(attempt),
    refundReference: null,
    failureMessage: null,
    tries: 0,
    nextRepairAt: now,
    detectedAt: now,
    updatedAt: now,
  };
  if (!(await insertLateCapture(tx, record))) return null;
  return `late capture ${record.id}: charge ${attempt.idempotencyKey} succeeded at gateway ${attempt.gatewayId} (${record.amountMinor} ${record.currency}) while intent ${intent.id} was ${intent.status}; a refund is scheduled`;
}
