import type { AppContext } from '../app/context.ts';
import { type CreatedMerchant, createMerchant } from '../app/create-merchant.ts';
import { countMerchants } from '../storage/repositories/merchants.ts';

/** On the very first start there is nobody to pay: create a demo merchant so curl works at once. */
export async function ensureDemoMerchant(ctx: AppContext): Promise<CreatedMerchant | null> {
  if ((await countMerchants(ctx.db)) > 0) return null;
  return createMerchant(ctx, 'Demo merchant');
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
