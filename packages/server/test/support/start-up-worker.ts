// One process of the start-up race test: for each database URL read from stdin, runs what a
// service process runs before it listens (migrate, then the demo merchant) and answers one JSON
// line. The parent sends the same URL to every worker at once, so the starts really overlap.
import { createInterface } from 'node:readline';
import { createAppContext } from '../../src/app/create-context.ts';
import { ensureDemoMerchant } from '../../src/app/merchants/demo-merchant.ts';
import { systemClock } from '../../src/clock.ts';
import { GatewayRegistry } from '../../src/gateways/registry.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { openPostgres } from '../../src/storage/postgres.ts';

async function startUp(url: string): Promise<{ ok: true; demo: boolean } | { ok: false; error: string }> {
  const db = await openPostgres({ connectionString: url, maxConnections: 2 });
  try {
    await migrate(db);
    const ctx = createAppContext({
      db,
      clock: systemClock,
      gateways: new GatewayRegistry([]),
      masterKey: Buffer.alloc(32, 1),
      publicUrl: 'http://localhost:0',
    });
    const demo = await ensureDemoMerchant(ctx);
    return { ok: true, demo: demo !== null };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await db.close();
  }
}

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const url of lines) {
  if (url === '') break;
  process.stdout.write(`${JSON.stringify(await startUp(url))}\n`);
}
