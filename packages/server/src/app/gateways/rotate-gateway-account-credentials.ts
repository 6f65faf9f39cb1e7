import type { RotateGatewayAccountCredentialsBody } from '@paygate/contract';
import {
  findGatewayAccount,
  updateGatewayAccount,
} from '../../storage/repositories/gateway-accounts-operator.ts';
import type { AppContext } from '../context.ts';
import { gatewayAccountResource } from '../resources/gateway-account.ts';
import { checked, found, hints, trimmed } from './gateway-account-checks.ts';

/**
 * Replaces all of an account's credentials, checked against its connector, mode and settings.
 * Every process builds the connector again at its next use: the sealed value is its cache key.
 */
export async function rotateGatewayAccountCredentials(
  ctx: AppContext,
  merchantId: string,
  accountId: string,
  input: RotateGatewayAccountCredentialsBody,
) {
  const account = found(await findGatewayAccount(ctx.db, merchantId, accountId), accountId);
  const credentials = trimmed(input.credentials);
  checked(account.connector, { livemode: account.livemode, credentials, settings: account.settings });
  const updated = await updateGatewayAccount(ctx.db, merchantId, accountId, {
    credentialsSealed: ctx.gatewayAccounts.seal(accountId, credentials),
    credentialsHint: hints(credentials),
    updatedAt: ctx.clock.now(),
  });
  return gatewayAccountResource(found(updated, accountId), ctx.publicUrl);
}
