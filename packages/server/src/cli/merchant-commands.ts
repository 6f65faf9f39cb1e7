import { createMerchant } from '../app/merchants/create-merchant.ts';
import type { Config } from '../config.ts';
import { withAppContext } from './app-context.ts';

export async function createMerchantCommand(config: Config, name: string): Promise<number> {
  return withAppContext(config, async (ctx) => {
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
  });
}
