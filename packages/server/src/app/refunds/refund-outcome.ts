import { buildEvent } from '../../domain/events.ts';
import { reversalOf, settlementOf } from '../../domain/refund.ts';
import type { GatewayAmount, RefundOutcome } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import { updateLateCaptureRepair } from '../../storage/repositories/late-captures.ts';
import {
  addRefundedAmount,
  findPaymentIntentById,
  restoreRefundedAmount,
} from '../../storage/repositories/payment-intents.ts';
import {
  findRefundByGatewayKey,
  findRefundByGatewayReference,
  findRefundById,
  holdRefundForReview,
  notePendingRefund,
  type RefundRecord,
  reverseRefund,
  settleRefund,
} from '../../storage/repositories/refunds.ts';
import {
  declineApprovedRefundTransaction,
  settleRefundTransaction,
} from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';
import { keptConnectorData } from '../gateways/connectors.ts';
import type { NotificationHandler } from '../gateways/notification-handler.ts';
import {
  applyLateCaptureRefundOutcome,
  followRefundOnLateCapture,
} from '../late-captures/repair-late-captures.ts';
import { refundResource } from '../resources/refund.ts';

/** How long a PENDING refund waits before reconciliation asks its gateway about it again. */
export const REFUND_SYNC_INTERVAL_SECONDS = 60;

/** Whether the gateway reports refunding another amount or currency than the refund's. */
export function refundedOtherwise(refund: RefundRecord, refunded: GatewayAmount | undefined): boolean {
  return (
    refunded !== undefined &&
    (refunded.amountMinor !== refund.amountMinor || refunded.currency !== refund.currency)
  );
}

/**
 * Applies what the gateway said about a PENDING refund, in the caller's transaction, with the
 * intent's row lock held by the caller. `succeeded` settles it SUCCEEDED (REFUND transaction
 * APPROVED, the intent's amount_refunded_minor grows, event refund.succeeded); `failed` settles it
 * FAILED (DECLINED, refund.failed); `pending` and `indeterminate` leave it PENDING for a
 * notification or reconciliation. `unavailable` is the caller's to handle (it means the gateway
 * did not take the request). A refund that is no longer PENDING is returned as it is: settling
 * happens once, whichever path (answer, notification, reconciliation) comes first.
 */
export async function applyRefundOutcome(
  ctx: AppContext,
  tx: Queryable,
  refund: RefundRecord,
  outcome: Exclude<RefundOutcome, { kind: 'unavailable' }>,
): Promise<RefundRecord> {
  const now = ctx.clock.now();
  if (outcome.kind === 'pending' || outcome.kind === 'indeterminate') {
    const gatewayReference = outcome.kind === 'pending' ? outcome.gatewayReference : null;
    const connectorData = keptConnectorData(outcome);
    const nextSyncAt = new Date(now.getTime() + REFUND_SYNC_INTERVAL_SECONDS * 1000);
    await notePendingRefund(tx, refund.id, { gatewayReference, connectorData, nextSyncAt });
    const noted = {
      ...refund,
      gatewayReference: gatewayReference ?? refund.gatewayReference,
      connectorData: connectorData ?? refund.connectorData,
      nextSyncAt,
    };
    await followRefundOnLateCapture(ctx, tx, noted);
    return noted;
  }
  if (outcome.kind === 'succeeded' && refundedOtherwise(refund, outcome.refunded)) {
    // Never SUCCEEDED for another amount: the refund waits, unsynced, for the operator, who is
    // told here whichever path (answer, notification, reconciliation) brought it.
    await holdRefundForReview(tx, refund.id, outcome.gatewayReference);
    ctx.log.warn(
      {
        refund: refund.id,
        paymentIntent: refund.paymentIntentId,
        gateway: refund.gatewayId,
        gatewayReference: outcome.gatewayReference,
        amountMinor: refund.amountMinor,
        currency: refund.currency,
        refundedMinor: outcome.refunded?.amountMinor,
        refundedCurrency: outcome.refunded?.currency,
      },
      `refund ${refund.id} of payment intent ${refund.paymentIntentId} is for ${refund.amountMinor} ${refund.currency}; ` +
        `gateway ${refund.gatewayId} reports refunding ${outcome.refunded?.amountMinor} ${outcome.refunded?.currency} ` +
        `(reference ${outcome.gatewayReference}): it stays PENDING, unsynced, for the operator`,
    );
    return { ...refund, gatewayReference: outcome.gatewayReference, nextSyncAt: null };
  }
  const step = settlementOf(outcome.kind);
  const settled = await settleRefund(tx, refund.id, {
    status: step.status,
    gatewayReference: outcome.gatewayReference,
    failureMessage: outcome.kind === 'failed' ? outcome.message : null,
    connectorData: keptConnectorData(outcome),
    updatedAt: now,
  });
  if (!settled) return (await findRefundById(tx, refund.id)) ?? refund;
  await settleRefundTransaction(tx, settled.id, step.transactionStatus, now);
  if (step.status === 'SUCCEEDED') {
    await addRefundedAmount(tx, settled.paymentIntentId, settled, now);
  }
  await insertEvent(
    tx,
    settled.merchantId,
    settled.id,
    buildEvent(step.event, { ...refundResource(settled) }, settled.livemode, now),
  );
  await warnOperator(ctx, await followRefundOnLateCapture(ctx, tx, settled));
  return settled;
}

