import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from './errors.ts';
import { decodeTransactionCursor, encodeTransactionCursor } from './transaction-cursor.ts';

const position = { createdAt: '2026-01-02T03:04:05.123456Z', id: 'txn_0123456789ABCDEFabcdefgh' };

describe('transaction cursor', () => {
  it('round-trips a position and is opaque base64url', () => {
    const cursor = encodeTransactionCursor(position);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.equal(cursor.includes('txn_'), false);
    assert.deepEqual(decodeTransactionCursor(cursor), position);
  });

  it('refuses anything it did not issue, naming the cursor field', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const bad of [
      '',
      '***',
      b64('1|2026-01-02T03:04:05.123456Z'),
      b64(`0|${position.createdAt}|${position.id}`),
      b64(`1|2026-01-02 03:04:05|${position.id}`),
      b64(`1|2026-02-30T03:04:05.123456Z|${position.id}`.replace('02-30', '99-99')),
      b64(`1|${position.createdAt}|re_0123456789ABCDEFabcdefgh`),
      `${encodeTransactionCursor(position)}==`,
    ]) {
      assert.throws(
        () => decodeTransactionCursor(bad),
        (error: unknown) => error instanceof ValidationError && error.extras.errors?.[0]?.field === 'cursor',
        bad,
      );
    }
  });
});
