// The confirm path's file count (scripts/confirm-path.mjs, docs/architecture.md): what the walk
// follows, and a ceiling so that the path grows only by what a feature of the confirm itself needs
// (issue 23 brought it from 41 to 36; saving a payment method for a customer added four, and the
// payer's view names the merchant the method is saved for, one more: issue 44).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { confirmPathFiles } from '../../../scripts/confirm-path.mjs';

const CEILING = 45;

describe('the confirm path', () => {
  const files = confirmPathFiles();

  it('runs from the route through the use case, the domain and the repositories to the worker', () => {
    for (const file of [
      'http/routes/v1/payment-intents.ts',
      'app/payments/confirm-payment-intent.ts',
      'app/payments/charge-outcomes.ts',
      'domain/payment-intent.ts',
      'storage/repositories/payment-intents.ts',
      'storage/repositories/events.ts',
      'webhooks/delivery-worker.ts',
      'webhooks/signing.ts',
    ]) {
      assert.ok(files.includes(file), `${file} is on the path`);
    }
  });

  it('follows no type-only import unless asked to', () => {
    // app/context.ts is imported only for the AppContext type on the path.
    assert.ok(!files.includes('app/context.ts'));
    const withTypes = confirmPathFiles(undefined, true);
    assert.ok(withTypes.includes('app/context.ts'));
    assert.ok(withTypes.length > files.length);
  });

  it('is counted in docs/architecture.md as it is: the total, with type-only imports, and per layer', () => {
    const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8');
    const withTypes = confirmPathFiles(undefined, true);
    assert.match(
      doc,
      new RegExp(`and ${files.length} \\(${withTypes.length} with type-only imports\\) since`),
    );
    assert.match(doc, new RegExp(`keeps the count at ${CEILING} or below`));
    const layerOf = (file: string) =>
      ['http', 'app', 'domain', 'storage', 'webhooks'].find((layer) => file.startsWith(`${layer}/`)) ??
      'other';
    const counted = new Map<string, number>();
    for (const file of files) counted.set(layerOf(file), (counted.get(layerOf(file)) ?? 0) + 1);
    const table = new Map(
      [...doc.matchAll(/^\| (http|app|domain|storage|webhooks|other) \((\d+)\) \|/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
    assert.deepEqual(Object.fromEntries(table), Object.fromEntries(counted));
  });

  it(`has fewer than ${CEILING + 1} files`, () => {
    assert.ok(files.length <= CEILING, `${files.length} files:\n${files.join('\n')}`);
  });
});
