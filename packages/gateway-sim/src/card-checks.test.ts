import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { CARD_CHECK_NAMES, CARD_CHECKS_SOURCE } from './card-checks.ts';

type Checks = {
  cardBrand(value: string): { id: string; cvcLength: number } | null;
  checkCardNumber(value: string): string | null;
  checkExpiry(value: string, now: Date): string | null;
  checkCvc(value: string, cardNumber: string): string | null;
  checkName(value: string): string | null;
  formatCardNumber(value: string): string;
};

// The very source the hosted fields page inlines, evaluated as the browser would.
const checks = runInNewContext(`${CARD_CHECKS_SOURCE}\n({ ${CARD_CHECK_NAMES.join(', ')} })`, {
  Date,
}) as Checks;

describe('hosted fields: card checks', () => {
  it('detects the brand from the first digits, as the payer types', () => {
    const cases: Array<[string, string | null]> = [
      ['4', 'visa'],
      ['4242 42', 'visa'],
      ['34', 'amex'],
      ['37', 'amex'],
      ['51', 'mastercard'],
      ['2221', 'mastercard'],
      ['2720', 'mastercard'],
      ['2721', null],
      ['6011', 'discover'],
      ['9', null],
      ['', null],
    ];
    for (const [typed, brand] of cases) assert.equal(checks.cardBrand(typed)?.id ?? null, brand, typed);
  });

  it('requires a complete number that passes the Luhn check', () => {
    assert.equal(checks.checkCardNumber('4242 4242 4242 4242'), null);
    assert.equal(checks.checkCardNumber('4000-0000-0000-0002'), null);
    assert.equal(checks.checkCardNumber('3782 822463 10005'), null);
    assert.equal(checks.checkCardNumber(''), 'numberRequired');
    assert.equal(checks.checkCardNumber('4242 4242'), 'numberIncomplete');
    assert.equal(checks.checkCardNumber('4242 4242 4242 4241'), 'numberInvalid');
    assert.equal(checks.checkCardNumber('4242 4242 4242 424x'), 'numberInvalid');
  });

  it('requires an expiry date in the future (the card is good to the end of its month)', () => {
    const now = new Date('2026-11-22T23:00:00Z');
    assert.equal(checks.checkExpiry('11 / 26', now), null);
    assert.equal(checks.checkExpiry('01/2030', now), null);
    assert.equal(checks.checkExpiry('10 / 26', now), 'expiryPast');
    assert.equal(checks.checkExpiry('', now), 'expiryRequired');
    assert.equal(checks.checkExpiry('13 / 27', now), 'expiryInvalid');
    assert.equal(checks.checkExpiry('1227', now), 'expiryInvalid');
    assert.equal(checks.checkExpiry('12 / 99', now), 'expiryInvalid');
  });

  it('wants a 3-digit code, and 4 digits for American Express', () => {
    assert.equal(checks.checkCvc('123', '4242 4242 4242 4242'), null);
    assert.equal(checks.checkCvc('1234', '4242 4242 4242 4242'), 'cvcLength3');
    assert.equal(checks.checkCvc('1234', '3782 822463 10005'), null);
    assert.equal(checks.checkCvc('123', '3782 822463 10005'), 'cvcLength4');
    assert.equal(checks.checkCvc('', '4242'), 'cvcRequired');
    assert.equal(checks.checkCvc('12a', '4242'), 'cvcLength3');
  });

  it('requires the name on the card', () => {
    assert.equal(checks.checkName('  '), 'nameRequired');
    assert.equal(checks.checkName('Ada Lovelace'), null);
  });

  it('groups the number as printed on the card', () => {
    assert.equal(checks.formatCardNumber('4242424242424242'), '4242 4242 4242 4242');
    assert.equal(checks.formatCardNumber('378282246310005'), '3782 822463 10005');
    assert.equal(checks.formatCardNumber('4242-42'), '4242 42');
  });
});
