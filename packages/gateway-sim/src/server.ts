import Fastify, { type FastifyError } from 'fastify';
import { apiRoutes } from './api-routes.ts';
import type { Retention } from './books.ts';
import { browserRoutes } from './browser-routes.ts';
import type { SimAccount, SimContext } from './context.ts';
import { type ChargeResource, Ledger, type RefundResource, type SimClock, SimError } from './ledger.ts';
import { type NotificationRecord, Notifier } from './notifier.ts';

export interface GatewaySimOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** The shared secret of the charge and refund API (`Authorization: Bearer <apiSecret>`). */
  apiSecret: string;
  /** Where signed notifications are POSTed; null sends none (they are logged as failed). */
  notificationUrl: string | null;
  notificationSecret: string;
  /** The address put into redirect URLs (default: the listening address). */
  publicUrl?: string;
  /**
   * The Paygate service this simulator serves. A request for a route the simulator does not have
   * (most often an API call sent to the simulator's port by mistake) is then answered in the
   * service's problem shape, pointing at this address.
   */
  serviceUrl?: string;
  /** Latency added to every API answer (default 0). */
  responseDelayMs?: number;
  /** How long `tok_sim_hang` withholds its answer (default 120 000). */
  hangMs?: number;
  /**
   * Seconds of the simulator's clock after which a pending refund settles as succeeded by itself
   * (so the test clock settles them); null (default) waits for a control call.
   */
  refundSettleDelaySeconds?: number | null;
  /**
   * A second, live-capable account: its charges and refunds are `livemode: true`, kept apart from
   * the test account's (another account's objects and idempotency keys are not found).
   */
  liveAccount?: { apiSecret: string; notificationSecret: string; notificationUrl: string | null } | null;
  /** Pauses before each retry of a notification (default [500, 2000, 5000]: four attempts in all). */
  notificationRetryDelaysMs?: readonly number[];
  /** Signature timestamps and `created` fields read this clock (default: real time), e.g. Paygate's test clock. */
  clock?: SimClock;
  /** How long and how many settled charges the books keep (default: 26 hours, 100,000 charges). */
  retention?: Retention;
}

