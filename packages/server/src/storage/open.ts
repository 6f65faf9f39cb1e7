import { join } from 'node:path';
import type { Database } from './db.ts';
import { openEmbedded } from './embedded.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when a URL is configured, otherwise the embedded database in the data dir. */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres({ connectionString: options.databaseUrl });
  return openEmbedded(join(options.dataDir, 'db'));
}
