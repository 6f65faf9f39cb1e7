import { dayTotals, overviewWindow, periodTotals, topDeclineReasons } from '../../domain/overview.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { sumDeclineReasons, sumSettledTransactions } from '../../storage/repositories/overview.ts';
import type { AppContext } from '../context.ts';
import { overviewResource } from '../resources/dashboard.ts';

/**
 * The overview of one mode at the clock's now: today's, this month's, the last 30 days' and the
 * 30 days before's totals per currency, the last 30 UTC days day by day, and the top decline
 * reasons of the last 30 days. The totals come from the daily roll-up that the transactions'
 * writes keep (migration 250), so they agree with GET /v1/transactions without reading it.
 */
export async function dashboardOverview(ctx: AppContext, scope: TenantScope) {
  const now = ctx.clock.now();
  const window = overviewWindow(now);
  const groups = await sumSettledTransactions(ctx.db, scope, window.from, window.to);
  const declines = await sumDeclineReasons(ctx.db, scope, window.chartFrom, window.to);
  return overviewResource({
    livemode: scope.livemode,
    asOf: now,
    today: periodTotals(groups, (day) => day === window.today),
    month: periodTotals(groups, (day) => day.startsWith(window.month)),
    last30Days: periodTotals(groups, (day) => day >= window.chartStart),
    previous30Days: periodTotals(groups, (day) => day >= window.previousStart && day < window.chartStart),
    days: dayTotals(groups.filter((group) => group.day >= window.chartStart)),
    declineReasons: topDeclineReasons(declines),
  });
}
