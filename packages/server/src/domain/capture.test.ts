import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { capturableAmount, captureAmountFor, capturedAmount } from './capture.ts';
import { AppError } from './errors.ts';

const now = new Date('2026-11-29T12:00:00Z');
const later = new Date('2026-12-06T12:00:00Z');
const authorised = {
  status: 'REQUIRES_CAPTURE' as const,
  captureMethod: 'manual' as const,
  amountMinor: 10_000,
  amountCapturedMinor: null,
  captureBefore: later,
};

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error.code;
  }
  assert.fail('no refusal');
};

describe('capture amounts', () => {
  it('takes all that is capturable when no amount is given, and any part of it when one is', () => {
    assert.equal(captureAmountFor(authorised, undefined, now), 10_000);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (part) => {
        assert.equal(captureAmountFor(authorised, part, now), part);
      }),
    );
  });

  it('refuses more than capturable (422 amount_exceeds_capturable, the field named)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_001, max: 999_999_999_999 }), (asked) => {
        assert.equal(
          refusal(() => captureAmountFor(authorised, asked, now)),
          'amount_exceeds_capturable',
        );
      }),
    );
  });

  it('refuses an automatic intent, an intent not REQUIRES_CAPTURE and a lapsed authorisation (409)', () => {
    assert.equal(
      refusal(() => captureAmountFor({ ...authorised, captureMethod: 'automatic' }, undefined, now)),
      'invalid_state_transition',
    );
    for (const status of ['CREATED', 'SUCCEEDED', 'CANCELED', 'PROCESSING'] as const) {
      assert.equal(
        refusal(() => captureAmountFor({ ...authorised, status }, undefined, now)),
        'invalid_state_transition',
      );
    }
    assert.equal(
      refusal(() => captureAmountFor(authorised, undefined, later)),
      'invalid_state_transition',
    );
  });

  it('counts as captured what was taken: the whole of an automatic intent, the capture of a manual one', () => {
    assert.equal(capturedAmount({ ...authorised, status: 'SUCCEEDED', captureMethod: 'automatic' }), 10_000);
    assert.equal(capturedAmount({ ...authorised, status: 'SUCCEEDED', amountCapturedMinor: 2_500 }), 2_500);
    assert.equal(
      capturedAmount({ ...authorised, status: 'SUCCEEDED' }),
      10_000,
      'captured whole by the gateway',
    );
    assert.equal(capturedAmount(authorised), 0, 'nothing is captured while authorised');
    assert.equal(capturableAmount(authorised), 10_000);
    assert.equal(capturableAmount({ ...authorised, status: 'SUCCEEDED' }), 0);
  });
});
