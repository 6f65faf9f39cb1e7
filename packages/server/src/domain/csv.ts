/**
 * One CSV line (RFC 4180, CRLF) of the given cells. A cell with a comma, quote or line break is
 * quoted with its quotes doubled. A text cell that a spreadsheet would run as a formula (it starts
 * with =, +, -, @, a tab or a carriage return) is prefixed with an apostrophe (OWASP's advice for
 * CSV injection), so exported metadata a payer influenced cannot execute in the merchant's
 * spreadsheet. Numbers are written as they are: they are integers and are never formulas.
 */
export function csvLine(cells: readonly (string | number | boolean | null)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`CSV cells hold integers only, got ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Every row a keyset read finds, as CSV text: the header line, then one chunk per batch of rows,
 * each batch one read after the last row of the batch before, so memory stays flat whatever the
 * number of rows. The caller checks its filters before calling (a bad filter is a 400, not a
 * broken download): the reads start only when the first chunk is asked for.
 */
export async function* keysetCsv<R extends { position: P }, P>(
  columns: readonly string[],
  read: (after: P | undefined, limit: number) => Promise<readonly R[]>,
  line: (row: R) => string,
  batch = 500,
): AsyncGenerator<string> {
  yield csvLine(columns);
  let after: P | undefined;
  for (;;) {
    const rows = await read(after, batch);
    if (rows.length > 0) yield rows.map(line).join('');
    if (rows.length < batch) return;
    after = rows.at(-1)?.position;
  }
}
