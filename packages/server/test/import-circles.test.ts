// No import circles in packages/server/src (issue 28): a circle makes load order decide whether a
// binding is ready (a `const` read before its module ran throws), and it says that two modules
// are one idea split in the wrong place. Every static import counts, type-only ones too: they
// cost nothing at run time, but a type circle is the same tangle of ideas, and none is needed
// (AppContext declares the ports it holds instead of importing them from their implementations).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ImportEdge, importCircles, serverImportGraph } from './support/import-graph.ts';

/**
 * Circles that exist today and are being removed by another helper of issue 28, each with who
 * removes it. The lead empties this list at the end. A listed circle that is gone is reported (a
 * test diagnostic), not failed: the helper who breaks it need not edit this file in the same change.
 */
const KNOWN_CIRCLES: { files: string[]; removedBy: string }[] = [
  {
    // onOwn and webhookScopeOf live in webhooks.ts and the sibling route files import them back;
    // the one dashboard scope (#28.2) replaces them.
    files: [
      'http/routes/dashboard/webhooks-deliveries.ts',
      'http/routes/dashboard/webhooks-endpoint-actions.ts',
      'http/routes/dashboard/webhooks.ts',
    ],
    removedBy: 'dash',
  },
];

const key = (files: readonly string[]) => [...files].sort().join(' ');

describe('import circles in packages/server/src', () => {
  const edges = serverImportGraph();
  const circles = importCircles(edges);

  it('reads the imports of the whole tree', () => {
    // A walk that found nothing would pass vacuously.
    assert.ok(edges.length > 500, `${edges.length} imports read`);
    assert.ok(edges.some((e) => e.typeOnly) && edges.some((e) => !e.typeOnly));
  });

  it('finds a circle when there is one (the detector itself)', () => {
    const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({
      from,
      to,
      specifier: to,
      typeOnly,
    });
    const found = importCircles([
      edge('a.ts', 'b.ts'),
      edge('b.ts', 'c.ts', true),
      edge('c.ts', 'a.ts'),
      edge('c.ts', 'd.ts'),
      edge('e.ts', 'e.ts'),
    ]);
    assert.deepEqual(
      found.map((c) => c.files),
      [['a.ts', 'b.ts', 'c.ts'], ['e.ts']],
    );
    assert.deepEqual(found[0]?.example, ['a.ts', 'b.ts', 'c.ts', 'a.ts']);
    assert.deepEqual(importCircles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts')]), []);
  });

  it('has none beyond the known ones being removed', () => {
    const known = new Set(KNOWN_CIRCLES.map((c) => key(c.files)));
    const unexpected = circles.filter((c) => !known.has(key(c.files)));
    assert.deepEqual(
      unexpected.map((c) => c.example.join(' -> ')),
      [],
      'import circles (break each by moving what both sides need into a module of its own)',
    );
  });

  it('reports known circles that are already gone (to take off the list)', (t) => {
    const present = new Set(circles.map((c) => key(c.files)));
    for (const known of KNOWN_CIRCLES) {
      if (!present.has(key(known.files))) {
        t.diagnostic(`gone, remove from KNOWN_CIRCLES: ${key(known.files)} (${known.removedBy})`);
      }
    }
  });
});
