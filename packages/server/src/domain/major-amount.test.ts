import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ValidationError } from './errors.ts';
import { majorTextOfMinor, minorFromMajorText } from './major-amount.ts';

function refusal(text: string, currency: string): string {
  try {
    minorFromMajorText(text, currency, 'amount');
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    return error.message;
  }
  assert.fail(`'${text}' ${currency} was accepted`);
}

describe('amounts typed in major units', () => {
  it('converts by the currency exponent, exactly', () => {
    assert.equal(minorFromMajorText('42', 'USD', 'amount'), 4200);
    assert.equal(minorFromMajorText('10.5', 'USD', 'amount'), 1050);
    assert.equal(minorFromMajorText('10,50', 'EUR', 'amount'), 1050);
    assert.equal(minorFromMajorText(' 0.01 ', 'USD', 'amount'), 1);
    assert.equal(minorFromMajorText('500', 'JPY', 'amount'), 500);
    assert.equal(minorFromMajorText('1.234', 'KWD', 'amount'), 1234);
    assert.equal(minorFromMajorText('0.1', 'KWD', 'amount'), 100);
    assert.equal(minorFromMajorText('0', 'USD', 'amount'), 0);
    assert.equal(minorFromMajorText('19.99', 'usd', 'amount'), 1999);
    // 0.29 * 100 is 28.999999999999996 in floating point; the digits are 29.
    assert.equal(minorFromMajorText('0.29', 'USD', 'amount'), 29);
    assert.equal(minorFromMajorText('9999999999.99', 'USD', 'amount'), 999_999_999_999);
  });

  it('refuses too many decimals, naming the field and the currency', () => {
    assert.equal(refusal('10.005', 'USD'), "amount: USD has 2 decimals; '10.005' has 3");
    assert.equal(refusal('500.5', 'JPY'), 'amount: JPY has no decimals; type a whole amount');
    assert.equal(refusal('1.2345', 'KWD'), "amount: KWD has 3 decimals; '1.2345' has 4");
  });

  it('refuses empty, negative, non-numeric, grouped and oversized text', () => {
    assert.match(refusal('', 'USD'), /^amount: is empty/);
    assert.match(refusal('   ', 'USD'), /^amount: is empty/);
    assert.match(refusal('-5', 'USD'), /^amount: must not be negative/);
    for (const bad of ['ten', '1e3', '0x10', '1,234.56', '$5', '5 USD', '.5', 'NaN', 'Infinity', '1.2.3'])
      assert.match(refusal(bad, 'USD'), /^amount: '.*' is not an amount/, bad);
    assert.match(refusal('10000000000', 'USD'), /^amount: is larger than/);
    assert.match(refusal('1', 'XYZ'), /^amount: 'XYZ' is not an ISO 4217 currency/);
  });

  it('reads back what majorTextOfMinor writes, for every amount and exponent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999_999 }),
        fc.constantFrom('USD', 'JPY', 'KWD', 'EUR', 'CLP'),
        (amountMinor, currency) =>
          minorFromMajorText(majorTextOfMinor(amountMinor, currency), currency, 'a') === amountMinor,
      ),
    );
    assert.equal(majorTextOfMinor(5, 'USD'), '0.05');
    assert.equal(majorTextOfMinor(1234, 'KWD'), '1.234');
    assert.equal(majorTextOfMinor(500, 'JPY'), '500');
  });
});
