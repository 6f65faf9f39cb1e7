import type { EventType } from './events.ts';

export const disputeStatuses = ['NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST'] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

export const disputeReasons = [
  'fraudulent',
  'duplicate',
  'product_not_received',
  'product_unacceptable',
  'subscription_canceled',
  'credit_not_processed',
  'unrecognized',
  'general',
] as const;
export type DisputeReason = (typeof disputeReasons)[number];

/** The ledger rows a dispute writes: the amount taken back, and the amount returned when won. */
export type DisputeTransactionType = 'DISPUTE' | 'DISPUTE_REVERSAL';

/** What a gateway says about one dispute in one notification, in Paygate's words. */
export interface DisputeReport {
  status: DisputeStatus;
  /**
   * Whether the gateway has taken the disputed amount from the merchant at some point of this
   * dispute (Stripe: a dispute with balance transactions, or one that is not an inquiry; Adyen:
   * CHARGEBACK and what follows it, not NOTIFICATION_OF_CHARGEBACK, which only announces one).
   */
  fundsWithdrawn: boolean;
  /**
   * The issuer charged back again after the merchant won (Adyen SECOND_CHARGEBACK): the one
   * documented way out of WON, to LOST, taking the amount a second time.
   */
  chargedBackAgain?: boolean;
  reason: DisputeReason;
  evidenceDueBy: Date | null;
}

/** The part of a stored dispute its state machine reads. */
export interface DisputeState {
  status: DisputeStatus;
  /** The gateway holds the disputed amount now: a DISPUTE row was written and not reversed since. */
  fundsHeld: boolean;
  reason: DisputeReason;
  evidenceDueBy: Date | null;
}

export interface DisputeStep {
  status: DisputeStatus;
  fundsHeld: boolean;
  reason: DisputeReason;
  evidenceDueBy: Date | null;
  /** Rows to write, in this order, each for the dispute's amount. */
  transactions: DisputeTransactionType[];
  /** Events to write, in this order, each carrying the dispute as it is after the step. */
  events: Extract<EventType, 'dispute.created' | 'dispute.updated' | 'dispute.closed'>[];
}

const closed = (status: DisputeStatus) => status === 'WON' || status === 'LOST';

/** NEEDS_RESPONSE, then UNDER_REVIEW, then a closed status: a dispute only moves forward. */
function rank(status: DisputeStatus): number {
  switch (status) {
    case 'NEEDS_RESPONSE':
      return 0;
    case 'UNDER_REVIEW':
      return 1;
    case 'WON':
    case 'LOST':
      return 2;
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/**
 * The money of reaching `status` from a dispute that holds `fundsHeld`. The books show what the
 * gateway did: a dispute the gateway says it withdrew holds the amount (DISPUTE once, whatever its
 * status); a WON one returns what was taken (DISPUTE_REVERSAL), writing the DISPUTE first when the
 * gateway took and returned it before Paygate heard of either (a notification missed or out of
 * order). An inquiry that never withdrew anything moves no money, however it ends.
 */
function moneyOf(
  fundsHeld: boolean,
  status: DisputeStatus,
  fundsWithdrawn: boolean,
): { transactions: DisputeTransactionType[]; fundsHeld: boolean } {
  if (status === 'WON') {
    if (fundsHeld) return { transactions: ['DISPUTE_REVERSAL'], fundsHeld: false };
    return { transactions: fundsWithdrawn ? ['DISPUTE', 'DISPUTE_REVERSAL'] : [], fundsHeld: false };
  }
  if (fundsWithdrawn && !fundsHeld) return { transactions: ['DISPUTE'], fundsHeld: true };
  return { transactions: [], fundsHeld };
}

/**
 * The dispute state machine. A first report opens the dispute in the status it reports
 * (dispute.created, and dispute.closed too when it is already decided). After that the status only
 * moves forward, NEEDS_RESPONSE → UNDER_REVIEW → WON | LOST; an older report that arrives late
 * moves nothing back, and a closed dispute never changes again, except WON --second chargeback-->
 * LOST, which the gateway documents and which takes the amount again. An open dispute takes a new
 * reason or evidence due date. Null: the report changes nothing (a replay, a stale report).
 */
export function disputeStep(current: DisputeState | null, report: DisputeReport): DisputeStep | null {
  if (current === null) {
    const money = moneyOf(false, report.status, report.fundsWithdrawn);
    return {
      status: report.status,
      fundsHeld: money.fundsHeld,
      reason: report.reason,
      evidenceDueBy: report.evidenceDueBy,
      transactions: money.transactions,
      events: closed(report.status) ? ['dispute.created', 'dispute.closed'] : ['dispute.created'],
    };
  }
  if (closed(current.status)) {
    if (current.status !== 'WON' || report.chargedBackAgain !== true || !report.fundsWithdrawn) return null;
    return {
      ...current,
      status: 'LOST',
      fundsHeld: true,
      transactions: ['DISPUTE'],
      events: ['dispute.closed'],
    };
  }
  const status = rank(report.status) > rank(current.status) ? report.status : current.status;
  const money = moneyOf(current.fundsHeld, status, report.fundsWithdrawn);
  const sameDueDate =
    (current.evidenceDueBy?.getTime() ?? null) === (report.evidenceDueBy?.getTime() ?? null);
  const details = closed(status)
    ? { reason: current.reason, evidenceDueBy: current.evidenceDueBy }
    : { reason: report.reason, evidenceDueBy: report.evidenceDueBy };
  const changed =
    status !== current.status ||
    money.transactions.length > 0 ||
    (!closed(status) && (report.reason !== current.reason || !sameDueDate));
  if (!changed) return null;
  return {
    status,
    fundsHeld: money.fundsHeld,
    ...details,
    transactions: money.transactions,
    events: [closed(status) ? 'dispute.closed' : 'dispute.updated'],
  };
}
