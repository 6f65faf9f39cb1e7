import type { DisputeReason, DisputeReport, DisputeStatus } from '../../domain/dispute.ts';
import type { GatewayAmount, GatewayNotification } from '../connector.ts';
import { stringOf } from '../reply-meaning.ts';

type Json = Record<string, unknown>;

/**
 * Adyen's dispute event codes, as its dispute notifications document them: what each does to the
 * money, and the status it means when no `additionalData.disputeStatus` comes with it (Adyen sends
 * none for payments processed in Brazil). NOTIFICATION_OF_CHARGEBACK announces a chargeback
 * (nothing debited yet); CHARGEBACK debits the amount; CHARGEBACK_REVERSED and PREARBITRATION_WON
 * return it, final only with disputeStatus Won (Pending: the issuer may still charge back again);
 * SECOND_CHARGEBACK and PREARBITRATION_LOST take it again after a return (or keep it, when it was
 * never returned).
 */
const EVENT_CODES: Readonly<
  Record<string, { status: DisputeStatus; money: 'none' | 'withdrawn' | 'returned' | 'taken_again' }>
> = {
  NOTIFICATION_OF_CHARGEBACK: { status: 'NEEDS_RESPONSE', money: 'none' },
  CHARGEBACK: { status: 'NEEDS_RESPONSE', money: 'withdrawn' },
  CHARGEBACK_REVERSED: { status: 'WON', money: 'returned' },
  PREARBITRATION_WON: { status: 'WON', money: 'returned' },
  PREARBITRATION_LOST: { status: 'LOST', money: 'taken_again' },
  SECOND_CHARGEBACK: { status: 'LOST', money: 'taken_again' },
};

/**
 * Adyen's `disputeStatus` (the dispute's stage) in Paygate's words. Only Won, Lost, Accepted and
 * Expired are final; Pending (a reversal or an escalation not decided yet) and Responded wait on
 * the issuer; Unresponded and Undefended wait on the merchant.
 */
const STAGES: Readonly<Record<string, DisputeStatus>> = {
  Unresponded: 'NEEDS_RESPONSE',
  Undefended: 'NEEDS_RESPONSE',
  Responded: 'UNDER_REVIEW',
  Pending: 'UNDER_REVIEW',
  Won: 'WON',
  Lost: 'LOST',
  Accepted: 'LOST',
  Expired: 'LOST',
};

/** The status of one item: its stage when Adyen names one (and Paygate knows it), else its code's. */
function statusOf(stage: string | null, byCode: DisputeStatus): DisputeStatus {
  return (stage && Object.hasOwn(STAGES, stage) ? STAGES[stage] : undefined) ?? byCode;
}

/**
 * Scheme reason codes (Visa, Mastercard) by the reason they stand for; any other code reads
 * `general`. Adyen passes the scheme's code through in `chargebackReasonCode`.
 */
const REASON_CODES: Readonly<Record<string, DisputeReason>> = {
  '10.1': 'fraudulent',
  '10.2': 'fraudulent',
  '10.3': 'fraudulent',
  '10.4': 'fraudulent',
  '10.5': 'fraudulent',
  '4837': 'fraudulent',
  '4840': 'fraudulent',
  '4849': 'fraudulent',
  '4863': 'unrecognized',
  '4870': 'fraudulent',
  '4871': 'fraudulent',
  '12.6.1': 'duplicate',
  '4834': 'duplicate',
  '13.1': 'product_not_received',
  '4855': 'product_not_received',
  '13.2': 'subscription_canceled',
  '4841': 'subscription_canceled',
  '13.3': 'product_unacceptable',
  '4853': 'product_unacceptable',
  '13.6': 'credit_not_processed',
  '4860': 'credit_not_processed',
};

/** The dispute event codes Paygate reads (docs/gateways.md lists them from here). */
export const ADYEN_DISPUTE_EVENT_CODES: readonly string[] = Object.keys(EVENT_CODES);

/** Whether Paygate reads this event code as a dispute notification. */
export function isDisputeEventCode(eventCode: string): boolean {
  return Object.hasOwn(EVENT_CODES, eventCode);
}

/**
 * One dispute notification item. Adyen names the disputed payment by `originalReference` (its
 * pspReference) and by `merchantReference` (the key Paygate sent with it); the item's own
 * `pspReference` is the dispute's, the same through its stages. `success=false` reports nothing.
 */
export function adyenDisputeNotification(
  item: Json,
  amount: GatewayAmount | undefined,
  notificationId: string,
): GatewayNotification | null {
  const eventCode = stringOf(item.eventCode) ?? '';
  const meaning = EVENT_CODES[eventCode];
  const pspReference = stringOf(item.pspReference);
  if (!meaning || !pspReference || item.success !== 'true') return null;
  const additional =
    typeof item.additionalData === 'object' && item.additionalData !== null
      ? (item.additionalData as Json)
      : {};
  const stage = stringOf(additional.disputeStatus);
  const status = statusOf(stage, meaning.status);
  const dueBy = stringOf(additional.defensePeriodEndsAt);
  const dueDate = dueBy ? new Date(dueBy) : null;
  const report: DisputeReport = {
    status,
    fundsWithdrawn: meaning.money !== 'none',
    ...(meaning.money === 'returned' ? { fundsReturned: true } : {}),
    ...(meaning.money === 'taken_again' ? { chargedBackAgain: true } : {}),
    reason: REASON_CODES[stringOf(additional.chargebackReasonCode) ?? ''] ?? 'general',
    evidenceDueBy: dueDate && !Number.isNaN(dueDate.getTime()) ? dueDate : null,
  };
  // Adyen sends CHARGEBACK again when the dispute's stage changes (Undefended, then Lost): the
  // stage is part of what makes a notification new; a redelivery repeats it exactly.
  return {
    notificationId: stage ? `${notificationId}:${stage}` : notificationId,
    subject: 'dispute',
    idempotencyKey: stringOf(item.merchantReference),
    outcome: {
      kind: 'dispute',
      chargeReference: stringOf(item.originalReference),
      disputeReference: pspReference,
      amount: amount ?? { amountMinor: Number.NaN, currency: '' },
      report,
      message: `adyen ${eventCode}${additional.disputeStatus ? ` (${String(additional.disputeStatus)})` : ''}`,
    },
  };
}
