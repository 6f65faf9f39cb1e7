import { findGatewayAccount } from '../../storage/repositories/gateway-accounts-operator.ts';
import type { AppContext } from '../context.ts';
import { gatewayAccountResource } from '../resources/gateway-account.ts';
import { found } from './gateway-account-checks.ts';

/** One of a merchant's gateway accounts, as the operator sees it. */
export async function retrieveGatewayAccount(ctx: AppContext, merchantId: string, accountId: string) {
  return gatewayAccountResource(
    found(await findGatewayAccount(ctx.db, merchantId, accountId), accountId),
    ctx.publicUrl,
  );
}
