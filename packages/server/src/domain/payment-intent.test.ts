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

/**
 * The transitions of CONTRACT.md, written out independently of the implementation: for each status
 * and action, the status it leads to, or null where the contract says `invalid_state_transition`.
 */
const byResult: Record<ChargeResult, PaymentIntentStatus> = {
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  requires_action: 'REQUIRES_ACTION',
  processing: 'PROCESSING',
  authorized: 'REQUIRES_CAPTURE',
};
function expectedNext(from: PaymentIntentStatus, a: IntentAction): PaymentIntentStatus | null {
  const open = from === 'CREATED' || from === 'REQUIRES_ACTION';
  if (a.type === 'cancel') return open || from === 'REQUIRES_CAPTURE' ? 'CANCELED' : null;
  if (a.type === 'expire') return open ? 'EXPIRED' : null;
  if (a.type === 'capture') return from === 'REQUIRES_CAPTURE' ? 'SUCCEEDED' : null;
  if (a.type === 'expire_authorization') return from === 'REQUIRES_CAPTURE' ? 'CANCELED' : null;
  if (a.type === 'confirm') return from === 'CREATED' ? byResult[a.result] : null;
  if (from === 'REQUIRES_ACTION') return byResult[a.result];
  if (from === 'PROCESSING' && a.result !== 'processing') return byResult[a.result];
  return null;
}

const results: ChargeResult[] = ['succeeded', 'failed', 'requires_action', 'processing', 'authorized'];
const action: fc.Arbitrary<IntentAction> = fc.oneof(
  fc.constantFrom(...results).map((result) => ({ type: 'confirm' as const, result })),
  fc
    .constantFrom('succeeded' as const, 'failed' as const, 'processing' as const, 'authorized' as const)
    .map((result) => ({ type: 'gateway_outcome' as const, result })),
  fc.constant({ type: 'cancel' as const }),
  fc.constant({ type: 'expire' as const }),
  fc.constant({ type: 'capture' as const }),
  fc.constant({ type: 'expire_authorization' as const }),
);

describe('payment intent state machine', () => {
  it('follows the transition table exactly over random operation sequences', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        let status: PaymentIntentStatus = 'CREATED';
        for (const a of actions) {
          const expected = expectedNext(status, a);
          const what: string = `${status} by ${JSON.stringify(a)}`;
          assert.equal(canTransition(status, a), expected !== null, what);
          if (expected === null) {
            assert.throws(() => transition(status, a), InvalidStateTransitionError, what);
          } else {
            const step = transition(status, a);
            assert.deepEqual([step.from, step.to], [status, expected], what);
            status = step.to;
          }
        }
        assert.ok(paymentIntentStatuses.includes(status));
      }),
      { numRuns: 2000 },
    );
  });

  it('allows every transition of the table from every status (not only refusals)', () => {
    const everyAction: IntentAction[] = [
      ...results.map((result) => ({ type: 'confirm' as const, result })),
      ...(['succeeded', 'failed', 'processing', 'authorized'] as const).map((result) => ({
        type: 'gateway_outcome' as const,
        result,
      })),
      { type: 'cancel' },
      { type: 'expire' },
      { type: 'capture' },
      { type: 'expire_authorization' },
    ];
    const reached = new Set<string>();
    for (const from of paymentIntentStatuses) {
      for (const a of everyAction) {
        const expected = expectedNext(from, a);
        if (expected === null) continue;
        assert.equal(transition(from, a).to, expected, `${from} by ${JSON.stringify(a)}`);
        reached.add(`${from}->${expected}`);
      }
    }
    // The contract's arrows, each one taken at least once above.
    assert.deepEqual([...reached].sort(), [
      'CREATED->CANCELED',
      'CREATED->EXPIRED',
      'CREATED->FAILED',
      'CREATED->PROCESSING',
      'CREATED->REQUIRES_ACTION',
      'CREATED->REQUIRES_CAPTURE',
      'CREATED->SUCCEEDED',
      'PROCESSING->FAILED',
      'PROCESSING->REQUIRES_CAPTURE',
      'PROCESSING->SUCCEEDED',
      'REQUIRES_ACTION->CANCELED',
      'REQUIRES_ACTION->EXPIRED',
      'REQUIRES_ACTION->FAILED',
      'REQUIRES_ACTION->PROCESSING',
      'REQUIRES_ACTION->REQUIRES_CAPTURE',
      'REQUIRES_ACTION->SUCCEEDED',
      'REQUIRES_CAPTURE->CANCELED',
      'REQUIRES_CAPTURE->SUCCEEDED',
    ]);
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
