import { majorTextOfMinor } from '../../domain/major-amount.ts';
import { currencyExponent } from '../../domain/money.ts';
import type { Language } from '../../i18n/i18n.ts';

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount as a reader of `lang` expects it: `$42.00`, `42,00 €`, `¥500`, `KWD 1.234`. The
 * number handed to Intl is the decimal text of the minor units (Intl reads strings exactly), so
 * no amount passes through a float on its way to the page.
 */
export function formatMoney(amountMinor: number, currency: string, lang: Language): string {
  const code = currency.toUpperCase();
  const exponent = currencyExponent(code);
  if (exponent === null) return `${majorTextOfMinor(amountMinor, code)} ${code}`;
  const key = `${lang}:${code}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    moneyFormats.set(key, format);
  }
  // A numeric string: Intl.NumberFormat v3 (ECMA-402, Node 20) formats it without a float.
  return format.format(majorTextOfMinor(amountMinor, code) as `${number}`);
}

/**
 * "1 hour", "3 hours": the plural form of `n` chosen by `Intl.PluralRules` for the language, so no
 * page says "1 hours". `one` and `other` are the catalogue's two forms, with `{n}`.
 */
export function countOf(lang: Language, n: number, one: string, other: string): string {
  const form = new Intl.PluralRules(lang).select(n) === 'one' ? one : other;
  return form.replace('{n}', new Intl.NumberFormat(lang).format(n));
}
