import { buildEvent } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import type { ChargeAttemptRecord } from '../../storage/repositories/charge-attempts.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import {
  bookLateCapture,
  insertLateCapture,
  type LateCaptureRecord,
} from '../../storage/repositories/late-captures.ts';
import {
  notePaymentIntentChange,
  type PaymentIntentRecord,
} from '../../storage/repositories/payment-intents.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';

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
  await enterLateCaptureInBooks(tx, intent, record, now);
  return `late capture ${record.id}: charge ${attempt.idempotencyKey} succeeded at gateway ${attempt.gatewayId} (${record.amountMinor} ${record.currency}) while intent ${intent.id} was ${intent.status}; a refund is scheduled`;
}

/**
 * Whether a late capture goes into the merchant's books (docs/decisions/money-safety.md, "Late
 * captures in the books"): every capture on an intent that did not succeed, of whatever amount or
 * currency the gateway captured (the PAYMENT row says what was taken, the refund gives back the
 * same). A second capture of a SUCCEEDED intent would make its refundable amount say something
 * false; it is refunded by the repair worker alone and shown to the operator.
 */
export function belongsInBooks(intent: Pick<PaymentIntentRecord, 'status'>): boolean {
  return intent.status !== 'SUCCEEDED';
}

/**
 * Enters a late capture in the books as the gateway's settlement report shows it, in the caller's
 * transaction with the intent locked: the PAYMENT APPROVED for what was captured (another amount
 * or currency than the intent's included), the automatic refund of the same as a PENDING
 * refund that the refund machinery finishes (reconciliation sends it at once, with the capture's
 * derived key), and `payment_intent.late_captured` for the merchant. The intent keeps its status.
 * False when the capture does not belong in the books or is there already.
 */
export async function enterLateCaptureInBooks(
  tx: Queryable,
  intent: PaymentIntentRecord,
  capture: LateCaptureRecord,
  now: Date,
): Promise<boolean> {
  if (!belongsInBooks(intent)) return false;
  const ids = {
    refundId: newId('re'),
    refundTransactionId: newId('txn'),
    paymentTransactionId: newId('txn'),
  };
  if (!(await bookLateCapture(tx, capture, ids, now))) return false;
  const changed = (await notePaymentIntentChange(tx, intent.id, now)) ?? intent;
  await insertEvent(
    tx,
    changed.merchantId,
    changed.id,
    buildEvent(
      'payment_intent.late_captured',
      { ...paymentIntentResource(changed, { kind: 'event' }) },
      changed.livemode,
      now,
    ),
  );
  return true;
}
