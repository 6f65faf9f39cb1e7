import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { currencyExponent, describeAmount, isIsoCurrency, isValidAmountMinor } from './money.ts';

describe('money', () => {
  it('reads ISO 4217 exponents from the data package', () => {
    assert.equal(currencyExponent('USD'), 2);
    assert.equal(currencyExponent('clp'), 0);
    assert.equal(currencyExponent('JPY'), 0);
    assert.equal(currencyExponent('KWD'), 3);
    assert.equal(currencyExponent('XYZ'), null);
  });

  it('accepts only ISO codes', () => {
    assert.equal(isIsoCurrency('EUR'), true);
    assert.equal(isIsoCurrency('EURO'), false);
    assert.equal(isIsoCurrency('ZZZ'), false);
  });

  it('accepts only integer amounts from 1 to 999,999,999,999', () => {
    assert.equal(isValidAmountMinor(1), true);
    assert.equal(isValidAmountMinor(999_999_999_999), true);
    for (const bad of [0, -1, 1.5, 1_000_000_000_000, '10', Number.NaN])
      assert.equal(isValidAmountMinor(bad), false);
  });

  it('renders amounts for messages without floating point', () => {
    assert.equal(describeAmount(5, 'USD'), '0.05 USD');
    assert.equal(describeAmount(123456, 'KWD'), '123.456 KWD');
    assert.equal(describeAmount(1500, 'CLP'), '1500 CLP');
  });
});
