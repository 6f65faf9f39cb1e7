import { type Clock, systemClock } from '../../clock.ts';
import { currencyExponent } from '../../domain/money.ts';
import { type GatewayConnector, type GatewayNotification, GatewayNotificationError } from '../connector.ts';
import { createGatewayHttpExecutor } from '../http-executor.ts';
import { verifyTimestampedSignature } from '../timestamped-signature.ts';
import { readSimBooks } from './books.ts';
import {
  buildAuthorizationCall,
  buildCreateCharge,
  buildCreateRefund,
  buildDetachPaymentMethod,
  buildReadBooks,
  buildRetrieveCharge,
  buildRetrieveRefund,
  chargeOutcomeOf,
  isObject,
  parseAuthorizationReply,
  parseBooksReply,
  parseChargeReply,
  parseDetachReply,
  parseRefundLookupReply,
  parseRefundReply,
  refundOutcomeOf,
} from './wire.ts';

export interface SimConnectorOptions {
  /**
   * Which account of the simulator this connector speaks for: the test account (gateway `sim`,
   * the default) or the live-capable one (gateway `sim_live`, which only tests configure: the
   * contract keeps `sim` out of live mode).
   */
  account?: 'test' | 'live';
  /** The simulated gateway's base URL, e.g. `http://127.0.0.1:8081`. */
  baseUrl: string;
  apiSecret: string;
  notificationSecret: string;
  /** Per request, including reading the answer (default 10 000). */
  requestTimeoutMs?: number;
  /** Read for the notification signature tolerance (default: the system clock). */
  clock?: Clock;
}

export const SIM_CURRENCIES: ReadonlySet<string> = new Set([
  'USD',
  'EUR',
  'GBP',
  'CLP',
  'JPY',
  'MXN',
  'BRL',
  'KWD',
]);

/** `Retry-After` is capped at the contract's 60 seconds. */
const MAX_RETRY_AFTER_SECONDS = 60;
const MAX_REPLY_BYTES = 1024 * 1024;

/** Minimum charge per currency exponent: 50 for two decimals, 1 for none, 500 for three. */
function minimumFor(currency: string): number {
  if (!SIM_CURRENCIES.has(currency)) throw new RangeError(`the sim gateway does not take ${currency}`);
  const exponent = currencyExponent(currency);
  if (exponent === 0) return 1;
  if (exponent === 3) return 500;
  return 50;
}

/** The sim gateway sends one notification per request, so it also parses a single one. */
export type SimConnector = GatewayConnector & {
  /** The simulator keeps payment methods, so it always detaches them. */
  detachPaymentMethod: NonNullable<GatewayConnector['detachPaymentMethod']>;
  parseNotification(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): GatewayNotification;
};

/**
 * The connector of gateway `sim`, the simulated external gateway of test mode
 * (`packages/gateway-sim`), spoken to over HTTP like any real gateway: built like Stripe's, from
 * the pure requests and readings of `wire.ts` and the shared executor.
 */
export function createSimConnector(options: SimConnectorOptions): SimConnector {
  const account = { baseUrl: options.baseUrl.replace(/\/+$/, ''), apiSecret: options.apiSecret };
  const clock = options.clock ?? systemClock;
  const livemode = options.account === 'live';
  const id = livemode ? 'sim_live' : 'sim';
  const rightMode = (request: { livemode: boolean }, what: string): void => {
    if (request.livemode !== livemode) {
      throw new Error(`gateway ${id} never takes ${request.livemode ? 'live' : 'test'}-mode ${what}`);
    }
  };
  const execute = createGatewayHttpExecutor({
    gatewayId: id,
    clock,
    timeoutMs: options.requestTimeoutMs ?? 10_000,
    maxReplyBytes: MAX_REPLY_BYTES,
    maxRetryAfterSeconds: MAX_RETRY_AFTER_SECONDS,
  });

  function parseNotification(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): GatewayNotification {
    const header = headers['sim-signature'];
    verifyTimestampedSignature(
      'Sim-Signature',
      Array.isArray(header) ? header[0] : header,
      rawBody,
      options.notificationSecret,
      clock,
    );
    return notificationOf(rawBody);
  }

  return {
    id,
    allowsLivemode: livemode,
    savesPaymentMethods: true,
    currencies: SIM_CURRENCIES,
    minimumAmountMinor: minimumFor,
    async charge(request) {
      rightMode(request, 'charges');
      return parseChargeReply(await execute(buildCreateCharge(account, request)), request.idempotencyKey);
    },
    async syncCharge(request) {
      // A 404 here means the gateway has no such charge: nothing was charged, so it reads as failed.
      return parseChargeReply(await execute(buildRetrieveCharge(account, request)), request.idempotencyKey);
    },
    async refund(request) {
      rightMode(request, 'refunds');
      return parseRefundReply(await execute(buildCreateRefund(account, request)), request.idempotencyKey);
    },
    async detachPaymentMethod(request) {
      rightMode(request, 'detaches');
      return parseDetachReply(await execute(buildDetachPaymentMethod(account, request)), request);
    },
    async capture(request) {
      rightMode(request, 'captures');
      return parseAuthorizationReply(await execute(buildAuthorizationCall(account, request)), request);
    },
    async voidAuthorization(request) {
      rightMode(request, 'voids');
      return parseAuthorizationReply(await execute(buildAuthorizationCall(account, request)), request);
    },
    async syncRefund(request) {
      return parseRefundLookupReply(await execute(buildRetrieveRefund(account, request)), request);
    },
    parseNotifications(rawBody, headers) {
      return { items: [parseNotification(rawBody, headers)], acknowledgement: null };
    },
    parseNotification,
    hostedFields() {
      return {
        url: `${account.baseUrl}/hosted-fields`,
        origin: new URL(account.baseUrl).origin,
        component: 'sim',
      };
    },
    readBooks(window) {
      return readSimBooks(
        async (path) => parseBooksReply(await execute(buildReadBooks(account, path)), path),
        window,
      );
    },
  };
}

/** The body of a verified notification; a shape we cannot read is refused, never guessed. */
function notificationOf(rawBody: Buffer): GatewayNotification {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new GatewayNotificationError('notification body is not JSON');
  }
  if (!isObject(body) || typeof body.id !== 'string' || body.id.length === 0 || !isObject(body.data)) {
    throw new GatewayNotificationError('notification body has no id or data');
  }
  const idempotencyKey = body.data.idempotency_key;
  if (typeof idempotencyKey !== 'string' || idempotencyKey.length === 0) {
    throw new GatewayNotificationError('notification data has no idempotency_key');
  }
  if (body.subject === 'charge') {
    const outcome = chargeOutcomeOf(body.data, idempotencyKey);
    if (outcome.kind === 'indeterminate') throw new GatewayNotificationError(outcome.detail);
    return { notificationId: body.id, subject: 'charge', idempotencyKey, outcome };
  }
  if (body.subject === 'refund') {
    const outcome = refundOutcomeOf(body.data, idempotencyKey);
    if (outcome.kind === 'indeterminate') throw new GatewayNotificationError(outcome.detail);
    return { notificationId: body.id, subject: 'refund', idempotencyKey, outcome };
  }
  throw new GatewayNotificationError('notification subject is neither charge nor refund');
}
