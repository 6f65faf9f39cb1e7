import { type Backoff, backoffDelayMs } from '../../domain/retry-schedules.ts';
import type { GatewayConnector, RefundOutcome } from '../../gateways/connector.ts';
import {
  claimRefundsDueForSync,
  countRefundResend,
  notePendingRefund,
  type RefundRecord,
} from '../../storage/repositories/refunds.ts';
import type { BatchResult } from '../batch-result.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import { applyRefundOutcomeByGatewayKey } from './refund-outcome.ts';
import { chargeRefundedBy, refundRequestFor } from './refund-request.ts';

/** Longer than any gateway call: no other worker takes a claimed refund while this one asks. */
const CLAIM_LEASE_SECONDS = 60;
/**
 * How many times a refund the gateway never made is sent again before it is FAILED, and the
 * back-off between the sends (1, 2, 4, 8, 16 minutes: about half an hour in all).
 */
export const MAX_REFUND_RESENDS = 5;
export const REFUND_RESEND_BACKOFF: Backoff = { firstMs: 60_000, maxMs: 30 * 60_000 };

/**
 * Reconciliation of refunds: every PENDING refund due for a look (a late-settling refund whose
 * notification has not come, or a refund whose gateway answer was lost to a time-out or a 5xx)
 * is read back from its gateway's books, outside any transaction, and the answer is applied in a
 * transaction of its own. Where the books show the gateway made no refund with our key, the very
 * same request (same key, byte-identical body) is sent again with a bounded back-off; only after
 * {@link MAX_REFUND_RESENDS} sends that the gateway did not take is the refund FAILED, which
 * releases its amount. A refund the gateway cannot answer about yet stays PENDING.
 */
export async function reconcilePendingRefunds(ctx: AppContext, limit: number): Promise<BatchResult> {
  const now = ctx.clock.now();
  const claimed = await ctx.db.transaction((tx) =>
    claimRefundsDueForSync(tx, now, new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000), limit),
  );
  const warnings: string[] = [];
  await Promise.all(
    claimed.map(async (refund) => {
      const connector = await connectorFor(ctx, gatewayKeyOf(refund), { forNewPayment: false });
      if (!connector) {
        warnings.push(`refund ${refund.id}: gateway ${refund.gatewayId} is not configured`);
        return;
      }
      try {
        await reconcileRefund(ctx, connector, refund);
      } catch (error) {
        warnings.push(
          `refund ${refund.id}: sync failed (${error instanceof Error ? error.message : 'unknown'})`,
        );
      }
    }),
  );
  return { handled: claimed.length, warnings };
}

async function reconcileRefund(ctx: AppContext, connector: GatewayConnector, refund: RefundRecord) {
  const captured = await chargeRefundedBy(ctx.db, refund);
  const read = await connector.syncRefund({
    idempotencyKey: refund.gatewayIdempotencyKey,
    gatewayReference: refund.gatewayReference,
    connectorData: refund.connectorData,
    chargeReference: captured.reference,
  });
  if (read.kind !== 'unavailable') {
    await settle(ctx, refund, read);
    return;
  }
  // The gateway's books hold no refund made with our key: send the same request again, or give up.
  const resends = await ctx.db.transaction((tx) => countRefundResend(tx, refund.id));
  if (resends === null) return;
  if (resends > MAX_REFUND_RESENDS) {
    await settle(ctx, refund, {
      kind: 'failed',
      gatewayReference: null,
      message: `The gateway made no refund after ${MAX_REFUND_RESENDS} sends of the same request; nothing was refunded.`,
    });
    return;
  }
  let sent: RefundOutcome;
  try {
    sent = await connector.refund(refundRequestFor(refund, captured));
  } catch (error) {
    sent = { kind: 'indeterminate', detail: error instanceof Error ? error.message : 'unknown error' };
  }
  if (sent.kind === 'unavailable' || sent.kind === 'indeterminate') {
    // Not taken, or no answer: look again after the back-off (a read first, then maybe a resend).
    const nextSyncAt = new Date(
      ctx.clock.now().getTime() + backoffDelayMs(REFUND_RESEND_BACKOFF, resends - 1),
    );
    await notePendingRefund(ctx.db, refund.id, { gatewayReference: null, nextSyncAt });
    return;
  }
  await settle(ctx, refund, sent);
}

function settle(ctx: AppContext, refund: RefundRecord, outcome: RefundOutcome) {
  return ctx.db.transaction((tx) =>
    applyRefundOutcomeByGatewayKey(ctx, tx, refund.gatewayId, refund.gatewayIdempotencyKey, outcome),
  );
}
