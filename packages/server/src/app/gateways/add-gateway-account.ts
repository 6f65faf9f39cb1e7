import type { CreateGatewayAccountBody } from '@paygate/contract';
import { ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { GatewayAccountFields } from '../../gateways/accounts.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  GatewayIdTakenError,
  insertGatewayAccount,
} from '../../storage/repositories/gateway-accounts-operator.ts';
import type { AppContext } from '../context.ts';
import { gatewayAccountResource } from '../resources/gateway-account.ts';
import { forgetRecentAccounts } from './connectors.ts';
import { checked, hints, merchantMustExist, RESERVED_GATEWAY_ID, trimmed } from './gateway-account-checks.ts';

/**
 * Adds a merchant's own account of a gateway in one mode, its credentials checked and sealed.
 * `audit` writes in the same transaction (the console's audit line).
 */
export async function addGatewayAccount(
  ctx: AppContext,
  merchantId: string,
  input: CreateGatewayAccountBody,
  audit?: (tx: Queryable, accountId: string) => Promise<void>,
) {
  await merchantMustExist(ctx, merchantId);
  if (RESERVED_GATEWAY_ID.test(input.gateway_id)) {
    throw new ValidationError('gateway_id', 'must not start with "sim" or "gwa_" (reserved)');
  }
  const fields: GatewayAccountFields = {
    livemode: input.livemode,
    credentials: trimmed(input.credentials),
    settings: trimmed(input.settings),
  };
  checked(input.connector, fields);
  const id = newId('gwa');
  const now = ctx.clock.now();
  try {
    const account = await ctx.db.transaction(async (tx) => {
      const inserted = await insertGatewayAccount(tx, {
        id,
        merchantId,
        livemode: input.livemode,
        connector: input.connector,
        gatewayId: input.gateway_id,
        settings: fields.settings,
        credentialsSealed: ctx.gatewayAccounts.seal(id, fields.credentials),
        credentialsHint: hints(fields.credentials),
        status: 'enabled',
        createdAt: now,
        updatedAt: now,
      });
      await audit?.(tx, inserted.id);
      return inserted;
    });
    forgetRecentAccounts(ctx);
    return gatewayAccountResource(account, ctx.publicUrl);
  } catch (error) {
    if (error instanceof GatewayIdTakenError) {
      throw new ValidationError(
        'gateway_id',
        `the merchant already has a ${input.livemode ? 'live' : 'test'}-mode gateway account '${input.gateway_id}' (rotate its credentials, or enable it, instead)`,
      );
    }
    throw error;
  }
}
