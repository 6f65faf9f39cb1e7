/**
 * A signed list cursor (`<position>.<mac>`, domain/transaction-cursor.ts) with its MAC's first
 * character changed: always a different MAC. Changing the last characters instead is not: the
 * last one of a 16-byte MAC's base64url carries only 2 bits, so replacing the last two with a
 * fixed pair gave the same cursor back about once in 256 runs, and the refusal test failed.
 */
export function cursorWithAlteredMac(cursor: string): string {
  const at = cursor.indexOf('.') + 1;
  if (at === 0 || at >= cursor.length) throw new Error(`not a signed cursor: ${cursor}`);
  return `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'B' : 'A'}${cursor.slice(at + 1)}`;
}
