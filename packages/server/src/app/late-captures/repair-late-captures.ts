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
import { findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import type { BatchResult } from '../batch-result.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';

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
 * The repair worker: every late capture whose repair is due is refunded in full at its gateway
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
