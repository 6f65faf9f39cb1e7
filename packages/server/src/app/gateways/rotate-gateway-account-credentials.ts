import type { RotateGatewayAccountCredentialsBody } from '@paygate/contract';
import type { Queryable } from '../../storage/db.ts';
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
 * `audit` writes in the same transaction (the console's audit line).
 */
export async function rotateGatewayAccountCredentials(
  ctx: AppContext,
  merchantId: string,
  accountId: string,
  input: RotateGatewayAccountCredentialsBody,
  audit?: (tx: Queryable, accountId: string) => Promise<void>,
) {
  const account = found(await findGatewayAccount(ctx.db, merchantId, accountId), accountId);
  const credentials = trimmed(input.credentials);
  checked(account.connector, { livemode: account.livemode, credentials, settings: account.settings });
  const updated = await ctx.db.transaction(async (tx) => {
    const row = found(
      await updateGatewayAccount(tx, merchantId, accountId, {
        credentialsSealed: ctx.gatewayAccounts.seal(accountId, credentials),
        credentialsHint: hints(credentials),
        updatedAt: ctx.clock.now(),
      }),
      accountId,
    );
    await audit?.(tx, row.id);
    return row;
  });
  return gatewayAccountResource(updated, ctx.publicUrl);
}
