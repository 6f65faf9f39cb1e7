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

/** The overview page: today, this month, the last 30 days (day by day) against the 30 before, and why payments failed (all UTC). */
export const DashboardOverview = Type.Object({
  object: Type.Literal('dashboard_overview'),
  livemode: Livemode,
  as_of: Timestamp,
  today: Type.Array(OverviewTotals),
  month: Type.Array(OverviewTotals),
  last_30_days: Type.Array(OverviewTotals, { description: 'The last 30 UTC days, today included' }),
  previous_30_days: Type.Array(OverviewTotals, {
    description: 'The 30 UTC days before last_30_days, to measure the change against',
  }),
  decline_reasons: Type.Array(
    Type.Object({
      currency: Type.String({ pattern: '^[A-Z]{3}$' }),
      reason: Type.String({ description: "last_payment_error's decline_code, else its code" }),
      count: Type.Integer({ minimum: 1 }),
    }),
    {
      description:
        'Failed payments of the last 30 UTC days by reason, at most 5 per currency, most frequent first',
    },
  ),
  days: Type.Array(OverviewDay, {
    description: 'The last 30 UTC days, oldest first; days without payments are absent',
  }),
});
