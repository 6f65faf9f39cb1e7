import type { RefundOutcome } from '../../gateways/connector.ts';
import { claimRefundsDueForSync } from '../../storage/repositories/refunds.ts';
import type { BatchResult } from '../batch-result.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import { applyRefundOutcomeByGatewayKey } from './refund-outcome.ts';

/** Longer than any gateway call: no other worker takes a claimed refund while this one asks. */
const CLAIM_LEASE_SECONDS = 60;

/**
 * Reconciliation of refunds: every PENDING refund due for a look (a late-settling refund whose
 * notification has not come, or a refund whose gateway answer was lost) is read back from its
 * gateway by the idempotency key we sent, outside any transaction, and the answer is applied in a
 * transaction of its own. A refund the gateway never received reads as failed (nothing was
 * refunded); one it cannot answer about yet stays PENDING and is looked at again later.
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
      let outcome: RefundOutcome;
      try {
        outcome = await connector.syncRefund({
          idempotencyKey: refund.gatewayIdempotencyKey,
          gatewayReference: refund.gatewayReference,
          connectorData: refund.connectorData,
        });
      } catch (error) {
        warnings.push(
          `refund ${refund.id}: sync failed (${error instanceof Error ? error.message : 'unknown'})`,
        );
        return;
      }
      await ctx.db.transaction((tx) =>
        applyRefundOutcomeByGatewayKey(ctx, tx, refund.gatewayId, refund.gatewayIdempotencyKey, outcome),
      );
    }),
  );
  return { handled: claimed.length, warnings };
}
