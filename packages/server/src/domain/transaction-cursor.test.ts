import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ValidationError } from './errors.ts';
import { decodeTransactionCursor, encodeTransactionCursor } from './transaction-cursor.ts';

const position = { createdAt: '2026-01-02T03:04:05.123456Z', id: 'txn_0123456789ABCDEFabcdefgh' };
const key = randomBytes(32);
const namesCursor = (error: unknown) =>
  error instanceof ValidationError && error.extras.errors?.[0]?.field === 'cursor';

describe('transaction cursor', () => {
  it('round-trips a position and is opaque base64url', () => {
    const cursor = encodeTransactionCursor(position, key);
    assert.match(cursor, /^[A-Za-z0-9_.-]+$/);
    assert.equal(cursor.includes('txn_'), false);
    assert.deepEqual(decodeTransactionCursor(cursor, key), position);
  });

  it('refuses anything it did not issue, naming the cursor field', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const good = encodeTransactionCursor(position, key);
    const mac = good.split('.')[1];
    for (const bad of [
      '',
      '***',
      b64(`1|${position.createdAt}|${position.id}`),
      b64(`2|${position.createdAt}|${position.id}`),
      `${b64(`2|${position.createdAt}|${position.id}`)}.${'A'.repeat(22)}`,
      `${b64(`2|2026-01-02T03:04:05.123457Z|${position.id}`)}.${mac}`,
      `${good}==`,
      `${good}.x`,
      good.slice(0, -1),
    ]) {
      assert.throws(() => decodeTransactionCursor(bad, key), namesCursor, bad);
    }
  });

  it('refuses every well-formed position it did not sign, and cursors signed under another key', () => {
    const otherKey = randomBytes(32);
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.stringMatching(/^[0-9A-Za-z]{24}$/),
        (date, suffix) => {
          const forged = { createdAt: date.toISOString().replace('Z', '000Z'), id: `txn_${suffix}` };
          const issued = encodeTransactionCursor(forged, key);
          assert.deepEqual(decodeTransactionCursor(issued, key), forged);
          assert.throws(
            () => decodeTransactionCursor(encodeTransactionCursor(forged, otherKey), key),
            namesCursor,
          );
          const unsigned = Buffer.from(`2|${forged.createdAt}|${forged.id}`).toString('base64url');
          assert.throws(() => decodeTransactionCursor(`${unsigned}.${'A'.repeat(22)}`, key), namesCursor);
        },
      ),
      { seed: 22, numRuns: 300 },
    );
  });
});
