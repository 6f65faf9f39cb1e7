import { buildEvent } from '../../domain/events.ts';
import { settlementOf } from '../../domain/refund.ts';
import type { RefundOutcome } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import { addRefundedAmount, findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import {
  findRefundByGatewayKey,
  findRefundById,
  notePendingRefund,
  type RefundRecord,
  settleRefund,
} from '../../storage/repositories/refunds.ts';
import { settleRefundTransaction } from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';
import { keptConnectorData } from '../gateways/connectors.ts';
import type { NotificationHandler } from '../gateways/notification-handler.ts';
import { applyLateCaptureRefundOutcome } from '../late-captures/repair-late-captures.ts';
import { refundResource } from '../resources/refund.ts';

/** How long a PENDING refund waits before reconciliation asks its gateway about it again. */
export const REFUND_SYNC_INTERVAL_SECONDS = 60;

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
    return {
      ...refund,
      gatewayReference: gatewayReference ?? refund.gatewayReference,
      connectorData: connectorData ?? refund.connectorData,
      nextSyncAt,
    };
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
    await addRefundedAmount(tx, settled.paymentIntentId, settled.amountMinor, now);
  }
  await insertEvent(
    tx,
    settled.merchantId,
    settled.id,
    buildEvent(step.event, { ...refundResource(settled) }, settled.livemode, now),
  );
  return settled;
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
 * The refund handler of the gateway-notification dispatch point (app/gateways/notifications.ts):
 * a late-settling refund's outcome. A notification about a refund we do not have (its creation
 * rolled back, or is still committing) is only a warning: reconciliation settles a refund that
 * exists but missed its notification. The repair refund of a late capture is found by its key too.
 */
export const applyRefundNotification: NotificationHandler<'refund'> = async (
  ctx,
  tx,
  gatewayId,
  notification,
) => {
  const refund = await applyRefundOutcomeByGatewayKey(
    ctx,
    tx,
    gatewayId,
    notification.idempotencyKey,
    notification.outcome,
  );
  if (refund) return null;
  // The repair refund of a late capture settles by the same notifications.
  const repair = await applyLateCaptureRefundOutcome(
    ctx,
    tx,
    gatewayId,
    notification.idempotencyKey,
    notification.outcome,
  );
  return repair ? null : `gateway ${gatewayId} notified about unknown refund ${notification.idempotencyKey}`;
};