function warnOperator(ctx: AppContext, warning: string | null): void {
  if (warning) ctx.log.warn({}, warning);
}

/**
 * Settles the refund that `gatewayId` knows by `gatewayIdempotencyKey` (a gateway notification,
 * or a reconciliation read), in the caller's transaction. Locks the intent, then the refund: the
 * same order as refund creation, so the two never deadlock. Null when no such refund exists
 * (for example a refund whose creation was rolled back).
 */
export async function applyRefundOutcomeByGatewayKey(
  ctx: AppContext,
  tx: Queryable,
  gatewayId: string,
  gatewayIdempotencyKey: string,
  outcome: RefundOutcome,
): Promise<RefundRecord | null> {
  const found = await findRefundByGatewayKey(tx, gatewayId, gatewayIdempotencyKey);
  if (!found) return null;
  await findPaymentIntentById(tx, found.paymentIntentId, { forUpdate: true });
  const refund = await findRefundById(tx, found.id, { forUpdate: true });
  if (!refund) return null;
  if (refund.status !== 'PENDING' || outcome.kind === 'unavailable') return refund;
  return applyRefundOutcome(ctx, tx, refund, outcome);
}

/**
 * A SUCCEEDED refund that the gateway now reports failed (Adyen's REFUND_FAILED or
 * REFUNDED_REVERSED after its REFUND): the money did not go back, so the books follow the gateway
 * (`reversalOf`): FAILED with the gateway's reason, the REFUND transaction DECLINED, the intent's
 * refunded amount restored, refund.failed for the merchant. The caller holds the intent's lock.
 * Answers the operator's warning, with the evidence (ids, amount, references; no body).
 */
async function reverseSucceededRefund(
  ctx: AppContext,
  tx: Queryable,
  refund: RefundRecord,
  outcome: Extract<RefundOutcome, { kind: 'failed' }>,
): Promise<string> {
  const now = ctx.clock.now();
  const step = reversalOf(refund.status);
  const reversed = await reverseRefund(tx, refund.id, { failureMessage: outcome.message, updatedAt: now });
  if (!reversed) return `refund ${refund.id} was to be reversed but is no longer SUCCEEDED`;
  await declineApprovedRefundTransaction(tx, reversed.id, now);
  await restoreRefundedAmount(tx, reversed.paymentIntentId, reversed, now);
  await insertEvent(
    tx,
    reversed.merchantId,
    reversed.id,
    buildEvent(step.event, { ...refundResource(reversed) }, reversed.livemode, now),
  );
  await followRefundOnLateCapture(ctx, tx, reversed);
  return (
    `refund ${reversed.id} of payment intent ${reversed.paymentIntentId} (${reversed.amountMinor} ` +
    `${reversed.currency}, gateway reference ${outcome.gatewayReference ?? refund.gatewayReference ?? 'none'}) ` +
    `was SUCCEEDED; the gateway now reports it failed (${outcome.message}): it is FAILED, the amount ` +
    'counts as refundable again and refund.failed was sent'
  );
}

