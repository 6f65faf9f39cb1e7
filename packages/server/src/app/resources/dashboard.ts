import type { DayTotals, PeriodTotals } from '../../domain/overview.ts';

// The back office's own resources (overview, payment search, keys, second factor, clients).

function totalsResource(totals: PeriodTotals) {
  return {
    currency: totals.currency,
    volume_minor: totals.volumeMinor,
    succeeded_count: totals.succeededCount,
    failed_count: totals.failedCount,
    success_rate_percent: totals.successRatePercent,
    refunded_minor: totals.refundedMinor,
    refund_count: totals.refundCount,
  };
}

export function overviewResource(overview: {
  livemode: boolean;
  asOf: Date;
  today: PeriodTotals[];
  month: PeriodTotals[];
  days: DayTotals[];
}) {
  return {
    object: 'dashboard_overview' as const,
    livemode: overview.livemode,
    as_of: overview.asOf.toISOString(),
    today: overview.today.map(totalsResource),
    month: overview.month.map(totalsResource),
    days: overview.days.map((day) => ({
      date: day.date,
      currency: day.currency,
      volume_minor: day.volumeMinor,
      succeeded_count: day.succeededCount,
      failed_count: day.failedCount,
      refunded_minor: day.refundedMinor,
      refund_count: day.refundCount,
    })),
  };
}

export type OverviewResource = ReturnType<typeof overviewResource>;
