import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { DatabaseError } from '../src/storage/db.ts';
import {
  concurrentIndexNames,
  MIGRATION_LOCK_TIMEOUT_MS,
  MigrationChecksumError,
  migrate,
  migrationChecksum,
} from '../src/storage/migrate.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';

const FIRST = `CREATE TABLE gadgets (id text PRIMARY KEY, colour text NOT NULL);\n`;
const CONCURRENT_INDEX = `-- paygate:no-transaction
-- Built without locking writes; IF NOT EXISTS because it runs outside the migration lock.
CREATE INDEX CONCURRENTLY IF NOT EXISTS gadgets_by_colour ON gadgets (colour);
`;

for (const kind of databaseKinds()) {
  describe(`migration checksums and migrations outside a transaction (${kind})`, () => {
    let database: TestDatabase;
    let directory: string;
    const dirUrl = () => pathToFileURL(`${directory}/`);
    before(async () => {
      database = await openTestDatabase(kind, { migrated: false });
      directory = mkdtempSync(join(tmpdir(), 'paygate-migrations-'));
      writeFileSync(join(directory, '001_gadgets.sql'), FIRST);
      writeFileSync(join(directory, '002_gadgets_by_colour.sql'), CONCURRENT_INDEX);
    });
    after(async () => {
      rmSync(directory, { recursive: true, force: true });
      await database.drop();
    });

    it('runs a paygate:no-transaction migration (CREATE INDEX CONCURRENTLY) and records each checksum', async () => {
      assert.deepEqual(await migrate(database.db, dirUrl()), ['001_gadgets', '002_gadgets_by_colour']);
      const index = await database.db.query<{ indisvalid: boolean }>(
        `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'gadgets_by_colour'`,
      );
      assert.deepEqual(index.rows, [{ indisvalid: true }]);
      const { rows } = await database.db.query<{ version: string; checksum: string }>(
        'SELECT version, checksum FROM schema_migrations ORDER BY version',
      );
      assert.deepEqual(rows, [
        { version: '001_gadgets', checksum: migrationChecksum(FIRST) },
        { version: '002_gadgets_by_colour', checksum: migrationChecksum(CONCURRENT_INDEX) },
      ]);
      assert.deepEqual(await migrate(database.db, dirUrl()), []);
    });

    it('runs a no-transaction migration again when it lost a catalog race to another process starting at once', async () => {
      const sprockets = mkdtempSync(join(tmpdir(), 'paygate-migrations-'));
      try {
        writeFileSync(
          join(sprockets, '001_sprockets.sql'),
          'CREATE TABLE sprockets (id text PRIMARY KEY, size int);\n',
        );
        writeFileSync(
          join(sprockets, '002_sprockets_by_size.sql'),
          '-- paygate:no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS sprockets_by_size ON sprockets (size);\n',
        );
        // What PostgreSQL answers the loser when two processes build indexes of one table at once.
        let races = 2;
        const racing = new Proxy(database.db, {
          get(target, property) {
            if (property === 'exec') {
              return async (sql: string) => {
                if (races > 0 && sql.includes('CONCURRENTLY')) {
                  races--;
                  throw new DatabaseError('XX000', undefined, 'pg_race', 'tuple concurrently updated');
                }
                return target.exec(sql);
              };
            }
            const value = Reflect.get(target, property, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
        const pauses: number[] = [];
        const applied = await migrate(racing, pathToFileURL(`${sprockets}/`), {
          pause: async (ms) => {
            pauses.push(ms);
          },
        });
        assert.deepEqual(applied, ['001_sprockets', '002_sprockets_by_size']);
        assert.equal(pauses.length, 2, 'one pause after each lost race');
        const index = await database.db.query<{ indisvalid: boolean }>(
          `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'sprockets_by_size'`,
        );
        assert.deepEqual(index.rows, [{ indisvalid: true }]);
      } finally {
        rmSync(sprockets, { recursive: true, force: true });
      }
    });

    it('builds again an index that a failed concurrent build left INVALID, instead of recording it as built', async () => {
      const widgets = mkdtempSync(join(tmpdir(), 'paygate-migrations-'));
      const widgetsUrl = pathToFileURL(`${widgets}/`);
      try {
        writeFileSync(
          join(widgets, '001_widgets.sql'),
          'CREATE TABLE widgets (id text PRIMARY KEY, serial text NOT NULL);\n',
        );
        assert.deepEqual(await migrate(database.db, widgetsUrl), ['001_widgets']);
        await database.db.query(`INSERT INTO widgets VALUES ('w1', 'S-1'), ('w2', 'S-1')`);
        const build = 'CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS widgets_by_serial ON widgets (serial)';
        // The duplicate fails the build, which leaves the index behind, INVALID, as a crash would.
        await assert.rejects(database.db.exec(build));
        const validity = () =>
          database.db.query<{ indisvalid: boolean }>(
            `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'widgets_by_serial'`,
          );
        assert.deepEqual((await validity()).rows, [{ indisvalid: false }]);
        await database.db.query(`DELETE FROM widgets WHERE id = 'w2'`);
        writeFileSync(join(widgets, '002_widgets_by_serial.sql'), `-- paygate:no-transaction\n${build};\n`);
        assert.deepEqual(await migrate(database.db, widgetsUrl), ['002_widgets_by_serial']);
        assert.deepEqual((await validity()).rows, [{ indisvalid: true }]);
        await assert.rejects(
          database.db.query(`INSERT INTO widgets VALUES ('w3', 'S-1')`),
          /widgets_by_serial/,
        );
      } finally {
        rmSync(widgets, { recursive: true, force: true });
      }
    });

    it('names the indexes a migration builds concurrently', () => {
      assert.deepEqual(
        concurrentIndexNames(
          'CREATE INDEX CONCURRENTLY IF NOT EXISTS a_by_b ON a (b);\ncreate unique index concurrently if not exists "c_by_d" on c (d);',
        ),
        ['a_by_b', 'c_by_d'],
      );
    });

    it('treats a checkout with CRLF line endings as the same file', async () => {
      writeFileSync(join(directory, '002_gadgets_by_colour.sql'), CONCURRENT_INDEX.replace(/\n/g, '\r\n'));
      assert.deepEqual(await migrate(database.db, dirUrl()), []);
      writeFileSync(join(directory, '002_gadgets_by_colour.sql'), CONCURRENT_INDEX);
    });

    it('stops with a clear message naming an applied migration that was edited, and applies nothing after it', async () => {
      writeFileSync(join(directory, '001_gadgets.sql'), FIRST.replace('colour text', 'color text'));
      writeFileSync(join(directory, '003_more.sql'), 'CREATE TABLE more_gadgets (id text PRIMARY KEY);\n');
      await assert.rejects(
        migrate(database.db, dirUrl()),
        (error: unknown) =>
          error instanceof MigrationChecksumError &&
          /migration 001_gadgets\.sql was changed after it was applied/.test(error.message) &&
          /put the change in a new migration/.test(error.message),
      );
      const more = await database.db.query(`SELECT 1 FROM pg_class WHERE relname = 'more_gadgets'`);
      assert.equal(more.rowCount, 0);
    });

    it('records the checksum of a migration applied before checksums were kept, then checks it', async () => {
      writeFileSync(join(directory, '001_gadgets.sql'), FIRST);
      await database.db.query(`UPDATE schema_migrations SET checksum = NULL WHERE version = '001_gadgets'`);
      assert.deepEqual(await migrate(database.db, dirUrl()), ['003_more']);
      const { rows } = await database.db.query<{ checksum: string }>(
        `SELECT checksum FROM schema_migrations WHERE version = '001_gadgets'`,
      );
      assert.equal(rows[0]?.checksum, migrationChecksum(FIRST));
    });
  });
}

// An upgrade migrates while the previous release serves (docs/operations.md): a migration waits
// at most MIGRATION_LOCK_TIMEOUT_MS at a time for a table's lock, so queries do not queue behind
// it for long, and gives way in a deadlock with a request's transaction; it is tried again.
if (databaseKinds().includes('postgres')) {
  describe('migrations beside running transactions (postgres)', () => {
    let database: TestDatabase;
    let directory: string;
    const clients: pg.Client[] = [];
    const dirUrl = () => pathToFileURL(`${directory}/`);
    const client = async () => {
      const connected = new pg.Client({ connectionString: database.url ?? '' });
      await connected.connect();
      clients.push(connected);
      return connected;
    };
    const quickPause = (pauses: number[]) => async (ms: number) => {
      pauses.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    before(async () => {
      database = await openTestDatabase('postgres', { migrated: false });
      directory = mkdtempSync(join(tmpdir(), 'paygate-migrations-'));
      writeFileSync(
        join(directory, '001_gadgets.sql'),
        `CREATE TABLE gadgets (id text PRIMARY KEY);
         CREATE TABLE widgets (id text PRIMARY KEY);
         INSERT INTO gadgets VALUES ('g'); INSERT INTO widgets VALUES ('w');\n`,
      );
      await migrate(database.db, dirUrl());
    });
    after(async () => {
      for (const c of clients) await c.end();
      rmSync(directory, { recursive: true, force: true });
      await database.drop();
    });

    it('waits for a busy table a short while at a time, never holding readers long, and applies once it is free', async () => {
      writeFileSync(join(directory, '002_gadget_size.sql'), 'ALTER TABLE gadgets ADD COLUMN size integer;\n');
      const holder = await client();
      const reader = await client();
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM gadgets FOR UPDATE');
      const pauses: number[] = [];
      const migrating = migrate(database.db, dirUrl(), { pause: quickPause(pauses) });
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await reader.query('SELECT count(*) FROM gadgets');
        const waited = performance.now() - started;
        // Behind a waiting ALTER TABLE a read waits until it gives way: the lock timeout, not longer.
        assert.ok(waited < MIGRATION_LOCK_TIMEOUT_MS + 1500, `a read waited ${waited.toFixed(0)} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await holder.query('COMMIT');
      assert.deepEqual(await migrating, ['002_gadget_size']);
      assert.ok(pauses.length >= 1, 'the migration gave way at least once');
    });

    it('gives way in a deadlock with a transaction that locks the tables in the other order, and is tried again', async () => {
      writeFileSync(
        join(directory, '003_colours.sql'),
        'ALTER TABLE gadgets ADD COLUMN colour text;\nALTER TABLE widgets ADD COLUMN colour text;\n',
      );
      const request = await client();
      const watcher = await client();
      await request.query('BEGIN');
      await request.query('SELECT * FROM widgets FOR UPDATE');
      const pauses: number[] = [];
      const migrating = migrate(database.db, dirUrl(), { pause: quickPause(pauses) });
      // Once the migration holds gadgets (and waits for widgets), the request asks for gadgets.
      for (;;) {
        const { rows } = await watcher.query(
          `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
            WHERE c.relname = 'gadgets' AND l.mode = 'AccessExclusiveLock' AND l.granted`,
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const { rows } = await request.query('SELECT id FROM gadgets FOR UPDATE');
      assert.deepEqual(rows, [{ id: 'g' }], 'the request went through; the migration gave way');
      await request.query('COMMIT');
      assert.deepEqual(await migrating, ['003_colours']);
      assert.ok(pauses.length >= 1);
    });

    it('gives up after its tries, naming the migration, with nothing applied', async () => {
      writeFileSync(join(directory, '004_weight.sql'), 'ALTER TABLE gadgets ADD COLUMN weight integer;\n');
      const holder = await client();
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM gadgets FOR UPDATE');
      await assert.rejects(
        migrate(database.db, dirUrl(), { lockTries: 3, pause: quickPause([]) }),
        (error: unknown) =>
          error instanceof DatabaseError &&
          error.code === '55P03' &&
          /migration 004_weight could not take its tables' locks in 3 tries/.test(error.message),
      );
      await holder.query('COMMIT');
      const { rows } = await database.db.query(
        `SELECT 1 FROM schema_migrations WHERE version = '004_weight'`,
      );
      assert.equal(rows.length, 0);
      const column = await database.db.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'gadgets' AND column_name = 'weight'`,
      );
      assert.equal(column.rows.length, 0);
    });
  });
}
