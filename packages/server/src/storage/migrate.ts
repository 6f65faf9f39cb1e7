import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type Backoff, backoffDelayMs } from '../domain/retry-schedules.ts';
import { type Database, DatabaseError } from './db.ts';

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

/**
 * How long a migration waits for a table's lock before it gives way and is tried again. An
 * upgrade migrates while the previous release serves (docs/operations.md): while an ALTER TABLE
 * waits for its lock every later query on that table queues behind it, so the wait is short; and
 * it is shorter than PostgreSQL's deadlock_timeout (1 s), so that when a migration and a
 * request's transaction lock two tables in opposite orders, the migration is the one that gives
 * way, never the request.
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 500;
/** The pauses between tries of a migration that gave way: 0.25 s doubling up to 5 s. */
const LOCK_RETRY_BACKOFF: Backoff = { firstMs: 250, maxMs: 5000 };
/** lock_not_available (the lock_timeout) and deadlock_detected. */
const GAVE_WAY = new Set(['55P03', '40P01']);
/** deadlock_detected, duplicate_table (another process's index of that name), lock_not_available. */
const REBUILD_RACE = new Set(['40P01', '42P07', '55P03']);
/** How long a process that lost an index build's deadlock waits for the winner (about 10 minutes at 5 s). */
const OUTSIDE_TRANSACTION_WAIT_TRIES = 120;

export interface MigrateOptions {
  /** How many times a migration is tried while its tables are busy (40 by default: about 3 minutes). */
  lockTries?: number;
  /** Waits the given milliseconds between tries (tests pass a quick one). */
  pause?: (ms: number) => Promise<void>;
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
export async function migrate(
  db: Database,
  directory: URL = migrationsDir,
  options: MigrateOptions = {},
): Promise<string[]> {
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
      ? await giveWayWhileBusy(migration, options, () => applyInTransaction(db, migration))
      : await applyOutsideTransaction(db, migration, options);
    if (didApply) applied.push(migration.version);
  }
  return applied;
}

/**
 * Runs `apply` again while it gives way to the running processes' locks (lock_timeout, or chosen
 * in a deadlock); its transaction rolled back each time, so nothing is half-applied.
 */
async function giveWayWhileBusy(
  migration: Migration,
  options: MigrateOptions,
  apply: () => Promise<boolean>,
): Promise<boolean> {
  const tries = options.lockTries ?? 40;
  const pause = options.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await apply();
    } catch (error) {
      if (!(error instanceof DatabaseError && GAVE_WAY.has(error.code))) throw error;
      if (attempt >= tries) {
        error.message =
          `migration ${migration.version} could not take its tables' locks in ${tries} tries ` +
          `(${MIGRATION_LOCK_TIMEOUT_MS} ms each; running transactions held them): ${error.message}`;
        throw error;
      }
      await pause(backoffDelayMs(LOCK_RETRY_BACKOFF, attempt - 1));
    }
  }
}

async function applyInTransaction(db: Database, migration: Migration): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`SET LOCAL lock_timeout = ${MIGRATION_LOCK_TIMEOUT_MS}`);
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

/**
 * PostgreSQL's "tuple concurrently updated" (XX000): two processes building indexes of one table
 * at the same moment both update the table's catalog row, and one of them fails. The file is safe
 * to run again (IF NOT EXISTS); an INVALID index a failed build left is rebuilt before recording
 * (rebuildInvalidIndexes).
 */
function isCatalogRace(error: unknown): error is DatabaseError {
  return (
    error instanceof DatabaseError &&
    error.code === 'XX000' &&
    /tuple concurrently updated/.test(error.message)
  );
}

/** How many times a no-transaction migration is run again after losing a catalog race. */
const CATALOG_RACE_TRIES = 20;

