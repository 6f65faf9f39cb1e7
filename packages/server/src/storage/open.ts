import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock.ts';
import type { Database } from './db.ts';

/**
 * PostgreSQL when a URL is configured, otherwise the embedded database in the data dir. Each
 * driver is loaded only when chosen: a PostgreSQL service never loads PGlite, an embedded one
 * never loads pg (a few MB of idle memory each).
 */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
}): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres({ connectionString: options.databaseUrl });
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
