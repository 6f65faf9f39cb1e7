import type {
  BookCharge,
  BookRefund,
  ChargeOutcome,
  GatewayBooks,
  GatewayConnector,
  RefundOutcome,
} from '../../gateways/connector.ts';
import { findAttemptByKey } from '../../storage/repositories/charge-attempts.ts';
import { listAllGatewayAccounts } from '../../storage/repositories/gateway-accounts.ts';
import { type BooksOwner, knownCharges, knownRefunds } from '../../storage/repositories/reconciliation.ts';
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
  /** The merchant's gateway account whose books showed it; null for the process's gateway. */
  gatewayAccountId: string | null;
  /** Repaired during this run (the state read back from the gateway was applied and now agrees). */
  repaired: boolean;
}

export interface ReconciliationReport {
  from: string;
  to: string;
  gateways: {
    gatewayId: string;
    livemode: boolean;
    /** The merchant's gateway account compared; null for the process's gateway. */
    gatewayAccountId: string | null;
    merchantId: string | null;
    charges: number;
    refunds: number;
  }[];
  /** Gateways (and `gwa_` accounts) that keep no books we can read: not compared. */
  skipped: string[];
  /**
   * Books that could not be read this time (credentials refused, gateway down): not compared, the
   * rest of the report stands. Only when the run asks for it (`reportUnreadable`); else it fails.
   */
  unreadable: {
    gatewayId: string;
    livemode: boolean;
    gatewayAccountId: string | null;
    merchantId: string | null;
    reason: string;
  }[];
  differences: ReportedDifference[];
  /** Differences still there after this run. */
  unrepaired: number;
}

/** A book entry's definite state as the outcome it stands for; null when it decides nothing. */
function chargeOutcomeOf(book: BookCharge | undefined): ChargeOutcome | null {
  if (book?.status === 'succeeded') {
    const captured = { amountMinor: book.amountMinor, currency: book.currency };
    return { kind: 'succeeded', gatewayReference: book.gatewayReference, captured };
  }
  if (book?.status === 'failed') {
    return {
      kind: 'failed',
      gatewayReference: book.gatewayReference,
      failureCode: 'gateway_rejected',
      message: "The gateway's books show this charge failed.",
    };
  }
  return null;
}

function refundOutcomeOf(book: BookRefund | undefined): RefundOutcome | null {
  if (book?.status === 'succeeded') {
    const refunded = { amountMinor: book.amountMinor, currency: book.currency };
    return { kind: 'succeeded', gatewayReference: book.gatewayReference, refunded };
  }
  if (book?.status === 'failed') {
    return {
      kind: 'failed',
      gatewayReference: book.gatewayReference,
      message: "The gateway's books show this refund failed.",
    };
  }
  return null;
}

/**
 * Applies the gateway's state of one record, through the same path as the reconciliation jobs:
 * what its books show, when they show a decided state (a capture, a settled refund: Adyen's
 * settlement report is read no other way), else what the connector reads back.
 */
async function repair(
  ctx: AppContext,
  connector: GatewayConnector,
  difference: Difference,
  books: GatewayBooks,
): Promise<void> {
  if (difference.object === 'charge') {
    const attempt = await findAttemptByKey(ctx.db, connector.id, difference.idempotencyKey);
    if (!attempt) return;
    const outcome =
      chargeOutcomeOf(books.charges.find((b) => b.idempotencyKey === difference.idempotencyKey)) ??
      (await outcomeOrUnknown(connector, (c) =>
        c.syncCharge({
          idempotencyKey: attempt.idempotencyKey,
          gatewayReference: attempt.gatewayReference,
          connectorData: attempt.connectorData,
        }),
      ));
    await applyAttemptOutcome(ctx, attempt, outcome, 'sync');
    // A capture after the intent closed is now recorded, with its automatic refund: the refund is
    // sent now, not at the jobs' next tick (the jobs and this run claim each one once).
    if (attempt.status !== 'SUCCEEDED' && outcome.kind === 'succeeded') {
      await repairLateCaptures(ctx, 20);
      await reconcilePendingRefunds(ctx, 20);
    }
    return;
  }
  const outcome =
    refundOutcomeOf(books.refunds.find((b) => b.idempotencyKey === difference.idempotencyKey)) ??
    (await connector.syncRefund({
      idempotencyKey: difference.idempotencyKey,
      gatewayReference: difference.gatewayReference,
    }));
  await ctx.db.transaction((tx) =>
    applyRefundOutcomeByGatewayKey(ctx, tx, connector.id, difference.idempotencyKey, outcome),
  );
}

/** One set of books to compare: the process's gateway of an id, or a merchant's account. */
interface BooksSource {
  connector: GatewayConnector;
  gatewayId: string;
  livemode: boolean;
  gatewayAccountId: string | null;
  owner: BooksOwner;
}

