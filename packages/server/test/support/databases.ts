import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../../src/storage/db.ts';
import { openEmbedded } from '../../src/storage/embedded.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { openPostgres } from '../../src/storage/postgres.ts';

export type DatabaseKind = 'embedded' | 'postgres';

/**
 * The databases every storage and HTTP test runs on: always the embedded one, and PostgreSQL when
 * PAYGATE_TEST_DATABASE_URL is set (as CI does).
 */
export function databaseKinds(): DatabaseKind[] {
  return process.env.PAYGATE_TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];
}

export interface TestDatabase {
  db: Database;
  /** For PostgreSQL: the URL of this run's own database (other processes can connect to it). */
  url: string | null;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A fresh, migrated database for one test file: runs never see each other's rows. With
 * `migrated: false` it is empty, for the tests of migration itself.
 */
export async function openTestDatabase(
  kind: DatabaseKind,
  { migrated = true }: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (kind === 'embedded') {
    const db = await openEmbedded(null);
    if (migrated) await migrate(db);
    return { db, url: null, drop: () => db.close() };
  }
  const adminUrl = process.env.PAYGATE_TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('PAYGATE_TEST_DATABASE_URL is not set');
  const name = `paygate_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const db = await openPostgres({ connectionString: url, maxConnections: 30 });
  if (migrated) await migrate(db);
  return {
    db,
    url,
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
