import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { GatewayAccountFieldError, type GatewayAccountFields, maskSecret } from '../../gateways/accounts.ts';
import { gatewayAccountConnectors, gatewayAccountKind } from '../../gateways/registry.ts';
import type { GatewayAccountListRow } from '../../storage/repositories/gateway-accounts-operator.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import type { AppContext } from '../context.ts';

// What the use cases on merchants' own gateway accounts check and keep. Credentials are checked by
// their connector, sealed under the master key and never returned; the answers show their last
// characters only.

/** Ids the simulated gateway uses, and the prefix notification addresses of accounts use. */
export const RESERVED_GATEWAY_ID = /^(sim|gwa_)/;

/** The account's fields as its connector accepts them, or `400 validation_error` naming the field. */
export function checked(connector: string, fields: GatewayAccountFields) {
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

/** Each credential as its last characters only: what the answers show. */
export function hints(credentials: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([name, value]) => [name, maskSecret(value)]));
}

/** Trims every value, so a pasted key with a trailing newline is the key. */
export function trimmed(values: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, value.trim()]));
}

/** `404` for an unknown merchant. */
export async function merchantMustExist(ctx: AppContext, merchantId: string): Promise<void> {
  if (!(await findMerchant(ctx.db, merchantId))) throw new NotFoundError('merchant', merchantId);
}

/** The account, or `404` when the merchant has none by that id. */
export function found(account: GatewayAccountListRow | null, accountId: string): GatewayAccountListRow {
  if (!account) throw new NotFoundError('gateway account', accountId);
  return account;
}
