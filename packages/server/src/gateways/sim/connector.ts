import { type Clock, systemClock } from '../../clock.ts';
import { currencyExponent } from '../../domain/money.ts';
import {
  type ChargeOutcome,
  type ChargeRequest,
  type GatewayConnector,
  type GatewayNotification,
  GatewayNotificationError,
  type RefundOutcome,
  type RefundRequest,
  type SyncChargeRequest,
  type SyncRefundRequest,
} from '../connector.ts';
import { createGatewayHttpExecutor, type ReplyHeaders } from '../http-executor.ts';
import { verifyTimestampedSignature } from '../timestamped-signature.ts';
import { readSimBooks } from './books.ts';
import { chargeOutcomeOf, errorOf, isObject, refundOutcomeOf } from './wire.ts';

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

/** Seconds to wait after a 503 without a usable Retry-After; the contract caps it at 60. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;
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

type Reply =
  | { kind: 'answer'; status: number; headers: ReplyHeaders; body: unknown }
  | { kind: 'none'; detail: string };

/**
 * The connector of gateway `sim`, the simulated external gateway of test mode
 * (`packages/gateway-sim`), spoken to over HTTP like any real gateway.
 */
/** Where a charge or refund is read back: by the gateway's reference when known, else by our key. */
function syncPath(
  resource: 'charges' | 'refunds',
  request: { idempotencyKey: string; gatewayReference: string | null },
): string {
  return request.gatewayReference
    ? `/v1/${resource}/${encodeURIComponent(request.gatewayReference)}`
    : `/v1/${resource}?idempotency_key=${encodeURIComponent(request.idempotencyKey)}`;
}

/** The sim gateway sends one notification per request, so it also parses a single one. */
export type SimConnector = GatewayConnector & {
  parseNotification(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): GatewayNotification;
};

export function createSimConnector(options: SimConnectorOptions): SimConnector {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
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
    timeoutMs,
    maxReplyBytes: MAX_REPLY_BYTES,
    maxRetryAfterSeconds: MAX_RETRY_AFTER_SECONDS,
  });

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Reply> {
    const reply = await execute({
      method,
      url: `${baseUrl}${path}`,
      headers: {
        authorization: `Bearer ${options.apiSecret}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (reply.kind === 'none') return { kind: 'none', detail: reply.detail };
    let parsed: unknown;
    try {
      parsed = reply.text ? JSON.parse(reply.text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { kind: 'answer', status: reply.status, headers: reply.headers, body: parsed };
  }

  function retryAfterSeconds(headers: ReplyHeaders): number {
    const value = headers.get('retry-after')?.trim() ?? '';
    let seconds = DEFAULT_RETRY_AFTER_SECONDS;
    if (/^\d+$/.test(value)) seconds = Number(value);
    else if (value !== '' && !Number.isNaN(Date.parse(value))) {
      seconds = Math.ceil((Date.parse(value) - clock.now().getTime()) / 1000);
    }
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds));
  }

  /**
   * What a reply that is not a resource means. A 503/429 or a refusal of our credentials is a
   * definite "not taken"; a 4xx refusal of the request itself is a failure; anything else,
   * including a 5xx or a reused idempotency key, leaves the outcome unknown.
   */
  function refusal(
    reply: Reply,
  ):
    | { kind: 'unavailable'; retryAfterSeconds: number; detail: string }
    | { kind: 'failed'; message: string }
    | { kind: 'indeterminate'; detail: string } {
    if (reply.kind === 'none') return { kind: 'indeterminate', detail: reply.detail };
    const { code, message } = errorOf(reply.body);
    const detail = `simulated gateway answered ${reply.status} ${code}: ${message}`;
    if (reply.status === 503 || reply.status === 429) {
      return { kind: 'unavailable', retryAfterSeconds: retryAfterSeconds(reply.headers), detail };
    }
    if (reply.status === 401 || reply.status === 403) {
      return { kind: 'unavailable', retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS, detail };
    }
    if (reply.status >= 400 && reply.status < 500 && code !== 'idempotency_key_in_use') {
      return { kind: 'failed', message: detail };
    }
    return { kind: 'indeterminate', detail };
  }

  function chargeOutcome(reply: Reply, idempotencyKey: string): ChargeOutcome {
    if (reply.kind === 'answer' && reply.status === 200) return chargeOutcomeOf(reply.body, idempotencyKey);
    const meaning = refusal(reply);
    if (meaning.kind !== 'failed') return meaning;
    return {
      kind: 'failed',
      gatewayReference: null,
      failureCode: 'gateway_rejected',
      message: meaning.message,
    };
  }

  function refundOutcome(reply: Reply, idempotencyKey: string): RefundOutcome {
    if (reply.kind === 'answer' && reply.status === 200) return refundOutcomeOf(reply.body, idempotencyKey);
    const meaning = refusal(reply);
    if (meaning.kind !== 'failed') return meaning;
    return { kind: 'failed', gatewayReference: null, message: meaning.message };
  }

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
    currencies: SIM_CURRENCIES,
    minimumAmountMinor: minimumFor,

    async charge(request: ChargeRequest): Promise<ChargeOutcome> {
      rightMode(request, 'charges');
      const reply = await call('POST', '/v1/charges', {
        idempotency_key: request.idempotencyKey,
        reference: request.paymentIntentId,
        amount_minor: request.amountMinor,
        currency: request.currency,
        token: request.paymentMethodToken,
        return_url: request.returnUrl,
      });
      return chargeOutcome(reply, request.idempotencyKey);
    },

    async syncCharge(request: SyncChargeRequest): Promise<ChargeOutcome> {
      // A 404 here means the gateway has no such charge: nothing was charged, so it reads as failed.
      return chargeOutcome(await call('GET', syncPath('charges', request)), request.idempotencyKey);
    },

    async refund(request: RefundRequest): Promise<RefundOutcome> {
      rightMode(request, 'refunds');
      const reply = await call('POST', '/v1/refunds', {
        idempotency_key: request.idempotencyKey,
        reference: request.paymentIntentId,
        charge: request.chargeReference,
        amount_minor: request.amountMinor,
        currency: request.currency,
      });
      return refundOutcome(reply, request.idempotencyKey);
    },

    async syncRefund(request: SyncRefundRequest): Promise<RefundOutcome> {
      const reply = await call('GET', syncPath('refunds', request));
      // Looked up by our key, a 404 means the gateway made no refund with it: nothing was
      // refunded, and the same request may be sent again (app/refunds/reconcile-refunds.ts).
      if (!request.gatewayReference && reply.kind === 'answer' && reply.status === 404) {
        return {
          kind: 'unavailable',
          retryAfterSeconds: 0,
          detail: 'the simulated gateway has no such refund',
        };
      }
      return refundOutcome(reply, request.idempotencyKey);
    },

    parseNotifications(rawBody, headers) {
      return { items: [parseNotification(rawBody, headers)], acknowledgement: null };
    },

    parseNotification,

    hostedFields() {
      return { url: `${baseUrl}/hosted-fields`, origin: new URL(baseUrl).origin, component: 'sim' };
    },

    readBooks(window) {
      return readSimBooks(async (path) => {
        const reply = await call('GET', path);
        if (reply.kind !== 'answer' || reply.status !== 200) {
          throw new Error(
            reply.kind === 'none' ? reply.detail : `simulated gateway answered ${reply.status} to ${path}`,
          );
        }
        return reply.body;
      }, window);
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