export interface GatewaySim {
  /** Base URL of the simulator, without a trailing slash. */
  readonly url: string;
  readonly origin: string;
  /** Changes where an account's notifications go (the service may start after the simulator). */
  setNotificationUrl(url: string | null, livemode?: boolean): void;
  /** Settles a pending refund (the late-settling rule) and notifies the service. */
  settlePendingRefund(refundId: string, outcome?: 'succeeded' | 'failed'): RefundResource;
  /** The notifications sent (the last 10,000), with their attempts and fate. */
  notifications(): NotificationRecord[];
  /** Resolves when no notification is being delivered or waiting for a retry. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const BODY_LIMIT_BYTES = 64 * 1024;

/** Starts the simulated external gateway on its own port (its own origin). */
export async function startGatewaySim(options: GatewaySimOptions): Promise<GatewaySim> {
  const clock = options.clock ?? { now: () => new Date() };
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Closing ends every connection, also one whose answer is still withheld by tok_sim_hang.
    forceCloseConnections: true,
    // A gateway is strict about its input: no coercion, no silent removal of unknown fields.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
  });
  let baseUrl = '';
  const ledger = new Ledger(clock, (chargeId) => `${baseUrl}/challenge/${chargeId}`, options.retention);
  const accounts: SimAccount[] = [
    { livemode: false, apiSecret: options.apiSecret, notificationSecret: options.notificationSecret },
  ];
  if (options.liveAccount) accounts.push({ livemode: true, ...options.liveAccount });
  const notifiers = new Map<boolean, Notifier>();
  for (const account of accounts) {
    const url = account.livemode ? (options.liveAccount?.notificationUrl ?? null) : options.notificationUrl;
    notifiers.set(
      account.livemode,
      new Notifier({
        url,
        secret: account.notificationSecret,
        clock,
        retryDelaysMs: options.notificationRetryDelaysMs ?? [500, 2000, 5000],
        attemptTimeoutMs: 5000,
      }),
    );
  }
  const notifierOf = (livemode: boolean): Notifier => {
    const notifier = notifiers.get(livemode);
    if (!notifier) throw new SimError(404, 'account_not_found', 'No such account.');
    return notifier;
  };
  const closing = new AbortController();

  function notify(subject: 'charge', data: ChargeResource): void;
  function notify(subject: 'refund', data: RefundResource): void;
  function notify(subject: 'charge' | 'refund', data: ChargeResource | RefundResource): void {
    const notifier = notifierOf(data.livemode);
    if (subject === 'charge' && data.object === 'charge') notifier.send('charge', data);
    if (subject === 'refund' && data.object === 'refund') notifier.send('refund', data);
  }
  const settleRefund = (refundId: string, outcome: 'succeeded' | 'failed'): RefundResource => {
    const refund = ledger.settleRefund(refundId, outcome);
    notify('refund', refund);
    return refund;
  };
  const settleDelaySeconds = options.refundSettleDelaySeconds ?? null;
  const settleDueRefunds = (): void => {
    if (settleDelaySeconds === null) return;
    const createdBy = Math.floor(clock.now().getTime() / 1000) - settleDelaySeconds;
    for (const refund of ledger.pendingRefundsCreatedBy(createdBy)) settleRefund(refund.id, 'succeeded');
  };
  const ctx: SimContext = {
    ledger,
    accounts,
    responseDelayMs: options.responseDelayMs ?? 0,
    hang: () => abortableDelay(options.hangMs ?? 120_000, closing.signal),
    notify,
    settleRefund,
    settleDueRefunds,
  };
  // The clock may be moved from elsewhere (the shared test clock), so due refunds are looked for
  // every second as well as before every API request.
  const settleTimer = settleDelaySeconds === null ? null : setInterval(settleDueRefunds, 1000);
  settleTimer?.unref();

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.setErrorHandler((error: FastifyError | SimError, _request, reply) => {
    if (error instanceof SimError) {
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ error: { code: error.code, message: error.message } });
    }
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    const code = error.validation ? 'invalid_request' : status === 500 ? 'internal_error' : 'bad_request';
    // Only schema messages are echoed: they name fields, never values (a parser's message could
    // quote the body, and the body of /v1/tokens holds a card number).
    const message = error.validation
      ? error.message
      : status === 500
        ? 'Internal error.'
        : 'Malformed request.';
    return reply.code(status).send({ error: { code, message } });
  });
  app.setNotFoundHandler((request, reply) => {
    if (!options.serviceUrl)
      return reply.code(404).send({ error: { code: 'not_found', message: 'No such route.' } });
    const path = request.url.split('?')[0];
    // The service's problem document (RFC 9457 with Paygate's code), spelled out here: the
    // simulator stands for an external gateway and does not depend on the service's packages.
    return reply
      .code(404)
      .type('application/problem+json')
      .send({
        type: 'urn:paygate:problem:resource_not_found',
        title: 'Resource not found',
        status: 404,
        detail: `This is the simulated gateway, not the Paygate API: it has no route ${request.method} ${path}. Send API requests to ${options.serviceUrl}${path}.`,
        code: 'resource_not_found',
        request_id: request.id,
      });
  });
  app.get('/health', async () => ({ ok: true }));
  await app.register(async (scope) => apiRoutes(scope, ctx));
  await app.register(async (scope) => browserRoutes(scope, ctx));

  const listenUrl = await app.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  baseUrl = (options.publicUrl ?? listenUrl).replace(/\/+$/, '');

  return {
    url: baseUrl,
    origin: new URL(baseUrl).origin,
    setNotificationUrl: (url, livemode = false) => notifierOf(livemode).setUrl(url),
    settlePendingRefund: (refundId, outcome = 'succeeded') => settleRefund(refundId, outcome),
    notifications: () => [...notifiers.values()].flatMap((notifier) => notifier.log()),
    idle: async () => {
      await Promise.all([...notifiers.values()].map((notifier) => notifier.idle()));
    },
    close: async () => {
      closing.abort();
      if (settleTimer) clearInterval(settleTimer);
      await Promise.all([...notifiers.values()].map((notifier) => notifier.stop()));
      await app.close();
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
