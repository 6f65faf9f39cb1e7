import { currencyExponent } from '../../domain/money.ts';

// PayPal's amounts are decimal strings (`{currency_code, value: "10.05"}`, Orders v2 and
// Payments v2), and PayPal takes no decimals at all for some currencies whose ISO 4217 exponent is
// 2: HUF and TWD ("This currency does not support decimals", PayPal's currency codes reference),
// besides JPY, which has none in ISO either. Paygate keeps ISO minor units, so an amount in those
// two is sent in whole units, and one that is not whole (HUF 1,500.50) cannot be sent: it is
// refused before any call. The conversion is exact: integer and string arithmetic, never a float.

/** The currencies PayPal's REST APIs take (PayPal's currency codes reference). */
export const PAYPAL_CURRENCIES: ReadonlySet<string> = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'SEK',
  'SGD',
  'THB',
  'TWD',
  'USD',
]);

/** Currencies PayPal takes in whole units only, though ISO 4217 gives them decimals. */
const WHOLE_UNITS_ONLY: ReadonlySet<string> = new Set(['HUF', 'TWD']);

function isoExponent(currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === null || !PAYPAL_CURRENCIES.has(currency)) {
    throw new RangeError(`the paypal gateway does not take ${currency}`);
  }
  return exponent;
}

/** How many decimals PayPal's `value` has for `currency`. */
export function paypalDecimals(currency: string): number {
  return WHOLE_UNITS_ONLY.has(currency) ? 0 : isoExponent(currency);
}

/**
 * Why PayPal cannot take `amountMinor` of `currency` (a sentence naming the rule), or null when
 * it can: an unsupported currency, or an amount with decimals PayPal refuses (HUF, TWD).
 */
export function paypalAmountProblem(amountMinor: number, currency: string): string | null {
  if (!PAYPAL_CURRENCIES.has(currency) || currencyExponent(currency) === null) {
    return `the paypal gateway does not take ${currency}`;
  }
  const cut = isoExponent(currency) - paypalDecimals(currency);
  if (amountMinor % 10 ** cut !== 0) {
    return `PayPal takes ${currency} in whole units only: amount_minor must be a multiple of ${10 ** cut}`;
  }
  return null;
}

/** Paygate's ISO minor units as PayPal's `value` (EUR 1005 → "10.05", HUF 150000 → "1500", JPY 500 → "500"). */
export function toPayPalValue(amountMinor: number, currency: string): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0)
    throw new RangeError(`not an amount: ${amountMinor}`);
  const problem = paypalAmountProblem(amountMinor, currency);
  if (problem) throw new RangeError(problem);
  const iso = isoExponent(currency);
  const digits = String(amountMinor).padStart(iso + 1, '0');
  const units = digits.slice(0, digits.length - iso);
  const fraction = digits.slice(digits.length - iso, digits.length - iso + paypalDecimals(currency));
  return fraction.length > 0 ? `${units}.${fraction}` : units;
}

/**
 * PayPal's `value` as ISO minor units; null when it is not a plain non-negative decimal, has more
 * decimals than the currency (other than zeros), or does not fit an amount.
 */
export function fromPayPalValue(value: string, currency: string): number | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match || !PAYPAL_CURRENCIES.has(currency) || currencyExponent(currency) === null) return null;
  const iso = isoExponent(currency);
  const units = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (/[^0]/.test(fraction.slice(iso))) return null;
  const minor = BigInt(units) * 10n ** BigInt(iso) + BigInt(fraction.slice(0, iso).padEnd(iso, '0') || '0');
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}
