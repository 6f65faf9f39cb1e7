import {
  type DisputeReason,
  type DisputeReport,
  type DisputeStatus,
  disputeReasons,
} from '../../domain/dispute.ts';
import { type GatewayNotification, GatewayNotificationError } from '../connector.ts';
import { stringOf } from '../reply-meaning.ts';

type Json = Record<string, unknown>;

/** The events whose object is a Dispute (Stripe's `charge.dispute.*`). */
export const DISPUTE_EVENTS: ReadonlySet<string> = new Set([
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
]);

/**
 * Stripe's Dispute `status` in Paygate's words. `warning_*` are inquiries (nothing withdrawn);
 * `warning_closed` ends one without a chargeback, `charge_refunded` ends one by the merchant's
 * refund (which the refund's own rows record): both close it without money moved by the dispute.
 */
const STATUSES: Readonly<Record<string, DisputeStatus>> = {
  warning_needs_response: 'NEEDS_RESPONSE',
  needs_response: 'NEEDS_RESPONSE',
  warning_under_review: 'UNDER_REVIEW',
  under_review: 'UNDER_REVIEW',
  won: 'WON',
  warning_closed: 'WON',
  lost: 'LOST',
  charge_refunded: 'LOST',
};

/** Stripe's reasons that are also Paygate's; the rest (bank_cannot_process, ...) read `general`. */
const REASONS: ReadonlySet<string> = new Set(disputeReasons);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One `charge.dispute.*` event as a dispute notification. The Dispute names the disputed payment
 * by the PaymentIntent's id only (its metadata is the dispute's own), so the charge is found by
 * the gateway's reference. Stripe amounts are ISO minor units already.
 */
export function stripeDisputeNotification(eventId: string, type: string, dispute: Json): GatewayNotification {
  const id = stringOf(dispute.id);
  const rawStatus = stringOf(dispute.status);
  const status = rawStatus ? STATUSES[rawStatus] : undefined;
  const currency = stringOf(dispute.currency);
  if (!id || !status || typeof dispute.amount !== 'number' || !currency) {
    throw new GatewayNotificationError(`${type} carries no readable Dispute (id, status, amount, currency)`);
  }
  const withdrawals = Array.isArray(dispute.balance_transactions) ? dispute.balance_transactions.length : 0;
  const inquiry = rawStatus?.startsWith('warning_') === true || rawStatus === 'charge_refunded';
  const dueBy = isObject(dispute.evidence_details) ? dispute.evidence_details.due_by : null;
  const reason = stringOf(dispute.reason);
  const report: DisputeReport = {
    status,
    fundsWithdrawn: withdrawals > 0 || !inquiry,
    reason: reason && REASONS.has(reason) ? (reason as DisputeReason) : 'general',
    evidenceDueBy: typeof dueBy === 'number' ? new Date(dueBy * 1000) : null,
  };
  return {
    notificationId: eventId,
    subject: 'dispute',
    idempotencyKey: null,
    outcome: {
      kind: 'dispute',
      chargeReference: stringOf(dispute.payment_intent) ?? null,
      disputeReference: id,
      amount: { amountMinor: dispute.amount, currency: currency.toUpperCase() },
      report,
      message: `stripe ${type}: ${rawStatus}`,
    },
  };
}
