import { currencyExponent } from '../../domain/money.ts';
import type { GatewayAmount } from '../connector.ts';

/**
 * Adyen counts some currencies in other minor units than ISO 4217, which Paygate uses
 * (docs.adyen.com/development-resources/currency-codes): CLP and ISK with 2 decimals (ISO: 0).
 * Every other currency this connector takes has the ISO exponent there too.
 */
const ADYEN_EXPONENT_OVERRIDES: Readonly<Record<string, number>> = { CLP: 2, ISK: 2 };

/** The currencies this connector offers; others are refused before any call. */
export const ADYEN_CURRENCIES: ReadonlySet<string> = new Set([
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'SEK',
  'JPY',
  'KRW',
  'KWD',
  'BHD',
  'CLP',
  'ISK',
]);

function isoExponent(currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === null || !ADYEN_CURRENCIES.has(currency)) {
    throw new RangeError(`the adyen gateway does not take ${currency}`);
  }
  return exponent;
}

export function adyenExponent(currency: string): number {
  return ADYEN_EXPONENT_OVERRIDES[currency] ?? isoExponent(currency);
}

/** Paygate's ISO minor units as Adyen's `amount.value` (CLP 5000 → 500000). */
export function toAdyenValue(amountMinor: number, currency: string): number {
  const shift = adyenExponent(currency) - isoExponent(currency);
  return amountMinor * 10 ** shift;
}

/** Adyen's `amount.value` as ISO minor units; null when it is not a whole ISO amount. */
export function fromAdyenValue(value: number, currency: string): number | null {
  const shift = adyenExponent(currency) - isoExponent(currency);
  const divisor = 10 ** shift;
  return Number.isSafeInteger(value) && value % divisor === 0 ? value / divisor : null;
}

/** The smallest charge, in ISO minor units: one main unit's worth for zero-decimal currencies. */
export function adyenMinimumAmountMinor(currency: string): number {
  const exponent = isoExponent(currency);
  if (exponent === 0) return currency === 'KRW' ? 100 : 1;
  if (exponent === 3) return 100;
  return 1;
}

/**
 * An Adyen `Amount` object (`{value, currency}`, in a notification item or a `/payments` answer) in
 * ISO minor units; undefined when there is none. A currency the connector does not know, or a value
 * that is no whole ISO amount, is kept as sent: it cannot equal an intent's amount, so it reads as a
 * difference, never as the intent's amount.
 */
export function adyenAmountOf(amount: unknown): GatewayAmount | undefined {
  if (typeof amount !== 'object' || amount === null) return undefined;
  const { value, currency } = amount as { value?: unknown; currency?: unknown };
  if (typeof value !== 'number' || typeof currency !== 'string') return undefined;
  const iso = currency.toUpperCase();
  let amountMinor: number | null = null;
  try {
    amountMinor = fromAdyenValue(value, iso);
  } catch {
    amountMinor = null;
  }
  return { amountMinor: amountMinor ?? Number.NaN, currency: iso };
}
