import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from './errors.ts';
import { refundAmountFor, reversalOf, settlementOf } from './refund.ts';

const succeeded = { status: 'SUCCEEDED' as const, amountMinor: 2500 };

describe('refund rules', () => {
  it('refunds what remains when no amount is given, and a partial amount when one is', () => {
    assert.equal(refundAmountFor(succeeded, 0, undefined), 2500);
    assert.equal(refundAmountFor(succeeded, 1000, undefined), 1500);
    assert.equal(refundAmountFor(succeeded, 1000, 1500), 1500);
  });

  it('refuses more than remains (pending refunds count) with amount_exceeds_refundable', () => {
    for (const [committed, requested] of [
      [1000, 1501],
      [2500, undefined],
      [2500, 1],
    ] as const) {
      assert.throws(
        () => refundAmountFor(succeeded, committed, requested),
        (e: unknown) => e instanceof AppError && e.code === 'amount_exceeds_refundable',
      );
    }
  });

  it('refuses an intent that is not SUCCEEDED with invalid_state_transition', () => {
    for (const status of [
      'CREATED',
      'REQUIRES_ACTION',
      'PROCESSING',
      'FAILED',
      'CANCELED',
      'EXPIRED',
    ] as const) {
      assert.throws(
        () => refundAmountFor({ status, amountMinor: 2500 }, 0, 100),
        (e: unknown) => e instanceof AppError && e.code === 'invalid_state_transition',
      );
    }
  });

  it('never lets a sequence of refunds exceed the captured amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }), { maxLength: 30 }),
        (captured, requests) => {
          let committed = 0;
          for (const requested of requests) {
            try {
              committed += refundAmountFor(
                { status: 'SUCCEEDED', amountMinor: captured },
                committed,
                requested,
              );
            } catch (error) {
              if (!(error instanceof AppError) || error.code !== 'amount_exceeds_refundable') throw error;
            }
            assert.ok(committed <= captured);
          }
        },
      ),
    );
  });

  it('maps gateway results to statuses, events and transaction statuses', () => {
    assert.deepEqual(settlementOf('succeeded'), {
      status: 'SUCCEEDED',
      event: 'refund.succeeded',
      transactionStatus: 'APPROVED',
    });
    assert.deepEqual(settlementOf('failed'), {
      status: 'FAILED',
      event: 'refund.failed',
      transactionStatus: 'DECLINED',
    });
  });

  it('reverses only a SUCCEEDED refund: FAILED, refund.failed, DECLINED, the refunded amount restored', () => {
    assert.deepEqual(reversalOf('SUCCEEDED'), {
      status: 'FAILED',
      event: 'refund.failed',
      transactionStatus: 'DECLINED',
      restoresRefundedAmount: true,
    });
    assert.throws(() => reversalOf('PENDING'), /only a SUCCEEDED one/);
    assert.throws(() => reversalOf('FAILED'), /only a SUCCEEDED one/);
  });
});
