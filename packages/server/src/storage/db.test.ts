import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columnName, rowMapping } from './db.ts';

interface Example {
  id: string;
  merchantId: string;
  amountMinor: number;
  metadata: Record<string, string>;
  expiresAt: Date | null;
}

const example = rowMapping<Example>({
  id: 'plain',
  merchantId: 'plain',
  amountMinor: 'plain',
  metadata: 'json',
  expiresAt: 'plain',
});

describe('rowMapping', () => {
  it('names each column after its field in snake case', () => {
    assert.equal(columnName('paymentIntentId'), 'payment_intent_id');
    assert.equal(example.columns(), 'id, merchant_id, amount_minor, metadata, expires_at');
    assert.equal(example.columns('a'), 'a.id, a.merchant_id, a.amount_minor, a.metadata, a.expires_at');
  });

  it('numbers placeholders from where the caller says', () => {
    assert.equal(example.placeholders(), '$1, $2, $3, $4, $5');
    assert.equal(example.placeholders(3), '$3, $4, $5, $6, $7');
  });

  it('writes values in column order, JSON columns as text, and reads a row back into the record', () => {
    const expiresAt = new Date('2026-01-01T00:00:00Z');
    const record: Example = {
      id: 'pi_1',
      merchantId: 'acct_1',
      amountMinor: 1250,
      metadata: { order: '7' },
      expiresAt,
    };
    assert.deepEqual(example.values(record), ['pi_1', 'acct_1', 1250, '{"order":"7"}', expiresAt]);
    const row = {
      id: 'pi_1',
      merchant_id: 'acct_1',
      amount_minor: 1250,
      metadata: { order: '7' },
      expires_at: expiresAt,
    };
    assert.deepEqual(example.fromRow(row), record);
  });
});
