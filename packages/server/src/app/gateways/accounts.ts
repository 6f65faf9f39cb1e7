import {
  ADMIN_LIST_DEFAULT_LIMIT,
  type CreateGatewayAccountBody,
  type RotateGatewayAccountCredentialsBody,
} from '@paygate/contract';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { GatewayAccountFieldError, type GatewayAccountFields, maskSecret } from '../../gateways/accounts.ts';
import { gatewayAccountConnectors, gatewayAccountKind } from '../../gateways/registry.ts';
import type { GatewayAccountStatus } from '../../storage/repositories/gateway-accounts.ts';
import {
  findGatewayAccount,
  type GatewayAccountListRow,
  GatewayIdTakenError,
  insertGatewayAccount,
  listGatewayAccounts as readPage,
  updateGatewayAccount,
} from '../../storage/repositories/gateway-accounts-operator.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';
import { type PageRequest, pageStart, toPage } from '../pagination.ts';
import { gatewayAccountResource } from '../resources/gateway-account.ts';
import { forgetRecentAccounts } from './connectors.ts';

// The operator's management of merchants' own gateway accounts. Credentials are checked by their
// connector, sealed under the master key and never returned; the answers show their last
// characters only.

/** Ids the simulated gateway uses, and the prefix notification addresses of accounts use. */
const RESERVED_GATEWAY_ID = /^(sim|gwa_)/;

function checked(connector: string, fields: GatewayAccountFields) {
  const kind = gatewayAccountKind(connector);
  if (!kind) {
    throw new ValidationError('connector', `must be one of: ${gatewayAccountConnectors().join(', ')}`);
  }
  try {
    kind.check(fields);
  } catch (error) {
    if (error instanceof GatewayAccountFieldError) throw new ValidationError(error.field, error.message);
    throw error;
  }
}

function hints(credentials: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([name, value]) => [name, maskSecret(value)]));
}

/** Trims every value, so a pasted key with a trailing newline is the key. */
function trimmed(values: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, value.trim()]));
}

async function merchantMustExist(ctx: AppContext, merchantId: string): Promise<void> {
  if (!(await findMerchant(ctx.db, merchantId))) throw new NotFoundError('merchant', merchantId);
}

export async function addGatewayAccount(
  ctx: AppContext,
  merchantId: string,
  input: CreateGatewayAccountBody,
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
    const account = await insertGatewayAccount(ctx.db, {
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

/** A merchant's gateway accounts, disabled ones included, newest first. */
export async function listGatewayAccounts(ctx: AppContext, merchantId: string, request: PageRequest) {
  const limit = request.limit ?? ADMIN_LIST_DEFAULT_LIMIT;
  const after = pageStart(request, 'gwa');
  await merchantMustExist(ctx, merchantId);
  const rows = await readPage(ctx.db, merchantId, { limit, after });
  return toPage(rows, limit, (row) => gatewayAccountResource(row, ctx.publicUrl));
}

function found(account: GatewayAccountListRow | null, accountId: string): GatewayAccountListRow {
  if (!account) throw new NotFoundError('gateway account', accountId);
  return account;
}

export async function retrieveGatewayAccount(ctx: AppContext, merchantId: string, accountId: string) {
  return gatewayAccountResource(
    found(await findGatewayAccount(ctx.db, merchantId, accountId), accountId),
    ctx.publicUrl,
  );
}

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
