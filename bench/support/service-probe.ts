// Preloaded into the service (`node --import ./bench/support/count-queries.ts`) to count the
// statements it sends to PostgreSQL, by statement text: each is one network round trip, since
// node-postgres sends one query at a time per connection. Written to BENCH_QUERY_LOG at exit.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const requireFromServer = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const pg = requireFromServer('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };

const counts = new Map<string, number>();
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  if (typeof text === 'string') {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return original.apply(this, args);
};

process.on('exit', () => {
  const path = process.env.BENCH_QUERY_LOG;
  if (path) writeFileSync(path, JSON.stringify(Object.fromEntries(counts), null, 2));
});

// The bench sends SIGUSR2 when the measured load starts, so start-up statements are not counted.
process.on('SIGUSR2', () => counts.clear());
