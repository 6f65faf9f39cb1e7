import type { HostedFields } from '../../gateways/connector.ts';
import { listAccountsOfMerchant } from '../../storage/repositories/gateway-accounts.ts';
import type { AppContext } from '../context.ts';

/** The origins the checkout frame's CSP opens: framed (every card entry), and scripts it loads. */
export interface CheckoutGatewayOrigins {
  framed: string[];
  scripts: string[];
}

/**
 * The card entry origins of the gateways a merchant can take new payments with in a mode: the
 * process's gateways (simulator, operator's default accounts) whose `gateway_id` no account of the
 * merchant hides, plus the merchant's enabled accounts. Another merchant's accounts never widen
 * this merchant's frame, and a disabled account neither opens its origin nor reopens the default's.
 */
export async function checkoutGatewayOrigins(
  ctx: AppContext,
  merchant: { merchantId: string; livemode: boolean },
): Promise<CheckoutGatewayOrigins> {
  const accounts = await listAccountsOfMerchant(ctx.db, merchant.merchantId, merchant.livemode);
  const hidden = new Set(accounts.map((account) => account.gatewayId));
  const entries: HostedFields[] = [];
  for (const id of ctx.gateways.ids()) {
    if (hidden.has(id)) continue;
    const hosted = ctx.gateways.get(id)?.hostedFields();
    if (hosted) entries.push(hosted);
  }
  for (const account of accounts) {
    if (account.status !== 'enabled') continue;
    const hosted = ctx.gatewayAccounts.connectorOf(account).hostedFields();
    if (hosted) entries.push(hosted);
  }
  const framed = new Set(entries.map((hosted) => hosted.origin));
  const scripts = new Set(entries.filter((hosted) => hosted.kind === 'script').map((h) => h.origin));
  return { framed: [...framed], scripts: [...scripts] };
}
