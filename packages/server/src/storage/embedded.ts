import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction, types } from '@electric-sql/pglite';
import { type Database, parseInt8, type Queryable, type QueryResult } from './db.ts';

/**
 * The embedded database: PGlite in this process, persisted in a directory (or in memory for
 * tests). It has one connection, so transactions run one after another; that is the price of
 * zero setup, and the reason production runs on PostgreSQL.
 */
export async function openEmbedded(dataDir: string | null): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ?? 'memory://', {
    parsers: { [types.INT8]: parseInt8 },
  });

  function wrap(target: PGlite | Transaction): Queryable {
    return {
      async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
        const result = await target.query<Row>(sql, params as unknown[]);
        // PGlite counts only written rows in affectedRows (0 for a SELECT); pg's rowCount counts both.
        return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
      },
      async exec(sql: string): Promise<void> {
        await target.exec(sql);
      },
    };
  }
  const plain = wrap(db);

  return {
    kind: 'embedded',
    query: plain.query,
    exec: plain.exec,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    async listen(channel, onNotify) {
      const unsubscribe = await db.listen(channel, onNotify);
      return async () => {
        await unsubscribe();
      };
    },
    async close() {
      await db.close();
    },
  };
}
