/** A group of settled transactions as the overview query returns it (one UTC day, one currency). */
export interface SettledGroup {
  day: string;
  currency: string;
  type: 'PAYMENT' | 'REFUND' | 'DISPUTE' | 'DISPUTE_REVERSAL';
  status: 'APPROVED' | 'DECLINED';
  count: number;
  amountMinor: number;
}

/** Failed payments of one currency and one reason (decline code, else error code) over a period. */
export interface DeclineGroup {
  currency: string;
  reason: string;
  count: number;
}

export interface PeriodTotals {
  currency: string;
  volumeMinor: number;
  succeededCount: number;
  failedCount: number;
  /** Succeeded out of settled payments, in percent with one decimal; null when none settled. */
  successRatePercent: number | null;
  refundedMinor: number;
  refundCount: number;
}

export interface DayTotals {
  date: string;
  currency: string;
  volumeMinor: number;
  succeededCount: number;
  failedCount: number;
  refundedMinor: number;
  refundCount: number;
}

export const OVERVIEW_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * The UTC days the overview covers at `now`: today, this month, the chart's 30 days (today
 * included) and the 30 days before them, which the change is measured against.
 */
export function overviewWindow(now: Date) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const chartStart = new Date(today.getTime() - (OVERVIEW_DAYS - 1) * DAY_MS);
  const previousStart = new Date(chartStart.getTime() - OVERVIEW_DAYS * DAY_MS);
  return {
    today: today.toISOString().slice(0, 10),
    month: month.toISOString().slice(0, 7),
    chartStart: chartStart.toISOString().slice(0, 10),
    previousStart: previousStart.toISOString().slice(0, 10),
    chartFrom: chartStart,
    from: new Date(Math.min(month.getTime(), previousStart.getTime())),
    to: new Date(today.getTime() + DAY_MS),
  };
}

/** The most frequent decline reasons per currency, at most `limit` each, most frequent first. */
export function topDeclineReasons(groups: readonly DeclineGroup[], limit = 5): DeclineGroup[] {
  const sorted = [...groups].sort(
    (a, b) => a.currency.localeCompare(b.currency) || b.count - a.count || a.reason.localeCompare(b.reason),
  );
  const taken = new Map<string, number>();
  return sorted.filter((group) => {
    const n = taken.get(group.currency) ?? 0;
    taken.set(group.currency, n + 1);
    return n < limit;
  });
}

interface Counters {
  volumeMinor: number;
  succeededCount: number;
  failedCount: number;
  refundedMinor: number;
  refundCount: number;
}

const zero = (): Counters => ({
  volumeMinor: 0,
  succeededCount: 0,
  failedCount: 0,
  refundedMinor: 0,
  refundCount: 0,
});

/**
 * Approved payments are volume, declined ones failures, approved refunds refunds; declined refunds
 * count for nothing, and so do disputes here (they have their own rows in the list).
 */
function accumulate(counters: Counters, group: SettledGroup): void {
  if (group.type === 'PAYMENT' && group.status === 'APPROVED') {
    counters.volumeMinor += group.amountMinor;
    counters.succeededCount += group.count;
  } else if (group.type === 'PAYMENT') {
    counters.failedCount += group.count;
  } else if (group.type === 'REFUND' && group.status === 'APPROVED') {
    counters.refundedMinor += group.amountMinor;
    counters.refundCount += group.count;
  }
}

/** Day totals per (day, currency), oldest first, then by currency. */
export function dayTotals(groups: readonly SettledGroup[]): DayTotals[] {
  const days = new Map<string, DayTotals>();
  for (const group of groups) {
    const key = `${group.day} ${group.currency}`;
    let day = days.get(key);
    if (!day) {
      day = { date: group.day, currency: group.currency, ...zero() };
      days.set(key, day);
    }
    accumulate(day, group);
  }
  return [...days.values()].sort((a, b) =>
    a.date === b.date ? a.currency.localeCompare(b.currency) : a.date.localeCompare(b.date),
  );
}

/** Totals per currency of the groups whose day passes `inPeriod`, by currency code. */
export function periodTotals(
  groups: readonly SettledGroup[],
  inPeriod: (day: string) => boolean,
): PeriodTotals[] {
  const byCurrency = new Map<string, PeriodTotals>();
  for (const group of groups) {
    if (!inPeriod(group.day)) continue;
    let totals = byCurrency.get(group.currency);
    if (!totals) {
      totals = { currency: group.currency, ...zero(), successRatePercent: null };
      byCurrency.set(group.currency, totals);
    }
    accumulate(totals, group);
  }
  for (const totals of byCurrency.values()) {
    const settled = totals.succeededCount + totals.failedCount;
    totals.successRatePercent =
      settled === 0 ? null : Math.round((totals.succeededCount * 1000) / settled) / 10;
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}