/** The process's gateways, then every merchant's gateway account (of one merchant, if given). */
async function booksSources(
  ctx: AppContext,
  merchantId: string | null,
  processGateways: boolean,
): Promise<BooksSource[]> {
  const sources: BooksSource[] = [];
  if (processGateways) {
    for (const gatewayId of ctx.gateways.ids()) {
      const connector = ctx.gateways.get(gatewayId);
      if (!connector) continue;
      const livemode = connector.allowsLivemode;
      sources.push({
        connector,
        gatewayId,
        livemode,
        gatewayAccountId: null,
        owner: 'merchants-without-account',
      });
    }
  }
  for (const account of await listAllGatewayAccounts(ctx.db, merchantId)) {
    sources.push({
      connector: ctx.gatewayAccounts.connectorOf(account),
      gatewayId: account.gatewayId,
      livemode: account.livemode,
      gatewayAccountId: account.id,
      owner: { merchantId: account.merchantId },
    });
  }
  return sources;
}

async function compare(
  ctx: AppContext,
  source: BooksSource,
  readBooks: NonNullable<GatewayConnector['readBooks']>,
  window: { from: Date; to: Date },
) {
  const wide = {
    from: new Date(window.from.getTime() - EDGE_MARGIN_MS),
    to: new Date(window.to.getTime() + EDGE_MARGIN_MS),
  };
  const { gatewayId, livemode, owner } = source;
  const [charges, refunds, books] = await Promise.all([
    knownCharges(ctx.db, gatewayId, livemode, wide.from, wide.to, owner),
    knownRefunds(ctx.db, gatewayId, livemode, wide.from, wide.to, owner),
    readBooks(wide),
  ]);
  return { ...findDifferences(window, ctx.clock.now(), { charges, refunds }, books), books };
}

/**
 * Compares every charge and refund Paygate knows for `[from, to)` with the books of each gateway
 * that keeps them: the process's gateways (for merchants without an account of theirs) and every
 * merchant's own gateway account (Stripe: its list API; Adyen: its settlement details reports),
 * and repairs what can be repaired: a record Paygate still has open while the gateway has decided
 * is settled through the same path as the reconciliation jobs. After the repairs the comparison
 * runs again; what remains is reported as unrepaired (the operator's). `merchantId`: only that
 * merchant's accounts.
 */
export async function reconcileWithGateways(
  ctx: AppContext,
  options: ReconcileOptions & {
    /** Only this merchant's accounts (and the process's gateways only with `processGateways`). */
    merchantId?: string | null;
    processGateways?: boolean;
    /** Books that cannot be read are reported as such, and the other books still compared. */
    reportUnreadable?: boolean;
  },
): Promise<ReconciliationReport> {
  const window = { from: options.from, to: options.to };
  const report: ReconciliationReport = {
    from: options.from.toISOString(),
    to: options.to.toISOString(),
    gateways: [],
    skipped: [],
    unreadable: [],
    differences: [],
    unrepaired: 0,
  };
  const merchantId = options.merchantId ?? null;
  for (const source of await booksSources(ctx, merchantId, options.processGateways ?? merchantId === null)) {
    const { connector, gatewayId, livemode, gatewayAccountId } = source;
    const { readBooks } = connector;
    if (!readBooks) {
      report.skipped.push(gatewayAccountId ?? gatewayId);
      continue;
    }
    let first: Awaited<ReturnType<typeof compare>>;
    try {
      first = await compare(ctx, source, readBooks, window);
    } catch (error) {
      if (!options.reportUnreadable) throw error;
      report.unreadable.push({
        gatewayId,
        livemode,
        gatewayAccountId,
        merchantId: source.owner === 'merchants-without-account' ? null : source.owner.merchantId,
        reason: error instanceof Error ? error.message : String(error),
      });
      continue;
    }
    let remaining = first.differences;
    if (options.repair && first.differences.some((d) => d.repairable)) {
      for (const difference of first.differences.filter((d) => d.repairable)) {
        await repair(ctx, connector, difference, first.books);
      }
      remaining = (await compare(ctx, source, readBooks, window)).differences;
    }
    const stillThere = new Set(remaining.map((d) => `${d.object}:${d.idempotencyKey}`));
    const where = { gatewayId, livemode, gatewayAccountId };
    for (const difference of first.differences) {
      const repaired = !stillThere.has(`${difference.object}:${difference.idempotencyKey}`);
      report.differences.push({ ...difference, ...where, repaired });
      if (!repaired) report.unrepaired += 1;
    }
    // A difference that appeared between the two comparisons is reported too.
    const seen = new Set(first.differences.map((d) => `${d.object}:${d.idempotencyKey}`));
    for (const difference of remaining) {
      if (seen.has(`${difference.object}:${difference.idempotencyKey}`)) continue;
      report.differences.push({ ...difference, ...where, repaired: false });
      report.unrepaired += 1;
    }
    report.gateways.push({
      ...where,
      merchantId: source.owner === 'merchants-without-account' ? null : source.owner.merchantId,
      charges: first.checkedCharges,
      refunds: first.checkedRefunds,
    });
  }
  return report;
}
