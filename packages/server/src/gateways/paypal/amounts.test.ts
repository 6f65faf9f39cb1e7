import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fromPayPalValue,
  PAYPAL_CURRENCIES,
  paypalAmountProblem,
  paypalDecimals,
  toPayPalValue,
} from './amounts.ts';

describe("PayPal's amounts: ISO minor units as PayPal's decimal strings, exactly", () => {
  it('writes two-decimal currencies with their decimals, zero-decimal ones without', () => {
    assert.equal(toPayPalValue(1005, 'EUR'), '10.05');
    assert.equal(toPayPalValue(5, 'USD'), '0.05');
    assert.equal(toPayPalValue(100, 'GBP'), '1.00');
    assert.equal(toPayPalValue(0, 'EUR'), '0.00');
    assert.equal(toPayPalValue(500, 'JPY'), '500');
    assert.equal(toPayPalValue(999_999_999_999, 'EUR'), '9999999999.99');
  });

  it('writes HUF and TWD in whole units, as PayPal takes them, and refuses what is not whole', () => {
    assert.equal(paypalDecimals('HUF'), 0);
    assert.equal(paypalDecimals('TWD'), 0);
    assert.equal(toPayPalValue(150_000, 'HUF'), '1500');
    assert.equal(toPayPalValue(3_100, 'TWD'), '31');
    assert.equal(
      paypalAmountProblem(150_050, 'HUF'),
      'PayPal takes HUF in whole units only: amount_minor must be a multiple of 100',
    );
    assert.throws(() => toPayPalValue(150_050, 'HUF'), /whole units only/);
    assert.equal(paypalAmountProblem(150_000, 'HUF'), null);
  });

  it('refuses a currency PayPal does not take, and what is not an amount', () => {
    assert.equal(paypalAmountProblem(1000, 'KWD'), 'the paypal gateway does not take KWD');
    assert.throws(() => toPayPalValue(1000, 'KWD'), /does not take KWD/);
    assert.throws(() => toPayPalValue(10.5, 'EUR'), /not an amount/);
    assert.throws(() => toPayPalValue(-1, 'EUR'), /not an amount/);
  });

  it("reads PayPal's values back into the same minor units, for every currency it takes", () => {
    for (const currency of PAYPAL_CURRENCIES) {
      for (const minor of [0, 100, 1_200, 987_654_300]) {
        assert.equal(
          fromPayPalValue(toPayPalValue(minor, currency), currency),
          minor,
          `${currency} ${minor}`,
        );
      }
    }
    assert.equal(fromPayPalValue('10.05', 'EUR'), 1005);
    assert.equal(fromPayPalValue('10.5', 'EUR'), 1050);
    assert.equal(fromPayPalValue('10', 'EUR'), 1000);
    assert.equal(fromPayPalValue('1500', 'HUF'), 150_000);
    assert.equal(fromPayPalValue('1500.00', 'HUF'), 150_000);
    assert.equal(fromPayPalValue('500.0', 'JPY'), 500);
  });

  it('reads nothing from a value that is not a plain amount of the currency', () => {
    for (const value of ['', '-1.00', '1e3', '10.', '.5', ' 10.00', '10,00', '0x10', '10.001']) {
      assert.equal(fromPayPalValue(value, 'EUR'), null, JSON.stringify(value));
    }
    assert.equal(fromPayPalValue('500.5', 'JPY'), null);
    assert.equal(fromPayPalValue('10.00', 'KWD'), null);
    assert.equal(fromPayPalValue('99999999999999999999', 'EUR'), null);
  });
});
