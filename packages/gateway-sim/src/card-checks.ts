/**
 * The hosted fields' own checks, as the browser runs them. They are plain JavaScript in a string
 * because the page's script is inline (nonce'd, no bundler); `card-checks.test.ts` evaluates the
 * same string, so what is tested is exactly what the payer's browser runs.
 *
 * Each check answers an error key (looked up in the page's texts) or null when the value is fine.
 */
export const CARD_CHECKS_SOURCE = String.raw`
const cardBrands = [
  { id: 'amex', name: 'American Express', pattern: /^3[47]/, lengths: [15], cvcLength: 4 },
  { id: 'visa', name: 'Visa', pattern: /^4/, lengths: [13, 16, 19], cvcLength: 3 },
  { id: 'mastercard', name: 'Mastercard', pattern: /^(5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/, lengths: [16], cvcLength: 3 },
  { id: 'discover', name: 'Discover', pattern: /^(6011|65|64[4-9])/, lengths: [16, 19], cvcLength: 3 },
  { id: 'diners', name: 'Diners Club', pattern: /^3(0[0-5]|[689])/, lengths: [14, 16, 19], cvcLength: 3 },
  { id: 'jcb', name: 'JCB', pattern: /^35(2[89]|[3-8])/, lengths: [16, 19], cvcLength: 3 },
];

function cardDigits(value) {
  return String(value).replace(/[\s-]/g, '');
}

/** The brand a (partial) number belongs to, or null while it cannot tell. */
function cardBrand(value) {
  const digits = cardDigits(value);
  if (!/^\d+$/.test(digits)) return null;
  return cardBrands.find((brand) => brand.pattern.test(digits)) || null;
}

function luhnValid(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function checkCardNumber(value) {
  const digits = cardDigits(value);
  if (digits === '') return 'numberRequired';
  if (!/^\d+$/.test(digits)) return 'numberInvalid';
  const brand = cardBrand(digits);
  const lengths = brand ? brand.lengths : [12, 13, 14, 15, 16, 17, 18, 19];
  if (digits.length < Math.min(...lengths)) return 'numberIncomplete';
  if (!lengths.includes(digits.length) || !luhnValid(digits)) return 'numberInvalid';
  return null;
}

/** "MM/YY", "MM / YY" or "MM/YYYY"; the card is good to the end of its month. */
function checkExpiry(value, now) {
  const text = String(value).trim();
  if (text === '') return 'expiryRequired';
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(text);
  if (!match) return 'expiryInvalid';
  const month = Number(match[1]);
  if (month < 1 || month > 12) return 'expiryInvalid';
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expires = year * 12 + (month - 1);
  if (expires < current) return 'expiryPast';
  if (expires > current + 20 * 12) return 'expiryInvalid';
  return null;
}

/** Three digits, four for American Express. */
function checkCvc(value, cardNumber) {
  const text = String(value).trim();
  if (text === '') return 'cvcRequired';
  const brand = cardBrand(cardNumber);
  const length = brand ? brand.cvcLength : 3;
  if (!/^\d+$/.test(text) || text.length !== length) return length === 4 ? 'cvcLength4' : 'cvcLength3';
  return null;
}

function checkName(value) {
  return String(value).trim() === '' ? 'nameRequired' : null;
}

/** Groups of four, or 4-6-5 for American Express, as the payer types. */
function formatCardNumber(value) {
  const digits = cardDigits(value).replace(/\D/g, '').slice(0, 19);
  const brand = cardBrand(digits);
  const groups = brand && brand.id === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}
`;

/** The checks' names, for the evaluating test and the page's script. */
export const CARD_CHECK_NAMES = [
  'cardBrand',
  'checkCardNumber',
  'checkExpiry',
  'checkCvc',
  'checkName',
  'formatCardNumber',
] as const;
