import { createHmac } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import { clockedCache } from '../../clock.ts';
import { ValidationError } from '../../domain/errors.ts';
import { bytesToBase62 } from '../../domain/ids.ts';
import type {
  ChargeOutcome,
  ChargeRequest,
  GatewayConnector,
  KeepsConnectorData,
} from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import type { ChargeAttemptRecord } from '../../storage/repositories/charge-attempts.ts';
import {
  findAccountForGateway,
  type GatewayAccountRecord,
} from '../../storage/repositories/gateway-accounts.ts';
import type { PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';

/** Whose `gateway_id`, in which mode. */
export interface GatewayKey {
  merchantId: string;
  livemode: boolean;
  gatewayId: string;
}

/** The gateway key of a record that belongs to a merchant and mode (an intent, attempt, refund). */
export function gatewayKeyOf(record: GatewayKey): GatewayKey {
  return { merchantId: record.merchantId, livemode: record.livemode, gatewayId: record.gatewayId };
}

/**
 * The connector behind a merchant's `gateway_id`: the merchant's own account of that id in that
 * mode, else the process's gateway of that id (the simulator, or the operator's default account
 * from the environment). A merchant's account, even disabled, hides the process's gateway of the
 * same id: disabling an account never moves payments onto the operator's account.
 *
 * `forNewPayment`: a disabled account takes no new payment (create, confirm); payments already
 * made through it are still synced, refunded and notified about.
 */
export async function connectorFor(
  ctx: AppContext,
  key: GatewayKey,
  options: { forNewPayment: boolean; q?: Queryable; recent?: boolean },
): Promise<GatewayConnector | null> {
  const account = options.recent
    ? await recentAccountFor(ctx, key)
    : await findAccountForGateway(options.q ?? ctx.db, key);
  return connectorOfAccount(ctx, key, account, options.forNewPayment);
}

/** `connectorFor` with the merchant's account of `key` already read (null: it has none). */
export function connectorOfAccount(
  ctx: AppContext,
  key: GatewayKey,
  account: GatewayAccountRecord | null,
  forNewPayment: boolean,
): GatewayConnector | null {
  if (account) {
    if (forNewPayment && account.status !== 'enabled') return null;
    return ctx.gatewayAccounts.connectorOf(account);
  }
  return ctx.gateways.get(key.gatewayId);
}

/**
 * Which gateways would take `token` at all (`GatewayConnector.tokenProblem`): the process's
 * gateways by gateway_id, and the connectors of merchants' accounts by name. Known before the
 * intent is read, so that the confirm's first statement can check the intent's gateway itself.
 */
export function gatewaysTaking(ctx: AppContext, token: string): { process: string[]; accounts: string[] } {
  return { process: ctx.gateways.takingToken(token), accounts: ctx.gatewayAccounts.connectorsTaking(token) };
}

/**
 * Account lookups of the last seconds, for creates: a create is checked again at confirm, which
 * reads the account itself, so a change reaches every process before any charge is sent.
 */
const RECENT_ACCOUNT_TTL_MS = 2_000;
const recentByContext = new WeakMap<
  AppContext['gatewayAccounts'],
  LRUCache<string, { account: GatewayAccountRecord | null }>
>();

async function recentAccountFor(ctx: AppContext, key: GatewayKey): Promise<GatewayAccountRecord | null> {
  let recent = recentByContext.get(ctx.gatewayAccounts);
  if (!recent) {
    recent = clockedCache(ctx.clock, { maxEntries: 10_000, ttlMs: RECENT_ACCOUNT_TTL_MS });
    recentByContext.set(ctx.gatewayAccounts, recent);
  }
  const cacheKey = `${key.merchantId}\u0000${key.livemode}\u0000${key.gatewayId}`;
  const hit = recent.get(cacheKey);
  if (hit) return hit.account;
  const account = await findAccountForGateway(ctx.db, key);
  recent.set(cacheKey, { account });
  return account;
}

/** Forgets this process's recent lookups (after an operator changed an account). */
export function forgetRecentAccounts(ctx: AppContext): void {
  recentByContext.get(ctx.gatewayAccounts)?.clear();
}

/**
 * The connector for a new payment, or `400 validation_error` naming `gateway_id`. `recent`: a
 * lookup of the last seconds will do (create; confirm reads the account itself).
 */
export async function connectorForNewPayment(
  ctx: AppContext,
  key: GatewayKey,
  options: { q?: Queryable; recent?: boolean } = {},
): Promise<GatewayConnector> {
  const connector = await connectorFor(ctx, key, { forNewPayment: true, ...options });
  if (!connector) throw noGatewayError(key);
  return connector;
}

/** `400 validation_error` naming `gateway_id`: nothing usable for new payments by that id. */
export function noGatewayError(key: GatewayKey): ValidationError {
  return new ValidationError(
    'gateway_id',
    `no enabled gateway '${key.gatewayId}' for this merchant in ${key.livemode ? 'live' : 'test'} mode; the operator adds gateway accounts per merchant and mode`,
  );
}

// The return address a gateway sends the payer back to (the route is app/gateways/returns.ts). It
// is built on the confirm path, which is why it lives here: `<public URL>/gateway-returns/<pi id>.
// <attempt number>.<MAC>`, the MAC under a key derived from the master key.

const RETURN_MAC_LENGTH = 22;

export const GATEWAY_RETURN_PATH = '/gateway-returns';

/** The MAC of an attempt's return address (22 base62 characters). */
export function gatewayReturnMac(ctx: AppContext, paymentIntentId: string, attemptNumber: number): string {
  const mac = createHmac('sha256', ctx.gatewayReturnKey)
    .update(`${paymentIntentId}:${attemptNumber}`)
    .digest();
  return bytesToBase62(mac, RETURN_MAC_LENGTH);
}

/** The return address given to a gateway for one attempt; the same every time it is built. */
export function gatewayReturnUrl(
  ctx: AppContext,
  attempt: { paymentIntentId: string; attemptNumber: number },
): string {
  const { paymentIntentId, attemptNumber } = attempt;
  return `${ctx.publicUrl}${GATEWAY_RETURN_PATH}/${paymentIntentId}.${attemptNumber}.${gatewayReturnMac(ctx, paymentIntentId, attemptNumber)}`;
}

/**
 * Where the gateway sends the payer back after its page: Paygate's return route when the connector
 * has a completion step, else the intent's own `return_url` (the simulated gateway reports every
 * outcome by notification and sends the payer straight on).
 */
export function gatewayReturnAddress(
  ctx: AppContext,
  connector: GatewayConnector,
  intent: { returnUrl: string | null },
  attempt: { paymentIntentId: string; attemptNumber: number },
): string | null {
  return connector.completeAction ? gatewayReturnUrl(ctx, attempt) : intent.returnUrl;
}

// Calling a connector and reading its answer: what a charge asks, an answer that is never success
// by default, and what of the answer is kept for the calls that follow (sync, refund).

/**
 * What the gateway is asked to charge for an attempt; the same every time it is sent again.
 * `returnUrl`: where the gateway sends the payer back (see `gatewayReturnAddress`).
 */
export function chargeRequestFor(
  intent: PaymentIntentRecord,
  attempt: ChargeAttemptRecord,
  returnUrl: string | null,
  options: { offSession?: boolean } = {},
): ChargeRequest {
  return {
    idempotencyKey: attempt.idempotencyKey,
    paymentIntentId: intent.id,
    amountMinor: intent.amountMinor,
    currency: intent.currency,
    paymentMethodToken: attempt.paymentMethodToken,
    livemode: intent.livemode,
    returnUrl,
    // A manual intent's charge is authorised only: the capture is its own call (app/captures/).
    ...(intent.captureMethod === 'manual' ? { capture: false } : {}),
    ...(intent.setupFutureUsage !== null ? { savePaymentMethod: true } : {}),
    ...(options.offSession ? { offSession: true } : {}),
  };
}

/** A connector that throws has given no readable answer: the outcome is unknown, never failure. */
export async function outcomeOrUnknown(
  connector: GatewayConnector,
  call: (connector: GatewayConnector) => Promise<ChargeOutcome>,
): Promise<ChargeOutcome> {
  try {
    return await call(connector);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unknown error';
    return { kind: 'indeterminate', detail: `connector ${connector.id} threw: ${reason}` };
  }
}

/** The longest connector data kept beside a gateway reference (see `KeepsConnectorData`). */
export const CONNECTOR_DATA_MAX_LENGTH = 4096;

/** The connector data of an outcome that may be kept, or null (none, or too long to keep). */
export function keptConnectorData(outcome: object): string | null {
  const data = (outcome as KeepsConnectorData).connectorData;
  return typeof data === 'string' && data.length <= CONNECTOR_DATA_MAX_LENGTH ? data : null;
}
