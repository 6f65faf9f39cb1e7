import { type CaptureMethod, capturedAmount } from './capture.ts';
import { AmountRuleError, InvalidStateTransitionError } from './errors.ts';
import type { EventType } from './events.ts';
import type { PaymentIntentStatus } from './payment-intent.ts';

export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/**
 * How much a refund request takes: the amount asked for, or, when none is given, all that remains.
 * Only a SUCCEEDED intent can be refunded; pending refunds count against what remains, so that two
 * refunds in flight can never together exceed the captured amount. Pure: the caller holds the
 * intent's row lock while the totals it passes stay true.
 */
export function refundAmountFor(
  intent: {
    status: PaymentIntentStatus;
    amountMinor: number;
    captureMethod?: CaptureMethod;
    amountCapturedMinor?: number | null;
  },
  committedRefundsMinor: number,
  requestedMinor: number | undefined,
): number {
  if (intent.status !== 'SUCCEEDED') throw new InvalidStateTransitionError(intent.status, 'refund');
  // A manual intent's capture may have taken part of its amount: refunds take at most that.
  const captured = capturedAmount({
    status: intent.status,
    amountMinor: intent.amountMinor,
    captureMethod: intent.captureMethod ?? 'automatic',
    amountCapturedMinor: intent.amountCapturedMinor ?? null,
  });
  const remaining = Math.max(0, captured - committedRefundsMinor);
  const amount = requestedMinor ?? remaining;
  if (amount < 1 || amount > remaining) {
    throw new AmountRuleError(
      'amount_exceeds_refundable',
      remaining === 0
        ? 'Nothing remains refundable on this payment intent (pending refunds count).'
        : `At most ${remaining} minor units remain refundable on this payment intent (pending refunds count).`,
      { errors: [{ field: 'amount_minor', message: `must be at most ${remaining}` }] },
    );
  }
  return amount;
}

export interface RefundSettlementStep {
  status: Exclude<RefundStatus, 'PENDING'>;
  event: Extract<EventType, 'refund.succeeded' | 'refund.failed'>;
  transactionStatus: 'APPROVED' | 'DECLINED';
}

/**
 * The refund state machine: PENDING --gateway succeeded--> SUCCEEDED (refund.succeeded, REFUND
 * transaction APPROVED), PENDING --gateway failed--> FAILED (refund.failed, DECLINED). Settled
 * refunds never change again; the caller settles only a PENDING one.
 */
export function settlementOf(result: 'succeeded' | 'failed'): RefundSettlementStep {
  switch (result) {
    case 'succeeded':
      return { status: 'SUCCEEDED', event: 'refund.succeeded', transactionStatus: 'APPROVED' };
    case 'failed':
      return { status: 'FAILED', event: 'refund.failed', transactionStatus: 'DECLINED' };
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

export interface RefundReversalStep {
  status: 'FAILED';
  event: 'refund.failed';
  transactionStatus: 'DECLINED';
  /** The intent's amount_refunded_minor shrinks by the refund's amount again. */
  restoresRefundedAmount: true;
}

/**
 * The one transition out of a settled refund: SUCCEEDED --the gateway reports the refund failed or
 * reversed after accepting it (Adyen's REFUND_FAILED, REFUNDED_REVERSED)--> FAILED, with
 * refund.failed, the REFUND transaction DECLINED and the refunded amount restored: the gateway's
 * final word wins where money moved. A FAILED refund never changes again; a PENDING one settles
 * by `settlementOf`.
 */
export function reversalOf(status: RefundStatus): RefundReversalStep {
  if (status !== 'SUCCEEDED') throw new Error(`a ${status} refund cannot be reversed; only a SUCCEEDED one`);
  return {
    status: 'FAILED',
    event: 'refund.failed',
    transactionStatus: 'DECLINED',
    restoresRefundedAmount: true,
  };
}
