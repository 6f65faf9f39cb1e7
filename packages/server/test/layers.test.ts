// The layer rules of docs/architecture.md, checked on the static imports of packages/server/src
// (type-only imports count too: a layer that names another's types depends on it).
//   - routes (http/routes/**) never import storage/: a route calls a use case in app/;
//   - webhooks/ never imports app/: the delivery worker is below the use cases;
//   - storage/ imports only domain/, its own files and libraries;
//   - domain/ imports nothing with I/O: only domain/ files and a few pure libraries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ImportEdge, serverImportGraph } from './support/import-graph.ts';

/** Libraries domain/ may use: none of them does I/O (node:crypto hashes and draws random bytes). */
const PURE_LIBRARIES = new Set(['node:crypto', '@paygate/contract', 'currency-codes', 'otpauth']);

const layer = (file: string) => file.split('/')[0] as string;
const named = (edge: ImportEdge) => `${edge.from} -> ${edge.to ?? edge.specifier}`;

/** Which rule an import breaks, or null. */
function brokenRule(edge: ImportEdge): string | null {
  const to = edge.to;
  if (edge.from.startsWith('http/routes/') && to !== null && layer(to) === 'storage') {
    return 'a route imports storage/';
  }
  if (layer(edge.from) === 'webhooks' && to !== null && layer(to) === 'app') return 'webhooks/ imports app/';
  if (layer(edge.from) === 'storage' && to !== null && !['storage', 'domain'].includes(layer(to))) {
    return 'storage/ imports outside storage/ and domain/';
  }
  if (layer(edge.from) === 'domain') {
    if (to === null ? !PURE_LIBRARIES.has(edge.specifier) : layer(to) !== 'domain') {
      return 'domain/ imports something other than domain/ and pure libraries';
    }
  }
  return null;
}

describe('layer rules (docs/architecture.md)', () => {
  const edges = serverImportGraph();
  const broken = edges.filter((edge) => brokenRule(edge) !== null);

  it('tells each kind of breach apart (the rules themselves)', () => {
    const edge = (from: string, to: string | null, specifier = to ?? ''): ImportEdge => ({
      from,
      to,
      specifier,
      typeOnly: false,
    });
    assert.equal(brokenRule(edge('http/routes/v1/x.ts', 'storage/db.ts')), 'a route imports storage/');
    assert.equal(brokenRule(edge('http/routes/v1/x.ts', 'app/payments/y.ts')), null);
    assert.equal(brokenRule(edge('webhooks/x.ts', 'app/context.ts')), 'webhooks/ imports app/');
    assert.equal(brokenRule(edge('webhooks/x.ts', 'storage/db.ts')), null);
    assert.equal(
      brokenRule(edge('storage/x.ts', 'app/context.ts')),
      'storage/ imports outside storage/ and domain/',
    );
    assert.equal(brokenRule(edge('storage/x.ts', 'domain/ids.ts')), null);
    assert.equal(brokenRule(edge('storage/x.ts', null, 'pg')), null);
    assert.match(brokenRule(edge('domain/x.ts', null, 'node:fs')) ?? '', /^domain/);
    assert.match(brokenRule(edge('domain/x.ts', 'clock.ts')) ?? '', /^domain/);
    assert.equal(brokenRule(edge('domain/x.ts', null, 'node:crypto')), null);
  });

  it('reads every layer it judges', () => {
    for (const name of ['http', 'webhooks', 'storage', 'domain']) {
      assert.ok(
        edges.some((e) => layer(e.from) === name),
        `imports of ${name}/ were read`,
      );
    }
  });

  it('has no breach', () => {
    assert.deepEqual(
      broken.map((edge) => `${named(edge)}: ${brokenRule(edge)}`),
      [],
    );
  });
});
