import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { containsCardNumber, findCardNumber, passesLuhn } from './card-guard.ts';

/** Appends the Luhn check digit to a digit string. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (passesLuhn(body + d)) return body + d;
  throw new Error('unreachable');
}

describe('card-data guard', () => {
  it('finds well-known test card numbers, bare or grouped', () => {
    for (const pan of ['4242424242424242', '4000 0566 5566 5556', '5555-5555-5555-4444', '378282246310005']) {
      assert.equal(containsCardNumber(`pay with ${pan} please`), true, pan);
    }
  });

  it('finds every Luhn-valid number of 13 to 19 digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 12, max: 18 }), fc.integer({ min: 0, max: 2 ** 31 }), (length, seed) => {
        const body = String(seed).padStart(length, '7').slice(0, length);
        assert.equal(containsCardNumber(`x ${withCheckDigit(body)} y`), true);
      }),
    );
  });

  it('ignores short numbers, Luhn failures and digit runs longer than 19', () => {
    assert.equal(containsCardNumber('order 123456789012'), false);
    assert.equal(containsCardNumber('4242424242424241'), false);
    assert.equal(containsCardNumber('12345678901234567890123'), false);
    assert.equal(containsCardNumber('amount 2500 in USD'), false);
  });

  it('names the path of the field that carries the number', () => {
    assert.equal(findCardNumber({ metadata: { note: '4242424242424242' } }), 'metadata.note');
    assert.equal(findCardNumber({ list: ['a', '4242 4242 4242 4242'] }), 'list.1');
    assert.equal(findCardNumber({ amount_minor: 4242424242424242 }), null);
    assert.equal(findCardNumber(undefined), null);
  });
});
