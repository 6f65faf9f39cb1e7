import { buildEvent } from '../../domain/events.ts';
import { backoffDelayMs } from '../../domain/retry-schedules.ts';
import type { RefundOutcome } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import {
  claimDueLateCaptures,
  findLateCaptureByRefundKey,
  type LateCaptureRecord,
  updateLateCaptureRepair,
} from '../../storage/repositories/late-captures.ts';
import {
  findPaymentIntentById,
  type PaymentIntentRecord,
} from '../../storage/repositories/payment-intents.ts';
import { findRefundByGatewayKey, type RefundRecord } from '../../storage/repositories/refunds.ts';
import type { BatchResult } from '../batch-result.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';
import { enterLateCaptureInBooks } from './record-late-capture.ts';

/** Longer than any gateway call: no other worker takes a claimed repair while this one asks. */
const REPAIR_LEASE_SECONDS = 120;
/** 30 s, 60 s, 120 s, ... up to an hour between tries of one repair. */
const RETRY_BACKOFF = { firstMs: 30_000, maxMs: 3_600_000 };

/** The next try of a repair tried `tries` times: by `RETRY_BACKOFF`, at least the gateway's pause. */
function nextTryAt(now: Date, tries: number, atLeastSeconds = 0): Date {
  return new Date(now.getTime() + Math.max(backoffDelayMs(RETRY_BACKOFF, tries), atLeastSeconds * 1000));
}

/**
 * Applies what the gateway said about a late capture's repair refund, in the caller's transaction.
 * Locks the intent, then the late capture (the order of every writer of an intent's rows). Only a
 * repair still open changes: REFUNDED writes `payment_intent.late_capture_refunded` for the
 * merchant; REFUND_FAILED stops (the operator must act); anything else is tried again later.
 * Null when no late capture was refunded with this key.
 */
export async function applyLateCaptureRefundOutcome(
  ctx: AppContext,
  tx: Queryable,
  gatewayId: string,
  refundIdempotencyKey: string,
  outcome: RefundOutcome,
): Promise<LateCaptureRecord | null> {
  const found = await findLateCaptureByRefundKey(tx, gatewayId, refundIdempotencyKey);
  if (!found) return null;
  const intent = await findPaymentIntentById(tx, found.paymentIntentId, { forUpdate: true });
  const capture = await findLateCaptureByRefundKey(tx, gatewayId, refundIdempotencyKey, { forUpdate: true });
  if (!intent || !capture) return null;
  if (capture.repairStatus === 'REFUNDED' || capture.repairStatus === 'REFUND_FAILED') return capture;
  const now = ctx.clock.now();
  switch (outcome.kind) {
    case 'succeeded': {
      const repaired = await updateLateCaptureRepair(tx, capture.id, {
        repairStatus: 'REFUNDED',
        refundReference: outcome.gatewayReference,
        nextRepairAt: null,
        tried: true,
        updatedAt: now,
      });
      await recordLateCaptureRefunded(tx, intent, now);
      return repaired;
    }
    case 'failed':
      return updateLateCaptureRepair(tx, capture.id, {
        repairStatus: 'REFUND_FAILED',
        refundReference: outcome.gatewayReference,
        failureMessage: outcome.message,
        nextRepairAt: null,
        tried: true,
        updatedAt: now,
      });
    case 'pending':
      return updateLateCaptureRepair(tx, capture.id, {
        repairStatus: 'REFUND_PENDING',
        refundReference: outcome.gatewayReference,
        nextRepairAt: nextTryAt(now, capture.tries),
        tried: true,
        updatedAt: now,
      });
    case 'indeterminate':
    case 'unavailable':
      // Not known to be taken: the same key is sent again later (the gateway refunds once).
      return updateLateCaptureRepair(tx, capture.id, {
        repairStatus: capture.repairStatus,
        failureMessage: outcome.detail,
        nextRepairAt: nextTryAt(
          now,
          capture.tries,
          outcome.kind === 'unavailable' ? outcome.retryAfterSeconds : 0,
        ),
        tried: true,
        updatedAt: now,
      });
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

/**
 * Keeps a late capture's repair in step with its automatic refund (a `refunds` row whose gateway
 * key is the repair's: see `enterLateCaptureInBooks`), in the transaction that settled or noted
 * the refund, the intent's lock held. SUCCEEDED: REFUNDED and `payment_intent.late_capture_refunded`
 * (the intent shows the refunded amount); FAILED: REFUND_FAILED for the operator; PENDING with a
 * gateway reference: REFUND_PENDING. Returns the operator's warning for a failure, else null;
 * nothing happens for a merchant's own refund.
 */
export async function followRefundOnLateCapture(
  ctx: AppContext,
  tx: Queryable,
  refund: RefundRecord,
): Promise<string | null> {
  const capture = await findLateCaptureByRefundKey(tx, refund.gatewayId, refund.gatewayIdempotencyKey, {
    forUpdate: true,
  });
  if (!capture) return null;
  const now = ctx.clock.now();
  if (refund.status === 'PENDING') {
    if (capture.repairStatus === 'REFUND_DUE' && refund.gatewayReference) {
      await updateLateCaptureRepair(tx, capture.id, {
        repairStatus: 'REFUND_PENDING',
        refundReference: refund.gatewayReference,
        nextRepairAt: null,
        tried: true,
        updatedAt: now,
      });
    }
    return null;
  }
  if (refund.status === 'FAILED') {
    if (capture.repairStatus === 'REFUND_FAILED') return null;
    await updateLateCaptureRepair(tx, capture.id, {
      repairStatus: 'REFUND_FAILED',
      refundReference: refund.gatewayReference,
      failureMessage: refund.failureMessage,
      nextRepairAt: null,
      tried: true,
      updatedAt: now,
    });
    return `late capture ${capture.id}: its refund ${refund.id} failed (${refund.failureMessage ?? 'no reason'}); the payer's money is still captured, an operator must act`;
  }
  if (capture.repairStatus === 'REFUNDED') return null;
  await updateLateCaptureRepair(tx, capture.id, {
    repairStatus: 'REFUNDED',
    refundReference: refund.gatewayReference,
    nextRepairAt: null,
    tried: true,
    updatedAt: now,
  });
  const intent = await findPaymentIntentById(tx, capture.paymentIntentId);
  if (intent) await recordLateCaptureRefunded(tx, intent, now);
  return null;
}

/** `payment_intent.late_capture_refunded`: the merchant hears that the late capture went back. */
async function recordLateCaptureRefunded(
  tx: Queryable,
  intent: PaymentIntentRecord,
  now: Date,
): Promise<void> {
  await insertEvent(
    tx,
    intent.merchantId,
    intent.id,
    buildEvent(
      'payment_intent.late_capture_refunded',
      { ...paymentIntentResource(intent, { kind: 'event' }) },
      intent.livemode,
      now,
    ),
  );
}

/**
 * A due repair whose capture belongs in the books is handed to its automatic refund (entered in the
 * books here if an older release recorded the capture without it): from then on the refund
 * machinery sends, reads back and settles it, and `followRefundOnLateCapture` mirrors it. False for
 * a capture that is not in the books (another amount, a SUCCEEDED intent): the worker refunds it.
 */
async function handToRefund(ctx: AppContext, capture: LateCaptureRecord): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const intent = await findPaymentIntentById(tx, capture.paymentIntentId, { forUpdate: true });
    const locked = await findLateCaptureByRefundKey(tx, capture.gatewayId, capture.refundIdempotencyKey, {
      forUpdate: true,
    });
    if (!intent || !locked || locked.repairStatus !== 'REFUND_DUE') return false;
    if (await findRefundByGatewayKey(tx, locked.gatewayId, locked.refundIdempotencyKey)) {
      await updateLateCaptureRepair(tx, locked.id, {
        repairStatus: locked.repairStatus,
        nextRepairAt: null,
        tried: false,
        updatedAt: ctx.clock.now(),
      });
      return true;
    }
    return enterLateCaptureInBooks(tx, intent, locked, ctx.clock.now());
  });
}

