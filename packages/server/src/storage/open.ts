import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock.ts';
import type { Database } from './db.ts';
import { type StartWaitLog, waitForDatabase } from './wait-for-database.ts';

/** How a process connects to PostgreSQL (config.ts reads them; see config-schema.ts). */
export interface DatabaseSettings {
  connectTimeoutMs: number;
  queryTimeoutMs: number;
  keepAliveMs: number;
  /** How long opening keeps trying a database it cannot reach; 0: fail at once. */
  startWaitSeconds: number;
}

/** Where the database's connection troubles are told: a pino logger fits. */
export interface DatabaseLog extends StartWaitLog {
  warn(fields: object, message: string): void;
}

/**
 * PostgreSQL when a URL is configured, otherwise the embedded database in the data dir. Each
 * driver is loaded only when chosen: a PostgreSQL service never loads PGlite, an embedded one
 * never loads pg (a few MB of idle memory each). A PostgreSQL that cannot be reached yet (a
 * compose stack starting, a failover in progress) is waited for, with back-off, for
 * `database.startWaitSeconds`; `log` hears each try (stderr when none is given).
 */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  database?: DatabaseSettings;
  log?: DatabaseLog;
}): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.ts');
    const settings = options.database;
    const log = options.log ?? stderrLog;
    const connectionString = options.databaseUrl;
    return waitForDatabase(
      () =>
        openPostgres({
          connectionString,
          ...(settings ?? {}),
          onConnectionError: (error) =>
            log.warn({ cause: error.message }, 'database connection lost; the pool opens a new one'),
        }),
      settings?.startWaitSeconds ?? 0,
      log,
    );
  }
  // One process per embedded data dir: a second one gets an error naming the first.
  const lock = lockDataDir(options.dataDir);
  try {
    const { openEmbedded } = await import('./embedded.ts');
    const db = await openEmbedded(join(options.dataDir, 'db'));
    const close = db.close.bind(db);
    return Object.assign(db, {
      async close() {
        try {
          await close();
        } finally {
          lock.release();
        }
      },
    });
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** One-shot commands without a logger say it on stderr, in one line each. */
const stderrLog: DatabaseLog = {
  warn(fields, message) {
    process.stderr.write(`paygate: ${message} ${JSON.stringify(fields)}\n`);
  },
  info(fields, message) {
    process.stderr.write(`paygate: ${message} ${JSON.stringify(fields)}\n`);
  },
};
