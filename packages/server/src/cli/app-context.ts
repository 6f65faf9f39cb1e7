import type { AppContext } from '../app/context.ts';
import { createAppContext } from '../app/create-context.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { GatewayRegistry } from '../gateways/registry.ts';
import { migrate } from '../storage/migrate.ts';
import { openDatabase } from '../storage/open.ts';

/**
 * A one-shot command's use case, run as the service would run it: the configured database
 * (migrated first when PAYGATE_MIGRATE_ON_START allows), a context with the system clock and no
 * gateways (these commands call none), the database closed afterwards whatever happens.
 */
export async function withAppContext<T>(config: Config, run: (ctx: AppContext) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  try {
    if (config.migrateOnStart) await migrate(db);
    const ctx = createAppContext({
      db,
      clock: systemClock,
      gateways: new GatewayRegistry([]),
      masterKey: config.masterKey,
      publicUrl: config.publicUrl,
      testWebhooksAllowLoopback: config.testWebhooksAllowLoopback,
    });
    return await run(ctx);
  } finally {
    await db.close();
  }
}
