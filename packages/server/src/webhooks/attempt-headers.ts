/**
 * Headers kept on an attempt record for the back office's attempt detail. A receiver chooses what
 * it answers, so what is kept is bounded: this many headers, each value cut to this many
 * characters, and this many characters in all; the rest is dropped (and said so).
 */
export const KEPT_HEADERS_MAX = 40;
export const KEPT_HEADER_VALUE_CHARS = 512;
export const KEPT_HEADERS_TOTAL_CHARS = 4096;
/** The name under which a record says that headers were dropped. */
export const HEADERS_DROPPED = 'x-paygate-headers-dropped';

export type KeptHeaders = Record<string, string>;

/** A bounded copy of `headers` (names lower-cased, repeated values joined with ", "). */
export function keptHeaders(headers: Record<string, string | string[] | undefined>): KeptHeaders {
  const kept: KeptHeaders = {};
  let total = 0;
  let dropped = 0;
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase().slice(0, 100);
    const value = (Array.isArray(rawValue) ? rawValue.join(', ') : rawValue).slice(
      0,
      KEPT_HEADER_VALUE_CHARS,
    );
    if (
      Object.keys(kept).length >= KEPT_HEADERS_MAX ||
      total + name.length + value.length > KEPT_HEADERS_TOTAL_CHARS
    ) {
      dropped += 1;
      continue;
    }
    kept[name] = value;
    total += name.length + value.length;
  }
  if (dropped > 0) kept[HEADERS_DROPPED] = String(dropped);
  return kept;
}
