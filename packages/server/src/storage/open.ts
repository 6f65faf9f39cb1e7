import { join } from 'node:path';
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
  const { openEmbedded } = await import('./embedded.ts');
  return openEmbedded(join(options.dataDir, 'db'));
}
