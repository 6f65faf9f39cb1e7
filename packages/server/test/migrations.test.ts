import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { MigrationChecksumError, migrate, migrationChecksum } from '../src/storage/migrate.ts';
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
