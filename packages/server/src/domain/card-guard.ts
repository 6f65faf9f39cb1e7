/**
 * The card-data guard: a request that carries something that looks like a primary account number
 * is refused before anything stores or logs it. A PAN is 13 to 19 digits, optionally grouped with
 * spaces or dashes, passing the Luhn check.
 */
const CANDIDATE = /\d(?:[ -]?\d){12,18}/g;

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export function containsCardNumber(text: string): boolean {
  for (const match of text.matchAll(CANDIDATE)) {
    const candidate = match[0];
    const start = match.index ?? 0;
    // A run of digits longer than 19 is not a card number; only whole runs are judged.
    const before = text[start - 1];
    const after = text[start + candidate.length];
    if ((before && /\d/.test(before)) || (after && /\d/.test(after))) continue;
    const digits = candidate.replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) return true;
  }
  return false;
}

/** Returns the dotted path of the first string in a JSON value that holds a card number. */
export function findCardNumber(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return containsCardNumber(value) ? path || '(body)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findCardNumber(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      if (containsCardNumber(key)) return keyPath;
      const found = findCardNumber(inner, keyPath);
      if (found) return found;
    }
  }
  return null;
}
