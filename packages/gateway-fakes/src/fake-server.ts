// What both fakes share: a real HTTP server, body reading, a notification sender whose deliveries
// tests can wait for, the payer's challenge page, and an idempotency store like the gateways'.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// escape-html escapes & < > " ' for element content and quoted attribute values.
import escapeHtml from 'escape-html';
import type { SpecViolation } from './spec-validator.ts';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: string;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type FakeHandler = (request: FakeRequest) => Promise<FakeAnswer>;

export const json = (status: number, body: unknown): FakeAnswer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const MAX_BODY_BYTES = 256 * 1024;

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface StartedServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1:`port` (0: any free port). */
export async function startFakeServer(port: number, handler: FakeHandler): Promise<StartedServer> {
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    open.add(response);
    response.on('close', () => open.delete(response));
    void (async () => {
      const rawBody = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://fake.invalid');
      const answer =
        rawBody === null
          ? json(413, { error: 'body too large' })
          : await handler({
              method: request.method ?? 'GET',
              path: url.pathname,
              query: url.searchParams,
              headers: request.headers,
              rawBody,
            }).catch((error: unknown) => json(500, { error: String(error) }));
      if (response.destroyed) return;
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? '');
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    async close() {
      for (const response of open) response.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Posts notifications to the service; `idle()` resolves once every one sent so far has landed. */
export class Notifier {
  private readonly inFlight = new Set<Promise<void>>();
  /** Notifications kept back while held (a test proving the payer's return alone completes). */
  private held: Array<{ body: string; headers: Record<string, string> }> | null = null;
  readonly delivered: Array<{ status: number; body: string }> = [];
  /** Every notification sent (or held), in order, for `resend`. */
  private readonly sent: Array<{ body: string; headers: Record<string, string> }> = [];

  /** Whether answers wait for the notifications sent while they were worked out (`answersAfter`). */
  private outrun = false;

  constructor(private targetUrl: string | null) {}

  /**
   * Makes the notifications outrun the answers: while on, an answer goes out only once the
   * notifications sent so far have landed, as a gateway's webhook may reach the service before its
   * own answer does (Adyen notifies as it answers). The order is then certain, not a race.
   */
  outrunAnswers(on: boolean): void {
    this.outrun = on;
  }

  /** `handler`, whose answers wait for the notifications while `outrunAnswers` is on. */
  answersAfter(handler: FakeHandler): FakeHandler {
    return async (request) => {
      const answer = await handler(request);
      if (this.outrun) await this.idle();
      return answer;
    };
  }

  /** Where later notifications go (a service that started after its fake). */
  retarget(url: string | null): void {
    this.targetUrl = url;
  }

  /** Keeps later notifications back until `release()`, like a gateway whose webhooks lag. */
  hold(): void {
    this.held ??= [];
  }

  /**
   * Sends what was held, in order (or last first: notifications that arrive out of order, as the
   * gateways say they may), and stops holding.
   */
  release(order: 'as_sent' | 'last_first' = 'as_sent'): number {
    const held = this.held ?? [];
    this.held = null;
    for (const n of order === 'last_first' ? [...held].reverse() : held) this.send(n.body, n.headers);
    return held.length;
  }

  /** The body of every distinct notification sent or held so far, in order. */
  sentBodies(): string[] {
    return this.sent.map((n) => n.body);
  }

  /** Sends the last `count` notifications again, byte for byte (a gateway's redelivery). */
  resend(count: number): number {
    const again = this.sent.slice(-count);
    for (const n of again) this.send(n.body, n.headers);
    return again.length;
  }

  send(body: string, headers: Record<string, string>): void {
    if (!this.targetUrl) return;
    if (!this.sent.some((n) => n.body === body)) this.sent.push({ body, headers });
    if (this.held) {
      this.held.push({ body, headers });
      return;
    }
    const target = this.targetUrl;
    const delivery = (async () => {
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        this.delivered.push({ status: response.status, body: await response.text() });
      } catch (error) {
        this.delivered.push({ status: 0, body: String(error) });
      }
    })();
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}

/** The gateways' idempotency: the first answer per key is replayed; a key still running is a conflict. */
export class IdempotencyStore {
  private readonly answers = new Map<string, { fingerprint: string; answer: FakeAnswer | null }>();

  /**
   * Runs `work` once per `Idempotency-Key` of a POST (a request without one always runs). The key
   * seen again replays the first answer, or answers `conflict` while the first still runs, or
   * `mismatch` when `fingerprint` (what the gateway compares of a request) differs.
   */
  async run(
    request: FakeRequest,
    fingerprint: string,
    refusals: { conflict: FakeAnswer; mismatch: FakeAnswer },
    work: () => Promise<FakeAnswer>,
  ): Promise<FakeAnswer> {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || typeof key !== 'string' || key === '') return work();
    const digest = createHash('sha256').update(fingerprint).digest('hex');
    const known = this.answers.get(key);
    if (known) return known.fingerprint !== digest ? refusals.mismatch : (known.answer ?? refusals.conflict);
    const entry: { fingerprint: string; answer: FakeAnswer | null } = { fingerprint: digest, answer: null };
    this.answers.set(key, entry);
    entry.answer = await work();
    return entry.answer;
  }
}

/**
 * How a gateway fails a refund request, as real ones do: a 500 after the refund was made (its
 * answer, stored under the key, is what a retry gets), a 500 before anything was done (nothing
 * stored: a retry makes it), or the refund made and its answer held back past the caller's
 * time-out.
 */
export type RefundFailure = 'error-after-work' | 'error-before-work' | 'timeout';

/** The failures planned for the next refund requests, in order, and every refund request seen. */
export class RefundFailurePlan {
  private readonly planned: RefundFailure[] = [];
  readonly requests: Array<{ idempotencyKey: string | null; body: string }> = [];

  constructor(private readonly hangMs: number) {}

  add(failure: RefundFailure, times: number): void {
    for (let i = 0; i < times; i += 1) this.planned.push(failure);
  }

  /** Runs one refund request (`run` does the work, idempotency included) with the next failure. */
  async apply(request: FakeRequest, serverError: FakeAnswer, run: () => Promise<FakeAnswer>) {
    const key = request.headers['idempotency-key'];
    this.requests.push({ idempotencyKey: typeof key === 'string' ? key : null, body: request.rawBody });
    const failure = this.planned.shift();
    if (failure === 'error-before-work') return serverError;
    const answer = await run();
    if (failure === 'error-after-work') return serverError;
    if (failure === 'timeout') {
      await new Promise((resolve) => setTimeout(resolve, this.hangMs).unref());
    }
    return answer;
  }
}

/** What a test holds of a running fake, Stripe's or Adyen's alike. */
export interface GatewayFake {
  url: string;
  origin: string;
  /** Every request refused by the description, for tests to assert there were none. */
  violations: Array<{ operation: string; problems: string[] }>;
  /** Settles pending refunds (amounts ending in 99 fail) and notifies their outcomes. */
  settleRefunds(): number;
  /** Fails the next `times` refund requests as `failure` says (see {@link RefundFailure}). */
  failRefunds(failure: RefundFailure, times?: number): void;
  /** Every refund request that reached the fake (authenticated and valid), in order. */
  readonly refundRequests: ReadonlyArray<{ idempotencyKey: string | null; body: string }>;
  /** How many refunds the gateway's books hold. */
  refundCount(): number;
  /** Fails the next `times` capture or void (cancel) requests of an authorisation, as for refunds. */
  failCaptures(failure: RefundFailure, times?: number): void;
  /** Every capture and void request that reached the fake (authenticated and valid), in order. */
  readonly captureRequests: ReadonlyArray<{ idempotencyKey: string | null; body: string }>;
  /** Where later notifications go, e.g. once the service under test listens. */
  setNotificationUrl(url: string | null): void;
  /** Keeps notifications back (nothing reaches the service) until `releaseNotifications()`. */
  holdNotifications(): void;
  /** Sends the held notifications, in order or last first; answers how many there were. */
  releaseNotifications(order?: 'as_sent' | 'last_first'): number;
  /** Sends the last `count` notifications again, byte for byte, as a gateway redelivers. */
  resendNotifications(count: number): number;
  /** Answers only once the notifications they sent have landed (see `Notifier.outrunAnswers`). */
  notificationsOutrunAnswers(on: boolean): void;
  /** The status and body of every notification delivered, in order. */
  readonly delivered: ReadonlyArray<{ status: number; body: string }>;
  /** The body of every distinct notification the fake sent (or holds), in order. */
  notificationsSent(): string[];
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function gatewayFake(
  started: StartedServer,
  notifier: Notifier,
  violations: GatewayFake['violations'],
  refunds: { settle: () => number; plan: RefundFailurePlan; count: () => number },
  captures: RefundFailurePlan,
): GatewayFake {
  return {
    url: started.url,
    origin: started.url,
    violations,
    settleRefunds: refunds.settle,
    failRefunds: (failure, times = 1) => refunds.plan.add(failure, times),
    refundRequests: refunds.plan.requests,
    refundCount: refunds.count,
    failCaptures: (failure, times = 1) => captures.add(failure, times),
    captureRequests: captures.requests,
    setNotificationUrl: (url) => notifier.retarget(url),
    holdNotifications: () => notifier.hold(),
    releaseNotifications: (order) => notifier.release(order),
    resendNotifications: (count) => notifier.resend(count),
    notificationsOutrunAnswers: (on) => notifier.outrunAnswers(on),
    delivered: notifier.delivered,
    notificationsSent: () => notifier.sentBodies(),
    idle: () => notifier.idle(),
    close: () => started.close(),
  };
}

/**
 * Records the problems the description finds in a request (none: null); returns the first as the
 * text of the gateway's refusal.
 */
export function recordViolations(
  violations: GatewayFake['violations'],
  operation: string,
  problems: readonly SpecViolation[],
): string | null {
  const [first] = problems;
  if (!first) return null;
  violations.push({ operation, problems: problems.map((p) => `${p.path} ${p.message}`) });
  return `${first.path} ${first.message}`;
}

export function randomReference(length: number, alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'): string {
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

/** The payer's challenge page: approve or decline, as a bank's 3-D Secure page would ask. */
export function challengePage(gateway: string, action: string, amount: string): FakeAnswer {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><head><title>${escapeHtml(gateway)} test 3-D Secure</title></head><body>
<h1>${escapeHtml(gateway)} test authentication</h1><p>Amount: ${escapeHtml(amount)}</p>
<form method="post" action="${escapeHtml(action)}">
<button name="decision" value="approve" id="approve">Complete authentication</button>
<button name="decision" value="decline" id="decline">Fail authentication</button>
</form></body></html>`,
  };
}

export function redirectTo(location: string): FakeAnswer {
  return { status: 303, headers: { location } };
}
