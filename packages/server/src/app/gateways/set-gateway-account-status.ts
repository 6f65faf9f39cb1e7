import type { GatewayAccountStatus } from '../../storage/repositories/gateway-accounts.ts';
import { updateGatewayAccount } from '../../storage/repositories/gateway-accounts-operator.ts';
import type { AppContext } from '../context.ts';
import { gatewayAccountResource } from '../resources/gateway-account.ts';
import { forgetRecentAccounts } from './connectors.ts';
import { found } from './gateway-account-checks.ts';

/** Enables or disables an account; doing it twice changes nothing more. */
export async function setGatewayAccountStatus(
  ctx: AppContext,
  merchantId: string,
  accountId: string,
  status: GatewayAccountStatus,
) {
  const updated = await updateGatewayAccount(ctx.db, merchantId, accountId, {
    status,
    updatedAt: ctx.clock.now(),
  });
  forgetRecentAccounts(ctx);
  return gatewayAccountResource(found(updated, accountId), ctx.publicUrl);
}
