import type { PaymentIntent } from '@paygate/contract';

// The amounts the payment pages show and check, from the intent as the API renders it: pure, so
// the page, its forms and the confirmations agree on them.

/** What was taken from the payer: all of it, or what a manual intent's capture took. */
export const paidAmount = (intent: PaymentIntent) =>
  intent.status === 'SUCCEEDED' ? intent.amount_captured_minor || intent.amount_minor : 0;

/** What a refund may still take: what was paid, less what was refunded (the API's rule). */
export const refundableAmount = (intent: PaymentIntent) =>
  intent.status === 'SUCCEEDED' ? paidAmount(intent) - intent.amount_refunded_minor : 0;

/**
 * What became of a manual intent's authorisation, in amounts: authorised (all of the amount: a
 * gateway that authorises less declines), captured, and released (what the capture left, or all
 * of it when voided or lapsed). Null for an intent that was never authorised apart.
 */
export function authorizationAmounts(
  intent: PaymentIntent,
): { authorised: number; captured: number; released: number } | null {
  if (intent.capture_method !== 'manual') return null;
  const captured = intent.amount_captured_minor;
  if (intent.status === 'REQUIRES_CAPTURE' || (intent.status === 'PROCESSING' && captured === 0)) {
    return { authorised: intent.amount_minor, captured: 0, released: 0 };
  }
  if (intent.status === 'SUCCEEDED') {
    return { authorised: intent.amount_minor, captured, released: intent.amount_minor - captured };
  }
  const voided =
    intent.cancellation_reason === 'requested' || intent.cancellation_reason === 'authorization_expired';
  if (intent.status === 'CANCELED' && voided) {
    return { authorised: intent.amount_minor, captured: 0, released: intent.amount_minor };
  }
  return null;
}

/** True when the deadline falls within the next 24 hours of the page's clock (or has passed). */
export function captureDueSoon(intent: PaymentIntent, now: Date | undefined): boolean {
  if (intent.status !== 'REQUIRES_CAPTURE' || !intent.capture_before || !now) return false;
  return Date.parse(intent.capture_before) - now.getTime() <= 86_400_000;
}
