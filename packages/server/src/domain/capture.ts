// Authorise now, capture later (contract v1, second round): what a manual intent's capture may
// take, and what an intent counts as captured. Pure: the caller holds the intent's row lock.
import { AmountRuleError, AppError, InvalidStateTransitionError } from './errors.ts';
import type { PaymentIntentStatus } from './payment-intent.ts';

export type CaptureMethod = 'automatic' | 'manual';

interface Capturable {
  status: PaymentIntentStatus;
  captureMethod: CaptureMethod;
  amountMinor: number;
  /** What a manual intent's capture took (null until it captured). */
  amountCapturedMinor: number | null;
}

/** What a capture may take now: the authorised amount of a REQUIRES_CAPTURE intent, else nothing. */
export function capturableAmount(intent: Pick<Capturable, 'status' | 'amountMinor'>): number {
  return intent.status === 'REQUIRES_CAPTURE' ? intent.amountMinor : 0;
}

/**
 * What the gateway captured of the intent: a SUCCEEDED automatic intent's whole amount, a manual
 * one's capture (all or part of the authorisation; the rest was released). Refunds take at most this.
 */
export function capturedAmount(intent: Capturable): number {
  if (intent.status !== 'SUCCEEDED') return 0;
  // A manual intent SUCCEEDED without a capture of ours was captured whole by its gateway.
  return intent.captureMethod === 'manual'
    ? (intent.amountCapturedMinor ?? intent.amountMinor)
    : intent.amountMinor;
}

/**
 * The amount a capture request takes, or the refusal that says why none: only a manual intent is
 * captured, only while REQUIRES_CAPTURE and before its authorisation lapses, and at most what is
 * capturable (omitted: all of it). Nothing is sent to the gateway when this throws.
 */
export function captureAmountFor(
  intent: Capturable & { captureBefore: Date | null },
  requestedMinor: number | undefined,
  now: Date,
): number {
  if (intent.captureMethod !== 'manual') {
    throw new AppError(
      'invalid_state_transition',
      'This payment intent was created with capture_method automatic: it was captured when it was authorised. Only a manual intent is captured by /capture.',
    );
  }
  if (intent.status !== 'REQUIRES_CAPTURE') throw new InvalidStateTransitionError(intent.status, 'capture');
  if (intent.captureBefore && intent.captureBefore.getTime() <= now.getTime()) {
    throw new AppError(
      'invalid_state_transition',
      `The authorisation of this payment intent lapsed at ${intent.captureBefore.toISOString()} (capture_before): it can no longer be captured.`,
    );
  }
  const capturable = capturableAmount(intent);
  const amount = requestedMinor ?? capturable;
  if (amount > capturable) {
    throw new AmountRuleError(
      'amount_exceeds_capturable',
      `At most ${capturable} minor units can be captured on this payment intent (amount_capturable_minor).`,
      { errors: [{ field: 'amount_minor', message: `must be at most ${capturable}` }] },
    );
  }
  return amount;
}
