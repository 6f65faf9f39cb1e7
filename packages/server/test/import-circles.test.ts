// No import circles in packages/server/src (issue 28): a circle makes load order decide whether a
// binding is ready (a `const` read before its module ran throws), and it says that two modules
// are one idea split in the wrong place. Every static import counts, type-only ones too: they
// cost nothing at run time, but a type circle is the same tangle of ideas, and none is needed
// (AppContext declares the ports it holds instead of importing them from their implementations).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ImportEdge, importCircles, serverImportGraph } from './support/import-graph.ts';

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

  it('has none', () => {
    assert.deepEqual(
      circles.map((c) => c.example.join(' -> ')),
      [],
      'import circles (break each by moving what both sides need into a module of its own)',
    );
  });
});
