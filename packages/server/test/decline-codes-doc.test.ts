// docs/gateways.md's decline-reason tables are the mapping the connectors use (domain/decline-codes.ts),
// row for row, and docs/payments.md lists exactly the contract's vocabulary.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DECLINE_CODES, declineTables } from '../src/domain/decline-codes.ts';

const docs = new URL('../../../docs/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, docs), 'utf8');

/** The rows of the Markdown table that follows the line starting with `header`, cells unquoted. */
function tableAfter(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  assert.ok(start >= 0, `no table headed ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1')),
    );
  }
  return rows;
}

describe('the documented decline reasons', () => {
  it("docs/gateways.md shows Stripe's mapping as the connector applies it", () => {
    const rows = tableAfter(read('gateways.md'), '| Stripe `decline_code` or `code`');
    assert.deepEqual(
      rows,
      declineTables().stripe.map(([code, ours]) => [code, ours]),
    );
  });

  it("docs/gateways.md shows Adyen's mapping as the connector applies it", () => {
    const rows = tableAfter(read('gateways.md'), '| Adyen `refusalReasonCode`');
    assert.deepEqual(
      rows,
      declineTables().adyen.map(([code, reason, ours]) => [code, reason, ours ?? 'null']),
    );
  });

  it('docs/payments.md lists the vocabulary of the contract, in order', () => {
    const rows = tableAfter(read('payments.md'), '| `decline_code` | Meaning');
    assert.deepEqual(
      rows.map(([code]) => code),
      [...DECLINE_CODES],
    );
  });
});
