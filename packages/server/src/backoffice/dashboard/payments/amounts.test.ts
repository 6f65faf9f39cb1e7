import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PaymentIntent } from '@paygate/contract';
import { authorizationAmounts, captureDueSoon, paidAmount, refundableAmount } from './amounts.ts';

const intent = (overrides: Partial<PaymentIntent>): PaymentIntent =>
  ({
    id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
    object: 'payment_intent',
    amount_minor: 10_000,
    amount_refunded_minor: 0,
    currency: 'EUR',
    status: 'SUCCEEDED',
    capture_method: 'automatic',
    amount_capturable_minor: 0,
    amount_captured_minor: 10_000,
    capture_before: null,
    cancellation_reason: null,
    ...overrides,
  }) as PaymentIntent;

describe('the payment pages’ amounts', () => {
  it('refunds at most what was taken: all of an automatic payment, what a capture took of a manual one', () => {
    assert.equal(refundableAmount(intent({ amount_refunded_minor: 2_500 })), 7_500);
    const partial = intent({
      capture_method: 'manual',
      amount_captured_minor: 5_000,
      amount_refunded_minor: 1_000,
    });
    assert.equal(paidAmount(partial), 5_000);
    assert.equal(refundableAmount(partial), 4_000);
    assert.equal(refundableAmount(intent({ status: 'REQUIRES_CAPTURE', amount_captured_minor: 0 })), 0);
  });

  it('shows what became of an authorisation: held, captured in part, voided or lapsed; nothing for an automatic one', () => {
    assert.equal(authorizationAmounts(intent({})), null);
    const manual = { capture_method: 'manual' as const };
    assert.deepEqual(
      authorizationAmounts(intent({ ...manual, status: 'REQUIRES_CAPTURE', amount_captured_minor: 0 })),
      { authorised: 10_000, captured: 0, released: 0 },
    );
    assert.deepEqual(authorizationAmounts(intent({ ...manual, amount_captured_minor: 3_000 })), {
      authorised: 10_000,
      captured: 3_000,
      released: 7_000,
    });
    for (const reason of ['requested', 'authorization_expired'] as const) {
      assert.deepEqual(
        authorizationAmounts(
          intent({ ...manual, status: 'CANCELED', cancellation_reason: reason, amount_captured_minor: 0 }),
        ),
        { authorised: 10_000, captured: 0, released: 10_000 },
      );
    }
    assert.equal(
      authorizationAmounts(
        intent({ ...manual, status: 'CANCELED', cancellation_reason: 'abandoned', amount_captured_minor: 0 }),
      ),
      null,
      'canceled before it was ever authorised',
    );
  });

  it('flags a deadline within the next 24 hours of the page’s clock', () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const waiting = (at: string) => intent({ status: 'REQUIRES_CAPTURE', capture_before: at });
    assert.equal(captureDueSoon(waiting('2026-11-30T11:59:59Z'), now), true);
    assert.equal(captureDueSoon(waiting('2026-11-30T12:00:01Z'), now), false);
    assert.equal(captureDueSoon(waiting('2026-11-30T11:00:00Z'), undefined), false);
    assert.equal(captureDueSoon(intent({ capture_before: '2026-11-29T13:00:00Z' }), now), false);
  });
});
