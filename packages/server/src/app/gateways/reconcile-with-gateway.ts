import type { GatewayConnector } from '../../gateways/connector.ts';
import { findAttemptByKey } from '../../storage/repositories/charge-attempts.ts';
import { knownCharges, knownRefunds } from '../../storage/repositories/reconciliation.ts';
import type { AppContext } from '../context.ts';
import { repairLateCaptures } from '../late-captures/repair-late-captures.ts';
import { applyAttemptOutcome } from '../payments/charge-outcomes.ts';
import { reconcilePendingRefunds } from '../refunds/reconcile-refunds.ts';
import { applyRefundOutcomeByGatewayKey } from '../refunds/refund-outcome.ts';
import { outcomeOrUnknown } from './connectors.ts';
import { type Difference, findDifferences } from './reconciliation-differences.ts';

/** How far each side is read beyond the window, for records sent near its edges. */
const EDGE_MARGIN_MS = 10 * 60 * 1000;

export interface ReconcileOptions {
  from: Date;
  to: Date;
  /** Apply the gateway's state where Paygate still waits for it (default true). */
  repair: boolean;
}

export interface ReportedDifference extends Difference {
  gatewayId: string;
  livemode: boolean;
  /** Repaired during this run (the state read back from the gateway was applied and now agrees). */
  repaired: boolean;
}

export interface ReconciliationReport {
  from: string;
  to: string;
  gateways: { gatewayId: string; livemode: boolean; charges: number; refunds: number }[];
  /** Gateways that keep no books we can read: not compared. */
  skipped: string[];
  differences: ReportedDifference[];
  /** Differences still there after this run. */
  unrepaired: number;
}

/** Reads the gateway's state of one record and applies it, exactly as the reconciliation jobs do. */
async function repair(ctx: AppContext, connector: GatewayConnector, difference: Difference): Promise<void> {
  if (difference.object === 'charge') {
    const attempt = await findAttemptByKey(ctx.db, connector.id, difference.idempotencyKey);
    if (!attempt) return;
    const outcome = await outcomeOrUnknown(connector, (c) =>
      c.syncCharge({
        idempotencyKey: attempt.idempotencyKey,
        gatewayReference: attempt.gatewayReference,
        connectorData: attempt.connectorData,
      }),
    );
    await applyAttemptOutcome(ctx, attempt, outcome, 'sync');
    // A capture after the intent closed is now recorded, with its automatic refund: the refund is
    // sent now, not at the jobs' next tick (the jobs and this run claim each one once).
    if (attempt.status !== 'SUCCEEDED' && outcome.kind === 'succeeded') {
      await repairLateCaptures(ctx, 20);
      await reconcilePendingRefunds(ctx, 20);
    }
    return;
  }
  const outcome = await connector.syncRefund({
    idempotencyKey: difference.idempotencyKey,
    gatewayReference: difference.gatewayReference,
  });
  await ctx.db.transaction((tx) =>
    applyRefundOutcomeByGatewayKey(ctx, tx, connector.id, difference.idempotencyKey, outcome),
  );
}

async function compare(
  ctx: AppContext,
  connector: GatewayConnector & Required<Pick<GatewayConnector, 'readBooks'>>,
  window: { from: Date; to: Date },
) {
  const wide = {
    from: new Date(window.from.getTime() - EDGE_MARGIN_MS),
    to: new Date(window.to.getTime() + EDGE_MARGIN_MS),
  };
  const livemode = connector.allowsLivemode;
  const [charges, refunds, books] = await Promise.all([
    knownCharges(ctx.db, connector.id, livemode, wide.from, wide.to),
    knownRefunds(ctx.db, connector.id, livemode, wide.from, wide.to),
    connector.readBooks(wide),
  ]);
  return findDifferences(window, ctx.clock.now(), { charges, refunds }, books);
}

/**
 * Compares every charge and refund Paygate knows for `[from, to)` with the books of each gateway
 * that keeps them, and repairs what can be repaired: a record Paygate still has open while the
 * gateway has decided is settled through the same path as the reconciliation jobs. After the
 * repairs the comparison runs again; what remains is reported as unrepaired (the operator's).
 */
export async function reconcileWithGateways(
  ctx: AppContext,
  options: ReconcileOptions,
): Promise<ReconciliationReport> {
  const window = { from: options.from, to: options.to };
  const report: ReconciliationReport = {
    from: options.from.toISOString(),
    to: options.to.toISOString(),
    gateways: [],
    skipped: [],
    differences: [],
    unrepaired: 0,
  };
  for (const gatewayId of ctx.gateways.ids()) {
    const connector = ctx.gateways.get(gatewayId);
    if (!connector) continue;
    const { readBooks } = connector;
    if (!readBooks) {
      report.skipped.push(gatewayId);
      continue;
    }
    const withBooks = { ...connector, readBooks };
    const first = await compare(ctx, withBooks, window);
    let remaining = first.differences;
    if (options.repair && first.differences.some((d) => d.repairable)) {
      for (const difference of first.differences.filter((d) => d.repairable)) {
        await repair(ctx, connector, difference);
      }
      remaining = (await compare(ctx, withBooks, window)).differences;
    }
    const stillThere = new Set(remaining.map((d) => `${d.object}:${d.idempotencyKey}`));
    const livemode = connector.allowsLivemode;
    for (const difference of first.differences) {
      const repaired = !stillThere.has(`${difference.object}:${difference.idempotencyKey}`);
      report.differences.push({ ...difference, gatewayId, livemode, repaired });
      if (!repaired) report.unrepaired += 1;
    }
    // A difference that appeared between the two comparisons is reported too.
    const seen = new Set(first.differences.map((d) => `${d.object}:${d.idempotencyKey}`));
    for (const difference of remaining) {
      if (seen.has(`${difference.object}:${difference.idempotencyKey}`)) continue;
      report.differences.push({ ...difference, gatewayId, livemode, repaired: false });
      report.unrepaired += 1;
    }
    report.gateways.push({
      gatewayId,
      livemode,
      charges: first.checkedCharges,
      refunds: first.checkedRefunds,
    });
  }
  return report;
}
