import type { DayTotals, DeclineGroup, PeriodTotals } from '../../domain/overview.ts';
import type { PaymentIntentStatus } from '../../domain/payment-intent.ts';
import type { DisputeRecord } from '../../storage/repositories/disputes.ts';
import type {
  AttemptSummary,
  DeliverySummary,
  EventSummary,
} from '../../storage/repositories/payment-detail.ts';
import type { PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import type { RefundRecord } from '../../storage/repositories/refunds.ts';
import { disputeResource } from './dispute.ts';
import { paymentIntentResource } from './payment-intent.ts';
import { refundResource } from './refund.ts';

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
  last30Days: PeriodTotals[];
  previous30Days: PeriodTotals[];
  days: DayTotals[];
  declineReasons: DeclineGroup[];
}) {
  return {
    object: 'dashboard_overview' as const,
    livemode: overview.livemode,
    as_of: overview.asOf.toISOString(),
    today: overview.today.map(totalsResource),
    month: overview.month.map(totalsResource),
    last_30_days: overview.last30Days.map(totalsResource),
    previous_30_days: overview.previous30Days.map(totalsResource),
    days: overview.days.map((day) => ({
      date: day.date,
      currency: day.currency,
      volume_minor: day.volumeMinor,
      succeeded_count: day.succeededCount,
      failed_count: day.failedCount,
      refunded_minor: day.refundedMinor,
      refund_count: day.refundCount,
    })),
    decline_reasons: overview.declineReasons.map((d) => ({
      currency: d.currency,
      reason: d.reason,
      count: d.count,
    })),
  };
}

export type OverviewResource = ReturnType<typeof overviewResource>;

export function paymentDetailResource(detail: {
  intent: PaymentIntentRecord;
  timeline: { status: PaymentIntentStatus; at: Date; eventId: string | null }[];
  attempts: AttemptSummary[];
  refunds: RefundRecord[];
  disputes: DisputeRecord[];
  events: EventSummary[];
  deliveries: DeliverySummary[];
}) {
  return {
    object: 'payment_detail' as const,
    // The event view: no client_secret, which the back office has no use for.
    payment_intent: paymentIntentResource(detail.intent, { kind: 'event' }),
    timeline: detail.timeline.map((step) => ({
      status: step.status,
      at: step.at.toISOString(),
      event_id: step.eventId,
    })),
    attempts: detail.attempts.map((a) => ({
      attempt_number: a.attempt_number,
      gateway_id: a.gateway_id,
      status: a.status,
      gateway_reference: a.gateway_reference,
      failure_code: a.failure_code,
      created_at: a.created_at.toISOString(),
      updated_at: a.updated_at.toISOString(),
    })),
    refunds: detail.refunds.map(refundResource),
    disputes: detail.disputes.map(disputeResource),
    events: detail.events.map((event) => ({
      id: event.id,
      type: event.type,
      created_at: event.created_at.toISOString(),
      deliveries: detail.deliveries
        .filter((d) => d.event_id === event.id)
        .map((d) => ({
          id: d.id,
          endpoint_id: d.endpoint_id,
          endpoint_url: d.endpoint_url,
          status: d.status,
          attempt_count: d.attempt_count,
          delivered_at: d.delivered_at ? d.delivered_at.toISOString() : null,
        })),
    })),
  };
}

export type PaymentDetailResource = ReturnType<typeof paymentDetailResource>;

/** A dashboard invitation as made (the token is in it once: the operator API, the team API, the CLI). */
export function dashboardInvitationResource(invitation: {
  token: string;
  email: string;
  role: string;
  expiresAt: Date;
  acceptUrl: string;
}) {
  return {
    object: 'dashboard_invitation' as const,
    email: invitation.email,
    role: invitation.role,
    expires_at: invitation.expiresAt.toISOString(),
    token: invitation.token,
    accept_url: invitation.acceptUrl,
  };
}
