import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Database } from './db.ts';

const migrationsDir = new URL('./migrations/', import.meta.url);
// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_351_994_201;
/** A first line that runs the file outside a transaction (e.g. CREATE INDEX CONCURRENTLY). */
const NO_TRANSACTION_HEADER = /^--\s*paygate:no-transaction\s*$/m;

export interface Migration {
  version: string;
  sql: string;
  /** SHA-256 of the file (line endings normalised, so a checkout with CRLF is the same file). */
  checksum: string;
  /** Runs outside a transaction: one statement per file, written to be safe to run again. */
  transactional: boolean;
}

/** An applied migration's file differs from what was applied: the start stops. */
export class MigrationChecksumError extends Error {}

export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

export function loadMigrations(directory: URL = migrationsDir): Migration[] {
  return readdirSync(directory)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => {
      const sql = readFileSync(new URL(name, directory), 'utf8');
      const firstLine = sql.split('\n', 1)[0] ?? '';
      return {
        version: name.replace(/\.sql$/, ''),
        sql,
        checksum: migrationChecksum(sql),
        transactional: !NO_TRANSACTION_HEADER.test(firstLine),
      };
    });
}

/**
 * Every applied migration must still be the file that was applied: an edited one means this
 * database and a fresh one would have different schemas. Rows from before checksums were kept
 * take the file's checksum now (recorded once).
 */
async function verifyApplied(db: Database, migrations: readonly Migration[]): Promise<void> {
  const { rows } = await db.query<{ version: string; checksum: string | null }>(
    'SELECT version, checksum FROM schema_migrations',
  );
  const files = new Map(migrations.map((m) => [m.version, m]));
  for (const row of rows) {
    const file = files.get(row.version);
    if (!file) continue;
    if (row.checksum === null) {
      await db.query('UPDATE schema_migrations SET checksum = $2 WHERE version = $1 AND checksum IS NULL', [
        row.version,
        file.checksum,
      ]);
    } else if (row.checksum !== file.checksum) {
      throw new MigrationChecksumError(
        `migration ${row.version}.sql was changed after it was applied to this database ` +
          `(applied sha256 ${row.checksum.slice(0, 12)}…, file now ${file.checksum.slice(0, 12)}…). ` +
          'Restore the file as it was applied and put the change in a new migration.',
      );
    }
  }
}

/**
 * Applies pending migrations, each in its own transaction, after checking that the applied ones
 * are unchanged. An advisory lock makes concurrent start-ups of several processes safe: one
 * applies, the others see it applied. A `-- paygate:no-transaction` migration runs outside a
 * transaction and so outside the lock: it is written to be run again safely (`IF NOT EXISTS`),
 * and it is recorded only after it succeeded.
 */
export async function migrate(db: Database, directory: URL = migrationsDir): Promise<string[]> {
  // Under the lock too: two processes racing through CREATE TABLE IF NOT EXISTS on an empty
  // database both try to create it, and the second one fails on the catalog's unique index.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
       ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text;`,
    );
  });
  const migrations = loadMigrations(directory);
  await verifyApplied(db, migrations);
  const applied: string[] = [];
  for (const migration of migrations) {
    const didApply = migration.transactional
      ? await applyInTransaction(db, migration)
      : await applyOutsideTransaction(db, migration);
    if (didApply) applied.push(migration.version);
  }
  return applied;
}

async function applyInTransaction(db: Database, migration: Migration): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
      migration.version,
    ]);
    if (existing.rowCount > 0) return false;
    await tx.exec(migration.sql);
    await tx.query('INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)', [
      migration.version,
      migration.checksum,
    ]);
    return true;
  });
}

async function applyOutsideTransaction(db: Database, migration: Migration): Promise<boolean> {
  const existing = await db.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
  if (existing.rowCount > 0) return false;
  await db.exec(migration.sql);
  const recorded = await db.query(
    'INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING',
    [migration.version, migration.checksum],
  );
  return recorded.rowCount > 0;
}
