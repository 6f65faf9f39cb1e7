import { dayTotals, overviewWindow, periodTotals } from '../../domain/overview.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { sumSettledTransactions } from '../../storage/repositories/overview.ts';
import type { AppContext } from '../context.ts';
import { overviewResource } from '../resources/dashboard.ts';

/**
 * The overview of one mode at the clock's now: today's and this month's totals per currency and
 * the last 30 UTC days, from one grouped query over the transactions (the ledger the public
 * transaction list shows), so the numbers agree with GET /v1/transactions.
 */
export async function dashboardOverview(ctx: AppContext, scope: TenantScope) {
  const now = ctx.clock.now();
  const window = overviewWindow(now);
  const groups = await sumSettledTransactions(ctx.db, scope, window.from, window.to);
  return overviewResource({
    livemode: scope.livemode,
    asOf: now,
    today: periodTotals(groups, (day) => day === window.today),
    month: periodTotals(groups, (day) => day.startsWith(window.month)),
    days: dayTotals(groups.filter((group) => group.day >= window.chartStart)),
  });
}
