import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { paymentIntentStatuses } from '@paygate/contract';
import fc from 'fast-check';
import { InvalidStateTransitionError } from './errors.ts';
import {
  type ChargeResult,
  canTransition,
  type IntentAction,
  type PaymentIntentStatus,
  terminalStatuses,
  transition,
} from './payment-intent.ts';

/** The allowed transitions of CONTRACT.md, written out independently of the implementation. */
const allowed: Record<PaymentIntentStatus, readonly PaymentIntentStatus[]> = {
  CREATED: ['SUCCEEDED', 'FAILED', 'REQUIRES_ACTION', 'PROCESSING', 'CANCELED', 'EXPIRED'],
  REQUIRES_ACTION: ['PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED'],
  PROCESSING: ['SUCCEEDED', 'FAILED'],
  SUCCEEDED: [],
  FAILED: [],
  CANCELED: [],
  EXPIRED: [],
};

const results: ChargeResult[] = ['succeeded', 'failed', 'requires_action', 'processing'];
const action: fc.Arbitrary<IntentAction> = fc.oneof(
  fc.constantFrom(...results).map((result) => ({ type: 'confirm' as const, result })),
  fc
    .constantFrom('succeeded' as const, 'failed' as const, 'processing' as const)
    .map((result) => ({ type: 'gateway_outcome' as const, result })),
  fc.constant({ type: 'cancel' as const }),
  fc.constant({ type: 'expire' as const }),
);

describe('payment intent state machine', () => {
  it('never leaves the allowed transition table over random operation sequences', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        let status: PaymentIntentStatus = 'CREATED';
        for (const a of actions) {
          if (canTransition(status, a)) {
            const step = transition(status, a);
            assert.ok(allowed[status].includes(step.to), `${status} -> ${step.to} by ${JSON.stringify(a)}`);
            status = step.to;
          } else {
            assert.throws(() => transition(status, a), InvalidStateTransitionError);
          }
        }
        assert.ok(paymentIntentStatuses.includes(status));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps terminal states terminal', () => {
    fc.assert(
      fc.property(fc.constantFrom(...terminalStatuses), action, (status, a) => {
        assert.equal(canTransition(status, a), false);
      }),
    );
  });

  it('emits the event of the status it enters', () => {
    assert.equal(
      transition('CREATED', { type: 'confirm', result: 'succeeded' }).event,
      'payment_intent.succeeded',
    );
    assert.equal(transition('CREATED', { type: 'confirm', result: 'failed' }).event, 'payment_intent.failed');
    assert.equal(
      transition('CREATED', { type: 'confirm', result: 'requires_action' }).event,
      'payment_intent.requires_action',
    );
    assert.equal(transition('CREATED', { type: 'confirm', result: 'processing' }).event, null);
    assert.equal(transition('REQUIRES_ACTION', { type: 'cancel' }).event, 'payment_intent.canceled');
    assert.equal(transition('CREATED', { type: 'expire' }).event, 'payment_intent.expired');
    assert.equal(
      transition('PROCESSING', { type: 'gateway_outcome', result: 'succeeded' }).event,
      'payment_intent.succeeded',
    );
  });

  it('rejects cancel after success, confirm twice and expiry of a processing intent', () => {
    assert.throws(() => transition('SUCCEEDED', { type: 'cancel' }), InvalidStateTransitionError);
    assert.throws(
      () => transition('PROCESSING', { type: 'confirm', result: 'succeeded' }),
      InvalidStateTransitionError,
    );
    assert.throws(() => transition('PROCESSING', { type: 'expire' }), InvalidStateTransitionError);
    assert.throws(
      () => transition('PROCESSING', { type: 'gateway_outcome', result: 'processing' }),
      InvalidStateTransitionError,
    );
  });
});
