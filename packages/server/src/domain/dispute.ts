import { disputeReasons, disputeStatuses } from '@paygate/contract';
import type { EventType } from './events.ts';

// The lists are the contract's (the API's enums): one list, read by the domain and the connectors.
export { disputeReasons, disputeStatuses };
export type DisputeStatus = (typeof disputeStatuses)[number];

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
   * The gateway has given back what it withdrew, whatever the status says: a win does, and so does
   * a reversal that is not final yet (Adyen CHARGEBACK_REVERSED with `disputeStatus: Pending`, after
   * which a SECOND_CHARGEBACK may follow). A WON report implies it.
   */
  fundsReturned?: boolean;
  /**
   * The issuer took the amount again after it was given back (Adyen SECOND_CHARGEBACK,
   * PREARBITRATION_LOST): the one documented way out of WON, to LOST, and the way a dispute whose
   * reversal was not final ends LOST. Read only with a LOST report.
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
  /**
   * The gateway gave the amount back (a DISPUTE_REVERSAL row) and has not taken it again: a late
   * report of the earlier withdrawal must not take it a second time, and only a charge back
   * again does.
   */
  fundsReturned: boolean;
  reason: DisputeReason;
  evidenceDueBy: Date | null;
}

export interface DisputeStep {
  status: DisputeStatus;
  fundsHeld: boolean;
  fundsReturned: boolean;
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

interface Money {
  transactions: DisputeTransactionType[];
  fundsHeld: boolean;
  fundsReturned: boolean;
}

/**
 * The money of a report reaching `status` from a dispute whose funds stand as `current` says. The
 * books show what the gateway did: a dispute the gateway says it withdrew holds the amount (DISPUTE
 * once, whatever its status); a win or a reversal returns what was taken (DISPUTE_REVERSAL),
 * writing the DISPUTE first when the gateway took and returned it before Paygate heard of either
 * (a notification missed or out of order); after a return, only a charge back again takes the
 * amount again (a late report of the first withdrawal does not). An inquiry that never withdrew
 * anything moves no money, however it ends.
 */
function moneyOf(
  current: { fundsHeld: boolean; fundsReturned: boolean },
  status: DisputeStatus,
  report: DisputeReport,
): Money {
  const unchanged: Money = {
    transactions: [],
    fundsHeld: current.fundsHeld,
    fundsReturned: current.fundsReturned,
  };
  if (status === 'WON' || report.fundsReturned === true) {
    if (current.fundsHeld)
      return { transactions: ['DISPUTE_REVERSAL'], fundsHeld: false, fundsReturned: true };
    if (current.fundsReturned || !report.fundsWithdrawn) return unchanged;
    return { transactions: ['DISPUTE', 'DISPUTE_REVERSAL'], fundsHeld: false, fundsReturned: true };
  }
  if (!report.fundsWithdrawn || current.fundsHeld) return unchanged;
  if (current.fundsReturned && !(report.chargedBackAgain === true && status === 'LOST')) return unchanged;
  return { transactions: ['DISPUTE'], fundsHeld: true, fundsReturned: false };
}

/**
 * The dispute state machine. A first report opens the dispute in the status it reports
 * (dispute.created, and dispute.closed too when it is already decided). After that the status only
 * moves forward, NEEDS_RESPONSE → UNDER_REVIEW → WON | LOST; an older report that arrives late
 * moves nothing back, and a closed dispute never changes again, except WON --second chargeback-->
 * LOST, which the gateway documents and which takes the amount again. Only a final status closes:
 * a reversal that may still be undone (Adyen's CHARGEBACK_REVERSED Pending) returns the amount and
 * leaves the dispute UNDER_REVIEW, and a charge back again then ends it LOST, taking it again. An open dispute takes a new
 * reason or evidence due date. Null: the report changes nothing (a replay, a stale report).
 */
export function disputeStep(current: DisputeState | null, report: DisputeReport): DisputeStep | null {
  if (current === null) {
    const money = moneyOf({ fundsHeld: false, fundsReturned: false }, report.status, report);
    return {
      status: report.status,
      fundsHeld: money.fundsHeld,
      fundsReturned: money.fundsReturned,
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
      fundsReturned: false,
      transactions: ['DISPUTE'],
      events: ['dispute.closed'],
    };
  }
  const status = rank(report.status) > rank(current.status) ? report.status : current.status;
  const money = moneyOf(current, status, report);
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
    fundsReturned: money.fundsReturned,
    ...details,
    transactions: money.transactions,
    events: [closed(status) ? 'dispute.closed' : 'dispute.updated'],
  };
}