/**
 * The repair worker: a due late capture that belongs in the books is handed to its automatic
 * refund (above); any other is refunded in full at its gateway
 * (REFUND_DUE: the refund is sent, again if a crash or an unreadable answer left it unknown; the
 * derived key makes the gateway refund once) or read back (REFUND_PENDING), outside any
 * transaction, and the answer is applied in a transaction of its own.
 */
export async function repairLateCaptures(ctx: AppContext, limit: number): Promise<BatchResult> {
  const now = ctx.clock.now();
  const claimed = await ctx.db.transaction((tx) =>
    claimDueLateCaptures(tx, now, new Date(now.getTime() + REPAIR_LEASE_SECONDS * 1000), limit),
  );
  const warnings: string[] = [];
  await Promise.all(
    claimed.map(async (capture) => {
      if (await handToRefund(ctx, capture)) return;
      const connector = await connectorFor(ctx, gatewayKeyOf(capture), { forNewPayment: false });
      if (!connector) {
        warnings.push(`late capture ${capture.id}: gateway ${capture.gatewayId} is not configured`);
        return;
      }
      let outcome: RefundOutcome;
      try {
        outcome =
          capture.repairStatus === 'REFUND_PENDING'
            ? await connector.syncRefund({
                idempotencyKey: capture.refundIdempotencyKey,
                gatewayReference: capture.refundReference,
              })
            : await connector.refund({
                idempotencyKey: capture.refundIdempotencyKey,
                refundId: capture.id,
                paymentIntentId: capture.paymentIntentId,
                chargeReference: capture.chargeReference,
                amountMinor: capture.amountMinor,
                currency: capture.currency,
                livemode: capture.livemode,
              });
      } catch (error) {
        outcome = { kind: 'indeterminate', detail: error instanceof Error ? error.message : 'unknown error' };
      }
      const applied = await ctx.db.transaction((tx) =>
        applyLateCaptureRefundOutcome(ctx, tx, capture.gatewayId, capture.refundIdempotencyKey, outcome),
      );
      if (applied?.repairStatus === 'REFUND_FAILED') {
        warnings.push(
          `late capture ${applied.id}: the gateway refused its refund (${applied.failureMessage ?? 'no reason'}); the payer's money is still captured, an operator must act`,
        );
      }
    }),
  );
  return { handled: claimed.length, warnings };
}
