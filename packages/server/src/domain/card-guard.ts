/**
 * The card-data guard: a request that carries something that looks like a primary account number
 * is refused before anything stores or logs it. A PAN is 13 to 19 digits, optionally grouped,
 * passing the Luhn check.
 *
 * A guard that only knows ASCII digits and single spaces is bypassed by any other spelling of the
 * same number, so each string is judged in every form a reader could turn it back into: as sent,
 * percent-decoded (`%34%32…`, `+` for a space, twice for double encoding), and each of those after
 * Unicode NFKC (full-width and other compatibility digits become ASCII). Groups may be separated by
 * up to MAX_SEPARATOR_RUN characters of any Unicode space, dash or invisible format character
 * (` - `, a no-break space, a tab, a newline, a double space).
 */
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;
const MAX_SEPARATOR_RUN = 3;
/** Card numbers are written in groups of 3 to 6 digits (4-4-4-4, 4-6-5, 4-6-4); shorter groups are other numbers. */
const MIN_GROUP_DIGITS = 3;
/**
 * A UUID (8-4-4-4-12 hex) is an identifier, never a written card number: every reference client
 * sends one as its Idempotency-Key, and its dash-separated digit groups would otherwise look like
 * a grouped number about 3 times in 1,000.
 */
const UUID =
  /(?<![0-9A-Za-z])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9A-Za-z])/g;
const PERCENT_DECODE_ROUNDS = 2;
const SEPARATOR = /[\s\p{Pd}\p{Cf}\u2212\u30fc]/u;
const DIGIT = /[0-9]/;
const NUMERIC_OR_ESCAPE = /[\p{N}%]/gu;
/** Anything but printable ASCII: a form without it is its own NFKC form. */
const NOT_PRINTABLE_ASCII = /[^ -~]/;

/**
 * Whether digits that pass Luhn can be a card number by their issuer prefix (ISO/IEC 7812): no
 * card starts with 0; the only cards starting with 1 (UATP) have 15 digits; the only 13-digit
 * cards (early Visa) start with 4. This keeps timestamps out, which all start with 1 for years
 * (epoch milliseconds have 13 digits, microseconds 16, nanoseconds 19) and otherwise fail one time
 * in ten, as `order-<epoch ms>` idempotency keys did.
 */
function hasCardPrefix(digits: string): boolean {
  const first = digits[0];
  if (first === '0') return false;
  if (first === '1') return digits.length === 15;
  if (digits.length === 13) return first === '4';
  return true;
}

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

/** Decodes every valid `%XX` run (as UTF-8) and `+`, leaving invalid escapes as they are. */
function percentDecoded(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      // Not UTF-8 as a whole: decode byte by byte, so the digits (ASCII) still come out.
      return run.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    }
  });
}

/** Every form of `text` that is judged: as sent, percent-decoded, and each after NFKC. */
function readings(text: string): string[] {
  const forms = new Set<string>([text]);
  let decoded = text;
  for (let round = 0; round < PERCENT_DECODE_ROUNDS && /[%+]/.test(decoded); round++) {
    decoded = percentDecoded(decoded);
    forms.add(decoded);
  }
  // NFKC leaves ASCII as it is: only a form with other characters has another reading.
  for (const form of [...forms]) if (NOT_PRINTABLE_ASCII.test(form)) forms.add(form.normalize('NFKC'));
  return [...forms];
}

/**
 * The digit groups of one run: digits separated by short runs of separators, ended by anything
 * else. `12 34-56x78` gives [["12","34","56"],["78"]].
 */
function groupRuns(text: string): string[][] {
  const runs: string[][] = [];
  let groups: string[] = [];
  let digits = '';
  let gap = 0;
  const endGroup = () => {
    if (digits !== '') groups.push(digits);
    digits = '';
  };
  const endRun = () => {
    endGroup();
    if (groups.length > 0) runs.push(groups);
    groups = [];
  };
  for (const char of text) {
    if (DIGIT.test(char)) {
      if (gap > MAX_SEPARATOR_RUN) endRun();
      else if (gap > 0) endGroup();
      gap = 0;
      digits += char;
    } else if (SEPARATOR.test(char) && (digits !== '' || groups.length > 0)) {
      gap += 1;
    } else {
      endRun();
      gap = 0;
    }
  }
  endRun();
  return runs;
}

/**
 * Whether a run of digit groups holds a card number: one group of 13 to 19 digits, or a window of
 * consecutive groups of at least MIN_GROUP_DIGITS each with 13 to 19 digits in all, that passes
 * Luhn (a PAN followed by an expiry, `4242 … 4242 12 28`, is still found). One unbroken block of
 * more than 19 digits is not a card number (long numeric ids), and neither are short numbers
 * joined by dashes (`order-17-123456789012`).
 */
function runHoldsCardNumber(groups: string[]): boolean {
  for (let start = 0; start < groups.length; start++) {
    let digits = '';
    for (let end = start; end < groups.length; end++) {
      const group = groups[end] as string;
      const single = end === start;
      if (!single && (group.length < MIN_GROUP_DIGITS || digits.length < MIN_GROUP_DIGITS)) break;
      digits += group;
      if (digits.length > MAX_DIGITS) break;
      if (digits.length >= MIN_DIGITS && hasCardPrefix(digits) && passesLuhn(digits)) return true;
    }
  }
  return false;
}

/** Exactly one UUID: what every reference client sends as its Idempotency-Key. */
const WHOLE_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function containsCardNumber(text: string): boolean {
  // Fast path: fewer than 13 numeric characters (any script) and percent signs in all cannot
  // spell a card number in any form.
  if ((text.match(NUMERIC_OR_ESCAPE)?.length ?? 0) < MIN_DIGITS) return false;
  // A lone UUID has one reading (no `%`, `+` or non-ASCII), and that reading is blanked whole.
  if (WHOLE_UUID.test(text)) return false;
  return readings(text).some((reading) => groupRuns(reading.replace(UUID, ' ')).some(runHoldsCardNumber));
}

/**
 * Returns the dotted path of the first string (or object key) in a JSON value that holds a card
 * number. Iterative, so that a hostile nesting depth cannot overflow the stack.
 */
export function findCardNumber(value: unknown, path = ''): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path }];
  while (pending.length > 0) {
    const item = pending.pop() as { value: unknown; path: string };
    const at = (key: string) => (item.path ? `${item.path}.${key}` : key);
    if (typeof item.value === 'string') {
      if (containsCardNumber(item.value)) return item.path || '(body)';
    } else if (Array.isArray(item.value)) {
      for (let i = item.value.length - 1; i >= 0; i--)
        pending.push({ value: item.value[i], path: at(String(i)) });
    } else if (item.value && typeof item.value === 'object') {
      const entries = Object.entries(item.value);
      for (const [key] of entries) if (containsCardNumber(key)) return at(key);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i] as [string, unknown];
        pending.push({ value: inner, path: at(key) });
      }
    }
  }
  return null;
}
