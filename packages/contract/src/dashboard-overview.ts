import { Type } from 'typebox';
import { Livemode, Timestamp } from './common.ts';

/** Totals of one currency over one period (UTC). Amounts are integers in minor units. */
export const OverviewTotals = Type.Object({
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  volume_minor: Type.Integer({ minimum: 0, description: 'Sum of the approved payments' }),
  succeeded_count: Type.Integer({ minimum: 0 }),
  failed_count: Type.Integer({ minimum: 0, description: 'Payments declined by the issuer or gateway' }),
  success_rate_percent: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: 'Succeeded out of succeeded plus failed, rounded to one decimal; null when none settled',
  }),
  refunded_minor: Type.Integer({ minimum: 0, description: 'Sum of the approved refunds' }),
  refund_count: Type.Integer({ minimum: 0 }),
});

export const OverviewDay = Type.Object({
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A UTC calendar day' }),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  volume_minor: Type.Integer({ minimum: 0 }),
  succeeded_count: Type.Integer({ minimum: 0 }),
  failed_count: Type.Integer({ minimum: 0 }),
  refunded_minor: Type.Integer({ minimum: 0 }),
  refund_count: Type.Integer({ minimum: 0 }),
});

/** The overview page: today, this month, and the last 30 days day by day (all UTC). */
export const DashboardOverview = Type.Object({
  object: Type.Literal('dashboard_overview'),
  livemode: Livemode,
  as_of: Timestamp,
  today: Type.Array(OverviewTotals),
  month: Type.Array(OverviewTotals),
  days: Type.Array(OverviewDay, {
    description: 'The last 30 UTC days, oldest first; days without payments are absent',
  }),
});
