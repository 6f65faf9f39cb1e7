import currencyCodes from 'currency-codes';

/** Amount bounds of the contract: an integer number of minor units from 1 to 999,999,999,999. */
export const AMOUNT_MINOR_MAX = 999_999_999_999;

/**
 * ISO 4217 exponent (number of minor-unit digits) of a currency, from the maintained
 * `currency-codes` data set; null when the code is not an ISO 4217 currency.
 */
export function currencyExponent(code: string): number | null {
  const entry = currencyCodes.code(code.toUpperCase());
  if (!entry) return null;
  return entry.digits;
}

export function isIsoCurrency(code: string): boolean {
  return /^[A-Za-z]{3}$/.test(code) && currencyExponent(code) !== null;
}

export function isValidAmountMinor(amountMinor: unknown): amountMinor is number {
  return (
    Number.isSafeInteger(amountMinor) &&
    (amountMinor as number) >= 1 &&
    (amountMinor as number) <= AMOUNT_MINOR_MAX
  );
}

/** "12.34 USD"-style rendering for messages only; amounts are never computed in major units. */
export function describeAmount(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  if (exponent === 0) return `${amountMinor} ${currency}`;
  const digits = String(amountMinor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)} ${currency}`;
}
