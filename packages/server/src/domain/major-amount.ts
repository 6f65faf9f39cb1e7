import { ValidationError } from './errors.ts';
import { AMOUNT_MINOR_MAX, currencyExponent } from './money.ts';

const DECIMAL = /^(\d+)(?:[.,](\d*))?$/;

/**
 * An amount a person typed in major units ("10.50", "10,50", "500") as an integer of minor units
 * of `currency`, read digit by digit so that no float ever holds it: "0.1" + "0.2" never happens
 * here. One decimal mark, a point or a comma (Spanish writes a comma), and no grouping, so that
 * "1,234" is never read as a thousand and something in one language and one point something in
 * the other. Empty, negative, non-numeric text, more decimals than the currency has, or more than
 * the contract's maximum are a `validation_error` naming `field`.
 */
export function minorFromMajorText(text: string, currency: string, field: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === null) throw new ValidationError(field, `'${currency}' is not an ISO 4217 currency`);
  const typed = text.trim();
  if (typed === '') throw new ValidationError(field, 'is empty; type an amount such as 10.50');
  if (/^[-−]/.test(typed)) throw new ValidationError(field, 'must not be negative');
  const parts = DECIMAL.exec(typed);
  if (!parts) throw new ValidationError(field, `'${typed}' is not an amount; type digits such as 10.50`);
  const whole = parts[1] as string;
  const fraction = parts[2] ?? '';
  if (fraction.length > exponent) {
    throw new ValidationError(
      field,
      exponent === 0
        ? `${currency} has no decimals; type a whole amount`
        : `${currency} has ${exponent} decimals; '${typed}' has ${fraction.length}`,
    );
  }
  const digits = `${whole}${fraction.padEnd(exponent, '0')}`.replace(/^0+(?=\d)/, '');
  if (digits.length > String(AMOUNT_MINOR_MAX).length || Number(digits) > AMOUNT_MINOR_MAX) {
    throw new ValidationError(field, 'is larger than the largest amount a payment may have');
  }
  return Number(digits);
}

/** Minor units as the plain decimal text of the major amount ("1050" USD is "10.50"), no float. */
export function majorTextOfMinor(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  const sign = amountMinor < 0 ? '-' : '';
  const digits = String(Math.abs(amountMinor));
  if (exponent === 0) return `${sign}${digits}`;
  const padded = digits.padStart(exponent + 1, '0');
  return `${sign}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}
