import { buildEvent } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import { insertCaptureReversal } from '../../storage/repositories/capture-reversals.ts';
import { findAttemptByKey } from '../../storage/repositories/charge-attempts.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import { findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';
import type { NotificationHandler } from './notification-handler.ts';

/**
 * The capture-reversal handler of the gateway-notification dispatch point: the gateway undid a
 * charge it had reported captured (Adyen CAPTURE_FAILED; a CANCEL_OR_REFUND or TECHNICAL_CANCEL
 * Paygate never sent). The contract has no transition back from SUCCEEDED, so the gateway's word
 * neither wins silently nor is dropped: the intent keeps its status, the reversal is recorded for
 * the operator (capture_reversals, with its evidence), a SUCCEEDED intent's merchant gets
 * `payment_intent.capture_reversed` (the money did not reach them), and the warning is logged.
 */
export const applyCaptureReversal: NotificationHandler<'capture_reversal'> = async (
  ctx,
  tx,
  gatewayId,
  notification,
) => {
  // The dispatcher found the charge by the gateway's reference (notifications.ts) and passes its key.
  const { idempotencyKey, outcome } = notification;
  const found = idempotencyKey ? await findAttemptByKey(tx, gatewayId, idempotencyKey) : null;
  if (!found)
    return `gateway ${gatewayId} reported a reversed capture of unknown charge ${outcome.chargeReference ?? idempotencyKey ?? '(no reference)'}`;
  const intent = await findPaymentIntentById(tx, found.paymentIntentId, { forUpdate: true });
  if (!intent) return `charge ${idempotencyKey} lost its intent`;
  const now = ctx.clock.now();
  const recorded = await insertCaptureReversal(tx, {
    id: newId('crv'),
    merchantId: intent.merchantId,
    livemode: intent.livemode,
    paymentIntentId: intent.id,
    attemptNumber: found.attemptNumber,
    gatewayId,
    chargeReference: outcome.chargeReference ?? found.gatewayReference,
    reversalReference: outcome.reversalReference,
    amountMinor:
      outcome.amount && Number.isInteger(outcome.amount.amountMinor) ? outcome.amount.amountMinor : null,
    currency: outcome.amount?.currency ?? null,
    intentStatus: intent.status,
    message: outcome.message,
    detectedAt: now,
  });
  if (!recorded) return null;
  // Money moved away from the merchant only if Paygate told them it was theirs.
  const succeeded = intent.status === 'SUCCEEDED' && found.status === 'SUCCEEDED';
  if (succeeded) {
    await insertEvent(
      tx,
      intent.merchantId,
      intent.id,
      buildEvent(
        'payment_intent.capture_reversed',
        { ...paymentIntentResource(intent, { kind: 'event' }) },
        intent.livemode,
        now,
      ),
    );
  }
  const fields = {
    paymentIntent: intent.id,
    attempt: found.attemptNumber,
    gateway: gatewayId,
    chargeReference: outcome.chargeReference ?? found.gatewayReference,
    reversalReference: outcome.reversalReference,
    amountMinor: intent.amountMinor,
    currency: intent.currency,
    reversedMinor: outcome.amount?.amountMinor,
    reversedCurrency: outcome.amount?.currency,
  };
  const message =
    `gateway ${gatewayId} reports the capture of payment intent ${intent.id} (${intent.amountMinor} ${intent.currency}, ` +
    `charge ${fields.chargeReference ?? 'unknown'}) reversed (${outcome.message}, reference ${outcome.reversalReference}); ` +
    `the intent stays ${intent.status}, recorded for the operator` +
    (succeeded ? ', payment_intent.capture_reversed sent' : '');
  ctx.log.warn(fields, message);
  return null;
};