/**
 * The refund handler of the gateway-notification dispatch point (app/gateways/notifications.ts):
 * a late-settling refund's outcome, or a failure after a success (reversed, above). A notification
 * about a refund we do not have (its creation rolled back, or is still committing) is only a
 * warning: reconciliation settles a refund that exists but missed its notification. The repair
 * refund of a late capture is found by its key too.
 */
export const applyRefundNotification: NotificationHandler<'refund'> = async (
  ctx,
  tx,
  gatewayId,
  notification,
) => {
  const { idempotencyKey, outcome } = notification;
  // Matched by the gateway's own reference of the refund first; the reference we sent (Adyen's
  // merchantReference, Stripe's idempotency key) only cross-checks it. A refund whose gateway
  // answer never reached us has no reference yet: it is found by our key.
  const byReference =
    'gatewayReference' in outcome && outcome.gatewayReference
      ? await findRefundByGatewayReference(tx, gatewayId, outcome.gatewayReference)
      : null;
  if (byReference && byReference.gatewayIdempotencyKey !== idempotencyKey) {
    return (
      `gateway ${gatewayId} notified about its refund ${byReference.gatewayReference} (refund ${byReference.id}) ` +
      `with our reference ${idempotencyKey}, not ${byReference.gatewayIdempotencyKey}: not applied`
    );
  }
  const refund = await applyRefundOutcomeByGatewayKey(ctx, tx, gatewayId, idempotencyKey, outcome);
  if (refund) {
    if (refund.status === 'SUCCEEDED' && outcome.kind === 'failed') {
      return reverseSucceededRefund(ctx, tx, refund, outcome);
    }
    if (refund.status === 'FAILED' && outcome.kind === 'succeeded') {
      // Failed by reconciliation's bound on resends although the gateway made it: the money went
      // back and its amount counts as refundable again. Not undone here (it may have been
      // refunded again since): the operator is told, with the evidence.
      return (
        `refund ${refund.id} of payment intent ${refund.paymentIntentId} (${refund.amountMinor} ${refund.currency}) ` +
        `is FAILED, but gateway ${gatewayId} reports it succeeded (reference ${outcome.gatewayReference}): ` +
        'the payer has the money back; an operator must reconcile the intent'
      );
    }
    // A refund held for another amount was logged with its evidence by applyRefundOutcome.
    return null;
  }
  // The repair refund of a late capture settles by the same notifications.
  const repair = await applyLateCaptureRefundOutcome(ctx, tx, gatewayId, idempotencyKey, outcome);
  if (!repair) return `gateway ${gatewayId} notified about unknown refund ${idempotencyKey}`;
  if (repair.repairStatus === 'REFUNDED' && outcome.kind === 'failed') {
    // The repair's refund failed after it succeeded: the payer's money is held again. The
    // operator's list of late captures shows it REFUND_FAILED, to act on.
    await updateLateCaptureRepair(tx, repair.id, {
      repairStatus: 'REFUND_FAILED',
      refundReference: outcome.gatewayReference,
      failureMessage: outcome.message,
      nextRepairAt: null,
      tried: false,
      updatedAt: ctx.clock.now(),
    });
    return (
      `late capture ${repair.id} of payment intent ${repair.paymentIntentId} was REFUNDED; the gateway ` +
      `now reports its refund ${idempotencyKey} failed (${outcome.message}): it is REFUND_FAILED, the operator must act`
    );
  }
  return null;
};
