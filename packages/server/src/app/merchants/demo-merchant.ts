import { countMerchants } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { type CreatedMerchant, insertMerchantWithKeys } from './create-merchant.ts';

// Any constant works; it only has to be the same in every process that starts.
const DEMO_MERCHANT_LOCK = 7_351_994_202;

/**
 * On the very first start there is nobody to pay: create a demo merchant so curl works at once.
 * The check and the insert run under one advisory lock, so processes started at the same moment
 * on an empty database create exactly one (the others see it and print no keys).
 */
export async function ensureDemoMerchant(ctx: AppContext): Promise<CreatedMerchant | null> {
  if ((await countMerchants(ctx.db)) > 0) return null;
  return ctx.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [DEMO_MERCHANT_LOCK]);
    if ((await countMerchants(tx)) > 0) return null;
    return insertMerchantWithKeys(tx, ctx.clock.now(), 'Demo merchant');
  });
}

export function welcomeText(options: {
  baseUrl: string;
  demo: CreatedMerchant | null;
  adminToken: string | null;
}): string {
  const lines = ['', `Paygate is listening on ${options.baseUrl}`];
  if (options.adminToken) {
    lines.push('', `Operator token (X-Admin-Token), kept in the data dir: ${options.adminToken}`);
  }
  if (options.demo) {
    const { keys, merchant } = options.demo;
    lines.push(
      '',
      `Demo merchant ${merchant.id}. Its keys are shown only now (they are stored hashed):`,
      `  secret test key:       ${keys.secretTest}`,
      `  publishable test key:  ${keys.publishableTest}`,
      '',
      'Create a payment intent:',
      `  curl -s ${options.baseUrl}/v1/payment-intents \\`,
      `    -H 'X-API-Key: ${keys.secretTest}' -H 'Idempotency-Key: first-order-1' \\`,
      `    -H 'Content-Type: application/json' \\`,
      `    -d '{"amount_minor": 2500, "currency": "USD", "gateway_id": "sim"}'`,
    );
  }
  return `${lines.join('\n')}\n`;
}
