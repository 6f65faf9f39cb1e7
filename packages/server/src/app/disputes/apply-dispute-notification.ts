import { disputeStep } from '../../domain/dispute.ts';
import { buildEvent } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import {
  type DisputeRecord,
  findDisputedCharge,
  findDisputeForUpdate,
  insertDispute,
  insertDisputeTransaction,
  updateDispute,
} from '../../storage/repositories/disputes.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import { findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import type { NotificationHandler } from '../gateways/notification-handler.ts';
import { disputeResource } from '../resources/dispute.ts';

const MAX_AMOUNT_MINOR = 999_999_999_999;

/**
 * The dispute handler of the gateway-notification dispatch point: opens the dispute the gateway
 * names, or moves it on, by `disputeStep` (domain/dispute.ts), writing its DISPUTE and
 * DISPUTE_REVERSAL rows and its dispute.* events in the transaction that records the notification
 * as received. A replay is stopped before this by that record; a report the state machine finds
 * stale (out of order, or about a closed dispute) changes nothing. A dispute of a payment Paygate
 * does not know is acknowledged and logged, never an error: the gateway would only send it again.
 */
export const applyDisputeNotification: NotificationHandler<'dispute'> = async (
  ctx,
  tx,
  gatewayId,
  notification,
) => {
  const { outcome } = notification;
  const charge = await findDisputedCharge(tx, gatewayId, {
    idempotencyKey: notification.idempotencyKey,
    chargeReference: outcome.chargeReference,
  });
  const evidence = {
    gateway: gatewayId,
    disputeReference: outcome.disputeReference,
    chargeReference: outcome.chargeReference,
    status: outcome.report.status,
    amountMinor: outcome.amount.amountMinor,
    currency: outcome.amount.currency,
  };
  if (!charge) {
    ctx.log.warn(
      evidence,
      `gateway ${gatewayId} reported dispute ${outcome.disputeReference} (${outcome.message}) of a payment Paygate does not know: acknowledged, nothing recorded`,
    );
    return null;
  }
  // Lock order: the intent first, as every writer of the payment; it also serialises two first
  // notifications of one dispute.
  const intent = await findPaymentIntentById(tx, charge.paymentIntentId, { forUpdate: true });
  if (!intent) return `charge ${charge.idempotencyKey} lost its intent`;
  const now = ctx.clock.now();
  const current = await findDisputeForUpdate(tx, intent.id, outcome.disputeReference);
  const step = disputeStep(current, outcome.report);
  if (!step) return null;
  let dispute: DisputeRecord;
  if (current) {
    dispute = await updateDispute(tx, current.id, step, now);
  } else {
    const { amountMinor, currency } = outcome.amount;
    if (!Number.isInteger(amountMinor) || amountMinor < 1 || amountMinor > MAX_AMOUNT_MINOR) {
      ctx.log.warn(
        { ...evidence, paymentIntent: intent.id },
        `gateway ${gatewayId} reported dispute ${outcome.disputeReference} of payment intent ${intent.id} with an amount Paygate cannot read: nothing recorded, settle it with the gateway`,
      );
      return null;
    }
    dispute = {
      id: newId('dp'),
      merchantId: intent.merchantId,
      livemode: intent.livemode,
      paymentIntentId: intent.id,
      gatewayId,
      gatewayReference: outcome.disputeReference,
      amountMinor,
      currency,
      reason: step.reason,
      status: step.status,
      fundsHeld: step.fundsHeld,
      fundsReturned: step.fundsReturned,
      evidenceDueBy: step.evidenceDueBy,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    // The intent's lock serialises notifications of one payment, so a second insert cannot race.
    if (!(await insertDispute(tx, dispute)))
      throw new Error(`dispute ${outcome.disputeReference} inserted twice`);
  }
  for (const type of step.transactions) {
    await insertDisputeTransaction(tx, { id: newId('txn'), type, dispute, now });
  }
  const object = { ...disputeResource(dispute) };
  for (const type of step.events) {
    await insertEvent(tx, dispute.merchantId, dispute.id, buildEvent(type, object, dispute.livemode, now));
  }
  return null;
};
