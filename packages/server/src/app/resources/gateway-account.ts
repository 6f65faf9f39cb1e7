import type { GatewayAccountRecord } from '../../storage/repositories/gateway-accounts.ts';

/** A gateway account as the operator sees it: credentials only as their last characters. */
export function gatewayAccountResource(account: GatewayAccountRecord, publicUrl: string) {
  return {
    id: account.id,
    object: 'gateway_account' as const,
    merchant_id: account.merchantId,
    livemode: account.livemode,
    connector: account.connector,
    gateway_id: account.gatewayId,
    status: account.status,
    settings: account.settings,
    credentials_hint: account.credentialsHint,
    notification_url: `${publicUrl}/gateway-notifications/${account.id}`,
    created_at: account.createdAt.toISOString(),
    updated_at: account.updatedAt.toISOString(),
  };
}
