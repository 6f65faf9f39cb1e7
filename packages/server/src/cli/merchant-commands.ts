import { createAppContext } from '../app/create-context.ts';
import { createMerchant } from '../app/merchants/create-merchant.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { GatewayRegistry } from '../gateways/registry.ts';
import { migrate } from '../storage/migrate.ts';
import { openDatabase } from '../storage/open.ts';

export async function createMerchantCommand(config: Config, name: string): Promise<number> {
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
    const { merchant, keys } = await createMerchant(ctx, name);
    process.stdout.write(
      `${JSON.stringify(
        {
          id: merchant.id,
          name: merchant.name,
          // The same shape as POST /admin/v1/merchants answers.
          api_keys: {
            secret_test: keys.secretTest,
            publishable_test: keys.publishableTest,
            secret_live: keys.secretLive,
            publishable_live: keys.publishableLive,
          },
        },
        null,
        2,
      )}\nThese keys are shown only now; they are stored hashed.\n`,
    );
    return 0;
  } finally {
    await db.close();
  }
}
