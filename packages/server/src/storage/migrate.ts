import { readdirSync, readFileSync } from 'node:fs';
import type { Database } from './db.ts';

const migrationsDir = new URL('./migrations/', import.meta.url);
// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_351_994_201;

export interface Migration {
  version: string;
  sql: string;
}

export function loadMigrations(): Migration[] {
  return readdirSync(migrationsDir)
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({
      version: name.replace(/\.sql$/, ''),
      sql: readFileSync(new URL(name, migrationsDir), 'utf8'),
    }));
}

/**
 * Applies pending migrations, each in its own transaction. An advisory lock makes concurrent
 * start-ups of several processes safe: one applies, the others see it applied. The lock is taken
 * before anything else, the bookkeeping table's creation included: two concurrent
 * `CREATE TABLE IF NOT EXISTS` on an empty database race in the catalog and one fails with a
 * unique violation (on pg_type), which crashed all but one of several processes started at once.
 */
export async function migrate(db: Database): Promise<string[]> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  });
  const applied: string[] = [];
  for (const migration of loadMigrations()) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
        migration.version,
      ]);
      if (existing.rowCount > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      return true;
    });
    if (didApply) applied.push(migration.version);
  }
  return applied;
}
