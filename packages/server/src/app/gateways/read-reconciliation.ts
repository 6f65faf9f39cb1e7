import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { type ReconciliationReport, reconcileWithGateways } from './reconcile-with-gateway.ts';

/** The window a read covers when none is given: the last 24 hours, as `paygate reconcile`. */
const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The longest window one read may cover: every gateway's books are read page by page. */
const MAX_WINDOW_MS = 31 * DEFAULT_WINDOW_MS;

function windowOf(ctx: AppContext, query: { from?: string; to?: string }): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : ctx.clock.now();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_WINDOW_MS);
  if (from >= to) throw new ValidationError('from', 'must be before to');
  if (to.getTime() - from.getTime() > MAX_WINDOW_MS) {
    throw new ValidationError('from', 'the window may span at most 31 days');
  }
  return { from, to };
}

/**
 * `GET /admin/v1/reconciliation` and the console's page: compares the window with every gateway's
 * books, read-only (no repair: the scheduled job and `paygate reconcile` repair), optionally one
 * merchant's accounts. Books that cannot be read are listed as `unreadable`; the others still count.
 */
export async function readReconciliation(
  ctx: AppContext,
  query: { from?: string; to?: string; merchant_id?: string },
): Promise<ReconciliationReport> {
  const window = windowOf(ctx, query);
  const merchantId = query.merchant_id ?? null;
  if (merchantId !== null && !(await findMerchant(ctx.db, merchantId))) {
    throw new NotFoundError('merchant', merchantId);
  }
  return reconcileWithGateways(ctx, { ...window, repair: false, merchantId, reportUnreadable: true });
}

/**
 * A merchant's differences with the gateways' books in one mode, read-only, for the dashboard: the
 * merchant's own accounts, and its records in the process's gateways' books; books that could not
 * be read are listed with their cause.
 */
export async function readMerchantReconciliation(
  ctx: AppContext,
  scope: TenantScope,
  query: { from?: string; to?: string },
): Promise<ReconciliationReport> {
  // One account's books that cannot be read (credentials refused, gateway down) must not hide the
  // others': it is reported with its cause and the rest is compared.
  const report = await reconcileWithGateways(ctx, {
    ...windowOf(ctx, query),
    repair: false,
    merchantId: scope.merchantId,
    processGateways: true,
    reportUnreadable: true,
  });
  const mine = report.differences.filter(
    (d) =>
      d.livemode === scope.livemode &&
      (d.merchantId === scope.merchantId || (d.merchantId === null && d.gatewayAccountId !== null)),
  );
  return {
    ...report,
    gateways: report.gateways.filter((g) => g.livemode === scope.livemode),
    unreadable: report.unreadable.filter(
      (u) => u.livemode === scope.livemode && (u.merchantId === scope.merchantId || u.merchantId === null),
    ),
    differences: mine,
    unrepaired: mine.filter((d) => !d.repaired).length,
  };
}
