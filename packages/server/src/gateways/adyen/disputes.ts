import type { DisputeReason, DisputeReport, DisputeStatus } from '../../domain/dispute.ts';
import type { GatewayAmount, GatewayNotification } from '../connector.ts';
import { stringOf } from '../reply-meaning.ts';

type Json = Record<string, unknown>;

/**
 * Adyen's dispute event codes and what each says, as Adyen's dispute notifications document them:
 * NOTIFICATION_OF_CHARGEBACK announces a chargeback (nothing debited yet); CHARGEBACK debits the
 * amount (its stage in `additionalData.disputeStatus`); CHARGEBACK_REVERSED and PREARBITRATION_WON
 * return it (won); PREARBITRATION_LOST keeps it (lost); SECOND_CHARGEBACK debits it again after a
 * reversal (lost).
 */
const EVENT_CODES: Readonly<
  Record<string, { status: DisputeStatus | 'by_dispute_status'; withdrawn: boolean }>
> = {
  NOTIFICATION_OF_CHARGEBACK: { status: 'NEEDS_RESPONSE', withdrawn: false },
  CHARGEBACK: { status: 'by_dispute_status', withdrawn: true },
  CHARGEBACK_REVERSED: { status: 'WON', withdrawn: true },
  PREARBITRATION_WON: { status: 'WON', withdrawn: true },
  PREARBITRATION_LOST: { status: 'LOST', withdrawn: true },
  SECOND_CHARGEBACK: { status: 'LOST', withdrawn: true },
};

/** `additionalData.disputeStatus` (Adyen's stage of a CHARGEBACK) in Paygate's words. */
function statusOfStage(stage: string | null): DisputeStatus {
  switch (stage) {
    case 'Responded':
      return 'UNDER_REVIEW';
    case 'Accepted':
    case 'Expired':
    case 'Lost':
      return 'LOST';
    case 'Won':
      return 'WON';
    default:
      // Unresponded, Undefended, Pending, or none (not returned for payments in Brazil).
      return 'NEEDS_RESPONSE';
  }
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
  const status =
    meaning.status === 'by_dispute_status'
      ? statusOfStage(stringOf(additional.disputeStatus))
      : meaning.status;
  const dueBy = stringOf(additional.defensePeriodEndsAt);
  const dueDate = dueBy ? new Date(dueBy) : null;
  const report: DisputeReport = {
    status,
    fundsWithdrawn: meaning.withdrawn,
    ...(eventCode === 'SECOND_CHARGEBACK' ? { chargedBackAgain: true } : {}),
    reason: REASON_CODES[stringOf(additional.chargebackReasonCode) ?? ''] ?? 'general',
    evidenceDueBy: dueDate && !Number.isNaN(dueDate.getTime()) ? dueDate : null,
  };
  // Adyen sends CHARGEBACK again when the dispute's stage changes (Undefended, then Lost): the
  // stage is part of what makes a notification new; a redelivery repeats it exactly.
  const stage = stringOf(additional.disputeStatus);
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