async function applyOutsideTransaction(
  db: Database,
  migration: Migration,
  options: MigrateOptions,
): Promise<boolean> {
  if (await isRecorded(db, migration)) return false;
  try {
    await runAgainAfterCatalogRaces(db, migration, options);
  } catch (error) {
    // Several processes starting at once on one database all build the same index CONCURRENTLY;
    // each build waits for the others' transactions, and PostgreSQL ends that cycle by failing
    // all but one of them (deadlock). The one that goes on records the migration: wait for it.
    if (!(error instanceof DatabaseError && error.code === '40P01')) throw error;
    const pause = options.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    for (let attempt = 0; attempt < OUTSIDE_TRANSACTION_WAIT_TRIES; attempt++) {
      if (await isRecorded(db, migration)) return false;
      await pause(backoffDelayMs(LOCK_RETRY_BACKOFF, attempt));
    }
    error.message = `migration ${migration.version} lost a deadlock to another process that never recorded it: ${error.message}`;
    throw error;
  }
  await rebuildInvalidIndexes(db, migration, options);
  const recorded = await db.query(
    'INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING',
    [migration.version, migration.checksum],
  );
  return recorded.rowCount > 0;
}

/**
 * Runs the file, again after a pause each time it lost a catalog race to another process starting
 * at the same moment (5 processes on an empty database, test/start-up-race.test.ts: once in a few
 * hundred starts with the five concurrent-index migrations of 331 and 340-343).
 */
async function runAgainAfterCatalogRaces(db: Database, migration: Migration, options: MigrateOptions) {
  const pause = options.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      await db.exec(migration.sql);
      return;
    } catch (error) {
      if (!isCatalogRace(error) || attempt + 1 >= CATALOG_RACE_TRIES) throw error;
      await pause(backoffDelayMs(LOCK_RETRY_BACKOFF, attempt) + Math.floor(Math.random() * 250));
    }
  }
}

/** The indexes a migration builds with CREATE INDEX CONCURRENTLY IF NOT EXISTS, by name. */
export function concurrentIndexNames(sql: string): string[] {
  const pattern =
    /CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/gi;
  return [...sql.matchAll(pattern)].map((match) => match[1] as string);
}

/**
 * A CREATE INDEX CONCURRENTLY that failed (a crash, a cancelled start, a unique violation since
 * fixed) leaves an INVALID index behind under its name, and the next run's IF NOT EXISTS then
 * skips it: the migration would be recorded with an index PostgreSQL never uses. Before recording,
 * each index the migration names must be valid: one that another process is still building is
 * waited for; one that nobody builds is dropped and built again.
 */
async function rebuildInvalidIndexes(
  db: Database,
  migration: Migration,
  options: MigrateOptions,
): Promise<void> {
  const pause = options.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (const name of concurrentIndexNames(migration.sql)) {
    for (let attempt = 0; ; attempt++) {
      const { rows } = await db.query<{ indisvalid: boolean; building: boolean }>(
        `SELECT i.indisvalid,
                EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = i.indexrelid) AS building
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = $1 AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())`,
        [name],
      );
      const index = rows[0];
      if (!index || index.indisvalid) break;
      if (attempt >= OUTSIDE_TRANSACTION_WAIT_TRIES) {
        throw new Error(
          `migration ${migration.version}: index ${name} is still invalid after ${attempt} tries`,
        );
      }
      if (index.building) {
        await pause(backoffDelayMs(LOCK_RETRY_BACKOFF, attempt));
        continue;
      }
      try {
        await db.exec(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
        await db.exec(migration.sql);
      } catch (error) {
        // Processes that all found it invalid rebuild it at once; the builds deadlock or meet each
        // other's index. The losers look again after a pause (a random part keeps them out of step).
        if (!(error instanceof DatabaseError && (REBUILD_RACE.has(error.code) || isCatalogRace(error))))
          throw error;
        await pause(backoffDelayMs(LOCK_RETRY_BACKOFF, attempt) + Math.floor(Math.random() * 250));
      }
    }
  }
}

async function isRecorded(db: Database, migration: Migration): Promise<boolean> {
  const existing = await db.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
  return existing.rowCount > 0;
}
