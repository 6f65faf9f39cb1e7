import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import type { Database } from './db.ts';
import { openEmbedded } from './embedded.ts';
import { EmbeddedStatements } from './embedded-statements.ts';

/** The statements PGlite holds prepared right now (the query itself is unnamed: not counted). */
async function preparedCount(db: Pick<Database, 'query'>): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
  return rows[0]?.n ?? -1;
}

describe('prepared statements on the embedded database', () => {
  let db: Database;
  before(async () => {
    db = await openEmbedded(null);
    await db.exec(
      'CREATE TABLE things (id text PRIMARY KEY, n int, at timestamptz, tags text[], body jsonb)',
    );
  });
  after(() => db.close());

  it('parses a statement once and runs it again by name, with the values typed as PostgreSQL inferred', async () => {
    const at = new Date('2026-11-28T12:00:00.123Z');
    const insert =
      'INSERT INTO things (id, n, at, tags, body) VALUES ($1, $2, $3, $4, $5) RETURNING n, at, tags, body';
    for (let i = 0; i < 3; i++) {
      const { rows, rowCount } = await db.query(insert, [`t${i}`, i, at, ['a', 'b"c'], { k: i }]);
      assert.equal(rowCount, 1);
      assert.deepEqual(rows[0], { n: i, at, tags: ['a', 'b"c'], body: { k: i } });
    }
    const select = 'SELECT id FROM things WHERE n >= $1 ORDER BY id';
    assert.deepEqual((await db.query(select, [1])).rows, [{ id: 't1' }, { id: 't2' }]);
    assert.equal((await db.query(select, [2])).rowCount, 1);
    assert.equal(await preparedCount(db), 2);
  });

  it('keeps a statement prepared in a transaction that rolled back, and after a failed run', async () => {
    const insert = 'INSERT INTO things (id, n) VALUES ($1, $2)';
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query(insert, ['rolled-back', 1]);
        await tx.query(insert, ['rolled-back', 2]); // unique violation: the transaction aborts
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    await db.query(insert, ['after', 3]);
    const { rows } = await db.query<{ id: string }>(
      "SELECT id FROM things WHERE id IN ('rolled-back', 'after')",
    );
    assert.deepEqual(rows, [{ id: 'after' }]);
  });

  it('throws a statement that does not parse and runs the next one', async () => {
    await assert.rejects(
      db.query('SELECT FROM WHERE $1', [1]),
      (error: { code?: string }) => error.code === '42601',
    );
    assert.equal((await db.query('SELECT $1::int + 1 AS two', [1])).rows[0]?.two, 2);
  });

  it('parses every statement again after a script changed what it returns', async () => {
    const select = 'SELECT * FROM things WHERE id = $1';
    assert.equal(Object.keys((await db.query(select, ['t0'])).rows[0] ?? {}).length, 5);
    await db.exec('ALTER TABLE things ADD COLUMN note text');
    // Without parsing it again PostgreSQL refuses: "cached plan must not change result type".
    assert.equal(Object.keys((await db.query(select, ['t0'])).rows[0] ?? {}).length, 6);
    // The statements of before the script were deallocated, not left behind.
    assert.equal(await preparedCount(db), 1);
  });

  it('keeps at most its limit of statements, closing the least recently used', async () => {
    const pglite = await PGlite.create('memory://');
    try {
      const statements = new EmbeddedStatements(pglite, 2);
      const run = (sql: string) => pglite.runExclusive(() => statements.run(sql, [1], true));
      await run('SELECT $1::int AS a');
      await run('SELECT $1::int AS b');
      await run('SELECT $1::int AS a'); // used again: b is now the oldest
      await run('SELECT $1::int AS c');
      assert.equal(statements.size, 2);
      const { rows } = await pglite.query<{ statement: string }>(
        'SELECT statement FROM pg_prepared_statements ORDER BY statement',
      );
      assert.deepEqual(
        rows.map((r) => r.statement),
        ['SELECT $1::int AS a', 'SELECT $1::int AS c'],
      );
      assert.deepEqual((await run('SELECT $1::int AS b')).rows, [{ b: 1 }]);
    } finally {
      await pglite.close();
    }
  });
});
