import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripeDisputeNotification } from './disputes.ts';

const dispute = (extra: Record<string, unknown> = {}) => ({
  id: 'dp_1',
  object: 'dispute',
  amount: 1999,
  currency: 'eur',
  payment_intent: 'pi_stripe_1',
  charge: 'ch_1',
  reason: 'fraudulent',
  status: 'needs_response',
  balance_transactions: [{ id: 'txn_1', amount: -1999 }],
  evidence_details: { due_by: 1_800_000_000 },
  ...extra,
});

describe('Stripe dispute events', () => {
  it('reads a Dispute: the payment by its PaymentIntent id, the amount in minor units, the due date', () => {
    const n = stripeDisputeNotification('evt_1', 'charge.dispute.created', dispute());
    assert.equal(n.subject, 'dispute');
    if (n.subject !== 'dispute') return;
    assert.equal(n.notificationId, 'evt_1');
    assert.equal(n.idempotencyKey, null);
    assert.equal(n.outcome.chargeReference, 'pi_stripe_1');
    assert.equal(n.outcome.disputeReference, 'dp_1');
    assert.deepEqual(n.outcome.amount, { amountMinor: 1999, currency: 'EUR' });
    assert.deepEqual(n.outcome.report, {
      status: 'NEEDS_RESPONSE',
      fundsWithdrawn: true,
      reason: 'fraudulent',
      evidenceDueBy: new Date(1_800_000_000_000),
    });
  });

  it('maps every status; an inquiry withdrew nothing; unknown reasons read general', () => {
    const cases: Array<[string, string, boolean]> = [
      ['warning_needs_response', 'NEEDS_RESPONSE', false],
      ['warning_under_review', 'UNDER_REVIEW', false],
      ['warning_closed', 'WON', false],
      ['under_review', 'UNDER_REVIEW', true],
      ['won', 'WON', true],
      ['lost', 'LOST', true],
      ['charge_refunded', 'LOST', false],
    ];
    for (const [status, ours, withdrawn] of cases) {
      const n = stripeDisputeNotification(
        'evt_2',
        'charge.dispute.updated',
        dispute({ status, balance_transactions: [], reason: 'bank_cannot_process' }),
      );
      if (n.subject !== 'dispute') throw new Error('not a dispute');
      assert.equal(n.outcome.report.status, ours, status);
      assert.equal(n.outcome.report.fundsWithdrawn, withdrawn, status);
      assert.equal(n.outcome.report.reason, 'general');
    }
  });

  it('refuses a Dispute it cannot read, so Stripe sends the event again', () => {
    assert.throws(() =>
      stripeDisputeNotification('evt_3', 'charge.dispute.created', dispute({ status: 'odd' })),
    );
    assert.throws(() =>
      stripeDisputeNotification('evt_3', 'charge.dispute.created', dispute({ amount: '1999' })),
    );
  });
});
