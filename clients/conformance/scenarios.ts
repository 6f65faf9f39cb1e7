// The conformance scenarios, as data: one per rule of the specification's "Reference client
// behavior" and "Client-side errors" sections, the shared webhook vectors, money edge values and an
// end-to-end payment against the real service. Every client runs every scenario through its
// conformance driver; the runner (conformance.test.ts) knows no client.
//
// Every assert.ok carries its own message: without one, Node builds it by parsing the calling
// source, which under tsx (inline source maps) can take minutes.
//
// Time-outs are generous (seconds) wherever an answer is expected, so a loaded machine never turns
// a slow answer into a time-out; only the stalls wait for them.
//
// A scenario configures a fresh client (against the scripted server unless it says otherwise),
// scripts the server's answers, sends one command and states what must come back: the reply, the
// attempts, the back-off waits (recorded, never slept) and the requests the server saw. The few
// scenarios that need several commands say so in `run`.
import assert from 'node:assert/strict';
import { loadWebhookVectors, referenceSignature } from '@paygate/contract/webhook-vectors';
import { contractScenarios } from './contract-scenarios.ts';
import type { Command, DriverError, Json, Reply } from './driver-process.ts';
import type { RecordedRequest, Step } from './scripted-server.ts';
import { webhookSecretShapes } from './webhook-secret-shapes.ts';

export const SECRET_KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc00000000';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;
export const RETRY_AFTER_CAP_MS = 60_000;

/** What a scenario can reach. */
export interface Context {
  /** The scripted server's base address. */
  scripted: string;
  /** A loopback address where nothing listens: connections are refused before anything is sent. */
  refused: string;
  /** The real service (started once per suite run) and its merchant's keys. */
  service: () => Promise<ServiceEnv>;
  /** Sends one command to the driver under test. */
  send: (command: Command) => Promise<Reply>;
  /** Scripts the server for the next attempts, and reads what it saw. */
  script: (steps: Step[]) => void;
  requests: () => RecordedRequest[];
}

export interface ServiceEnv {
  PAYGATE_BASE_URL: string;
  PAYGATE_API_KEY: string;
  PAYGATE_PUBLISHABLE_KEY: string;
  PAYGATE_ADMIN_TOKEN: string;
  PAYGATE_MERCHANT_ID: string;
}

export interface Expectation {
  ok?: boolean;
  /** Deep-equal to the reply's result. */
  result?: Json;
  /** Fields the error must have (deep-equal each). */
  error?: Partial<DriverError>;
  attempts?: number;
  /** `[]` no wait; numbers: exactly these waits; `{ backoff: n }`: n full-jitter back-off waits. */
  sleeps?: number[] | { backoff: number };
  /** Checks on what the scripted server saw. */
  requests?: (requests: RecordedRequest[], reply: Reply) => void;
}

export interface Scenario {
  name: string;
  /** The rule of the specification (or the vector) the scenario checks, in its words. */
  rule: string;
  /** Fields of the `configure` command beyond the defaults (api_key, scripted base_url, record_sleeps). */
  configure?: Json;
  /** Where the client points: the scripted server (default) or an address that refuses connections. */
  target?: 'scripted' | 'refused';
  steps?: Step[];
  command?: Command;
  expect?: Expectation;
  /** For scenarios of several commands: does everything itself (no default configure). */
  run?: (ctx: Context) => Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Building blocks

function problem(status: number, code: string, extra: Json = {}): Json {
  return {
    type: `urn:paygate:problem:${code}`,
    title: code.replaceAll('_', ' '),
    status,
    detail: `scripted ${code}`,
    code,
    request_id: `req_body_${code}`,
    ...extra,
  };
}

function answer(status: number, code: string, headers: Record<string, string> = {}, extra: Json = {}): Step {
  return {
    status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': `req_${code}`, ...headers },
    body: problem(status, code, extra),
  };
}

const intent = (overrides: Json = {}): Json => ({
  id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
  object: 'payment_intent',
  amount_minor: 1999,
  amount_refunded_minor: 0,
  currency: 'USD',
  status: 'CREATED',
  gateway_id: 'sim',
  metadata: { order: 'A-1' },
  livemode: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const ok = (body: Json = intent()): Step => ({ status: 200, headers: { 'x-request-id': 'req_ok' }, body });
const created = (body: Json = intent()): Step => ({
  status: 201,
  headers: { 'x-request-id': 'req_ok' },
  body,
});

const retrieve: Command = { op: 'payment_intents.retrieve', resource_id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc' };
const create: Command = {
  op: 'payment_intents.create',
  params: { amount_minor: 1999, currency: 'USD', gateway_id: 'sim', metadata: { order: 'A-1' } },
};
const confirm: Command = {
  op: 'payment_intents.confirm',
  resource_id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
  params: { payment_method_token: 'tok_sim_approve' },
};
const refund: Command = {
  op: 'refunds.create',
  params: { payment_intent_id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc', amount_minor: 500 },
};
const capture: Command = {
  op: 'payment_intents.capture',
  resource_id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
  params: { amount_minor: 1500 },
};

/** Checks waits against full-jitter back-off: wait n lies in [0, min(8000, 500·2^n)]. */
export function assertBackoff(sleeps: number[], count: number): void {
  assert.equal(sleeps.length, count, `expected ${count} back-off waits, got ${JSON.stringify(sleeps)}`);
  sleeps.forEach((ms, n) => {
    const bound = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** n);
    assert.ok(ms >= 0 && ms <= bound, `wait ${n} is ${ms} ms, outside [0, ${bound}]`);
  });
}

// ---------------------------------------------------------------------------------------------
// Local configuration errors ("Client-side errors": invalid configuration raised locally)

const configurationErrors: Scenario[] = [
  ['publishable key', { api_key: 'pk_test_4eC39HqLyjWDarjtT1zdp7dc' }],
  ['empty api key', { api_key: '' }],
  ['base address that is not http or https', { base_url: 'ftp://127.0.0.1:9/' }],
  ['base address that is not an address', { base_url: 'not a url' }],
  ['zero time-out', { timeout_ms: 0 }],
  ['negative time-out', { timeout_ms: -1000 }],
].map(([what, fields]) => ({
  name: `configuration: a ${what} is refused locally`,
  rule: 'Client-side errors: invalid configuration (publishable key, base address, timeout) raises a configuration error locally',
  run: async (ctx: Context) => {
    const reply = await ctx.send({
      op: 'configure',
      api_key: SECRET_KEY,
      base_url: ctx.scripted,
      ...(fields as Json),
    });
    assert.equal(reply.ok, false, JSON.stringify(reply));
    assert.equal(reply.error?.kind, 'configuration', JSON.stringify(reply.error));
    assert.equal(reply.error?.root, true, 'a configuration error descends from the root error');
    assert.equal(ctx.requests().length, 0, 'nothing was sent');
  },
}));

const configuration: Scenario[] = [
  ...configurationErrors,
  {
    name: 'configuration: the trailing slash of the base address is removed',
    rule: 'Default base address: must be http or https; trailing slash removed',
    configure: { base_url_suffix: '/' },
    steps: [ok()],
    command: retrieve,
    expect: {
      ok: true,
      requests: ([request]) => assert.equal(request?.url, '/v1/payment-intents/pi_3Jd8kQ2mZx7LpR5vT9wB4nYc'),
    },
  },
  {
    name: 'protocol: an unknown op answers a configuration error',
    rule: 'CLIENTS.md: an unknown op answers ok false with kind configuration',
    command: { op: 'payment_intents.teleport' },
    expect: { ok: false, error: { kind: 'configuration' } },
  },
];

// ---------------------------------------------------------------------------------------------
// Retries: GET only, on 429 and 5xx, and network errors before the request was sent

const retries: Scenario[] = [
  {
    name: 'retries: maxRetries defaults to 2 (3 attempts) for a GET that keeps failing with 500',
    rule: 'maxRetries: 2 retries after the first attempt (3 attempts), GET only',
    configure: { max_retries: undefined },
    steps: [answer(500, 'internal_error'), answer(500, 'internal_error'), answer(500, 'internal_error')],
    command: retrieve,
    expect: {
      ok: false,
      error: { kind: 'api', code: 'internal_error', status: 500, request_id: 'req_internal_error' },
      attempts: 3,
      sleeps: { backoff: 2 },
    },
  },
  {
    name: 'retries: max_retries 0 makes exactly one attempt',
    rule: 'maxRetries is the number of retries after the first attempt',
    configure: { max_retries: 0 },
    steps: [answer(500, 'internal_error')],
    command: retrieve,
    expect: { ok: false, error: { code: 'internal_error' }, attempts: 1, sleeps: [] },
  },
  {
    name: 'retries: max_retries 1 makes two attempts',
    rule: 'maxRetries is the number of retries after the first attempt',
    configure: { max_retries: 1 },
    steps: [answer(500, 'internal_error'), answer(500, 'internal_error')],
    command: retrieve,
    expect: { ok: false, error: { code: 'internal_error' }, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'retries: a GET answered 429 is retried and succeeds',
    rule: 'Retried: GET on 429',
    steps: [answer(429, 'rate_limited'), ok()],
    command: retrieve,
    expect: { ok: true, result: { resource: intent() }, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'retries: a GET answered 502 with an HTML page is retried and succeeds',
    rule: 'Retried: GET on 5xx',
    steps: [
      { status: 502, headers: { 'content-type': 'text/html' }, body: '<html>Bad Gateway</html>' },
      ok(),
    ],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'retries: a GET answered 503 is retried and succeeds',
    rule: 'Retried: GET on 5xx',
    steps: [answer(503, 'gateway_unavailable'), ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'retries: a GET whose connection was dropped before the request was read is retried',
    rule: 'Retried: GET on network errors',
    steps: [{ drop: 'before_read' }, ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'retries: a GET whose connection was dropped after the request was read is retried',
    rule: 'Retried: GET on network errors (a GET is safe to repeat)',
    steps: [{ drop: 'after_read' }, ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'retries: a GET that times out is retried',
    rule: 'Request time-out per attempt; GET retried',
    configure: { timeout_ms: 3000 },
    steps: [{ stall: true }, ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'retries: a GET answered 404 is not retried',
    rule: 'Retried: GET on 429 and 5xx only',
    steps: [answer(404, 'resource_not_found')],
    command: retrieve,
    expect: { ok: false, error: { code: 'resource_not_found', status: 404 }, attempts: 1, sleeps: [] },
  },
  {
    name: 'retries: a GET answered 409 is not retried',
    rule: 'Never retried: a 409',
    steps: [answer(409, 'idempotency_key_in_flight')],
    command: retrieve,
    expect: { ok: false, error: { code: 'idempotency_key_in_flight' }, attempts: 1, sleeps: [] },
  },
  {
    name: 'connection: a GET to an address that refuses connections ends in a connection error',
    rule: 'Client-side errors: network exhausted with no response raises a connection error',
    target: 'refused',
    command: retrieve,
    expect: { ok: false, error: { kind: 'connection', root: true }, attempts: 3, sleeps: { backoff: 2 } },
  },
  {
    name: 'connection: a GET that times out on every attempt ends in a connection error',
    rule: 'Request time-out per attempt; connection error when exhausted',
    configure: { timeout_ms: 1500, max_retries: 1 },
    steps: [{ stall: true }, { stall: true }],
    command: retrieve,
    expect: { ok: false, error: { kind: 'connection', root: true }, attempts: 2, sleeps: { backoff: 1 } },
  },
];

// ---------------------------------------------------------------------------------------------
// POST: never retried once it may have been sent; retried when it provably never left

const postCases: Array<[string, Command, Step, Partial<DriverError>]> = [
  [
    'a create answered 503 gateway_unavailable (with Retry-After)',
    create,
    answer(503, 'gateway_unavailable', { 'retry-after': '1' }),
    { code: 'gateway_unavailable', status: 503 },
  ],
  [
    'a create answered 429 rate_limited',
    create,
    answer(429, 'rate_limited', { 'retry-after': '1' }),
    { code: 'rate_limited', status: 429 },
  ],
  ['a create answered 500', create, answer(500, 'internal_error'), { code: 'internal_error', status: 500 }],
  ['a confirm answered 503', confirm, answer(503, 'gateway_unavailable'), { code: 'gateway_unavailable' }],
  [
    'a refund answered 502',
    refund,
    { status: 502, body: '<html>Bad Gateway</html>' },
    { kind: 'api', status: 502 },
  ],
  [
    'a capture answered 503',
    capture,
    answer(503, 'gateway_unavailable', { 'retry-after': '1' }),
    { code: 'gateway_unavailable', status: 503 },
  ],
  [
    'a capture whose connection dropped after the request was read',
    capture,
    { drop: 'after_read' },
    { kind: 'connection' },
  ],
  [
    'a cancel answered 500',
    { ...confirm, op: 'payment_intents.cancel', params: {} },
    answer(500, 'internal_error'),
    { code: 'internal_error' },
  ],
  [
    'a create whose connection dropped after the request was read',
    create,
    { drop: 'after_read' },
    { kind: 'connection' },
  ],
  [
    'a create whose connection dropped as it was accepted',
    create,
    { drop: 'before_read' },
    { kind: 'connection' },
  ],
  ['a create that timed out', create, { stall: true }, { kind: 'connection' }],
];

const posts: Scenario[] = [
  ...postCases.map(
    ([what, command, step, error]): Scenario => ({
      name: `POST: ${what} is not retried`,
      rule: 'Never retried: any POST that got a response; any POST whose delivery is unknown',
      configure: { timeout_ms: 5000 },
      steps: [step, created()],
      command,
      expect: { ok: false, error, attempts: 1, sleeps: [] },
    }),
  ),
  {
    name: 'POST: a create to an address that refuses connections is retried (it was never sent)',
    rule: 'Retried: network errors that occur before the request was sent',
    target: 'refused',
    command: create,
    expect: { ok: false, error: { kind: 'connection' }, attempts: 3, sleeps: { backoff: 2 } },
  },
];

// ---------------------------------------------------------------------------------------------
// Back-off and Retry-After

const waits: Scenario[] = [
  {
    name: 'back-off: full jitter, base 500 ms, factor 2, each wait capped at 8 s',
    rule: 'Backoff: exponential with full jitter; base 500 ms; factor 2; cap 8 s per wait',
    configure: { max_retries: 10 },
    steps: Array.from({ length: 11 }, () => answer(500, 'internal_error')),
    command: retrieve,
    expect: {
      ok: false,
      attempts: 11,
      sleeps: { backoff: 10 },
      requests: (_requests, reply) => {
        const sleeps = reply.sleeps_ms ?? [];
        // Full jitter: waits are drawn, not the bound itself every time (chance of a false alarm ~1e-20).
        const atBound = sleeps.filter(
          (ms, n) => ms >= 0.99 * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** n),
        ).length;
        assert.ok(atBound < sleeps.length, `every wait sits at its bound: no jitter (${sleeps})`);
      },
    },
  },
  {
    name: 'Retry-After: honoured for 429 rate_limited',
    rule: 'Retry-After: honored for 429 rate_limited',
    steps: [answer(429, 'rate_limited', { 'retry-after': '3' }), ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: [3000] },
  },
  {
    name: 'Retry-After: honoured for 503 gateway_unavailable',
    rule: 'Retry-After: honored for 503 gateway_unavailable',
    steps: [answer(503, 'gateway_unavailable', { 'retry-after': '7' }), ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: [7000] },
  },
  {
    name: 'Retry-After: ignored for 500 (back-off instead)',
    rule: 'Retry-After: honored only for 429 and 503',
    steps: [answer(500, 'internal_error', { 'retry-after': '5' }), ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'Retry-After: ignored for 502 (back-off instead)',
    rule: 'Retry-After: honored only for 429 and 503',
    steps: [{ status: 502, headers: { 'retry-after': '4' }, body: '<html>Bad Gateway</html>' }, ok()],
    command: retrieve,
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'Retry-After: capped at 60 s',
    rule: 'Retry-After: capped at 60 s',
    steps: [
      answer(429, 'rate_limited', { 'retry-after': '120' }),
      answer(503, 'gateway_unavailable', { 'retry-after': '86400' }),
      ok(),
    ],
    command: retrieve,
    expect: { ok: true, attempts: 3, sleeps: [RETRY_AFTER_CAP_MS, RETRY_AFTER_CAP_MS] },
  },
  {
    name: 'Retry-After: a 429 without it falls back to back-off',
    rule: 'Backoff applies when no Retry-After is given',
    steps: [answer(429, 'rate_limited'), answer(429, 'rate_limited'), ok()],
    command: retrieve,
    expect: { ok: true, attempts: 3, sleeps: { backoff: 2 } },
  },
];

// ---------------------------------------------------------------------------------------------
// Idempotency keys

function idempotencyHeader(request: RecordedRequest | undefined): string {
  const value = request?.headers['idempotency-key'];
  assert.equal(typeof value, 'string', 'an Idempotency-Key header was sent');
  return value as string;
}

const idempotency: Scenario[] = [
  ...[create, refund, capture].map(
    (command): Scenario => ({
      name: `idempotency: ${command.op} without a key sends a UUID v4 and returns it with the resource`,
      rule: 'Idempotency key when not given: UUID v4 from a cryptographically secure generator, returned with the resource',
      steps: [created()],
      command,
      expect: {
        ok: true,
        attempts: 1,
        requests: ([request], reply) => {
          const sent = idempotencyHeader(request);
          assert.match(sent, UUID_V4);
          assert.equal(reply.result?.idempotency_key, sent);
          assert.deepEqual(reply.result?.resource, intent());
        },
      },
    }),
  ),
  ...[create, refund, capture].map(
    (command): Scenario => ({
      name: `idempotency: ${command.op} sends the caller's key unchanged`,
      rule: 'Safe retry cycle for POST: generate or accept a key',
      steps: [created()],
      command: { ...command, idempotency_key: 'order-42:payment-attempt-1' },
      expect: {
        ok: true,
        requests: ([request], reply) => {
          assert.equal(idempotencyHeader(request), 'order-42:payment-attempt-1');
          assert.equal(reply.result?.idempotency_key, 'order-42:payment-attempt-1');
        },
      },
    }),
  ),
  {
    name: 'capture: POSTs the amount to the intent’s capture address; no amount captures all',
    rule: 'POST /v1/payment-intents/{id}/capture {amount_minor?} (contract, second round: Capture later)',
    run: async (ctx) => {
      await configureScripted(ctx, {});
      const captured = intent({
        status: 'SUCCEEDED',
        amount_captured_minor: 1500,
        amount_capturable_minor: 0,
      });
      ctx.script([ok(captured)]);
      const part = await ctx.send(capture);
      assert.equal(part.ok, true, JSON.stringify(part));
      assert.deepEqual((part.result as Json).resource, captured);
      const [sent] = ctx.requests();
      assert.equal(sent?.method, 'POST');
      assert.equal(sent?.url, '/v1/payment-intents/pi_3Jd8kQ2mZx7LpR5vT9wB4nYc/capture');
      assert.deepEqual(JSON.parse(sent?.body ?? 'null'), { amount_minor: 1500 });

      ctx.script([ok(captured)]);
      const all = await ctx.send({ ...capture, params: {} });
      assert.equal(all.ok, true, JSON.stringify(all));
      const body = JSON.parse(ctx.requests()[0]?.body || '{}') as Json;
      assert.equal(body.amount_minor, undefined, `a capture of all sends no amount: ${JSON.stringify(body)}`);
    },
  },
  {
    name: 'idempotency: every create without a key gets a new key',
    rule: 'Idempotency key when not given: a fresh UUID v4 per operation',
    run: async (ctx) => {
      await configureScripted(ctx, {});
      const keys = new Set<string>();
      for (let i = 0; i < 5; i++) {
        ctx.script([created()]);
        const reply = await ctx.send(create);
        assert.equal(reply.ok, true, JSON.stringify(reply));
        keys.add(idempotencyHeader(ctx.requests()[0]));
      }
      assert.equal(keys.size, 5, 'five creates sent five different keys');
    },
  },
  {
    name: "idempotency: a create that got no answer had sent the caller's key, to repeat it with",
    rule: 'Safe retry cycle for POST: on no response, repeat the same POST with exactly that key',
    configure: { timeout_ms: 5000 },
    steps: [{ drop: 'after_read' }],
    command: { ...create, idempotency_key: 'order-43' },
    expect: {
      ok: false,
      error: { kind: 'connection' },
      attempts: 1,
      requests: ([request]) => assert.equal(idempotencyHeader(request), 'order-43'),
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Telemetry

const telemetry: Scenario[] = [true, false, undefined].map((on) => ({
  name: `telemetry: ${on === undefined ? 'on by default' : on ? 'on' : 'off'}, the User-Agent ${on === false ? 'names the client version only' : 'names the client and runtime versions'}`,
  rule: 'Telemetry: on by default, a User-Agent with the client version and runtime version only; off gives the client version only',
  run: async (ctx) => {
    await configureScripted(ctx, on === undefined ? {} : { telemetry: on });
    const info = await ctx.send({ op: 'info' });
    assert.equal(info.ok, true, JSON.stringify(info));
    const { client_version, runtime_version, user_agent } = info.result as Record<string, string>;
    assert.equal(client_version, '1.0.0');
    assert.ok(runtime_version && runtime_version.length > 0, 'info names the runtime version');
    ctx.script([ok()]);
    const reply = await ctx.send(retrieve);
    assert.equal(reply.ok, true, JSON.stringify(reply));
    const sent = ctx.requests()[0]?.headers['user-agent'];
    assert.equal(sent, user_agent, 'info.user_agent is exactly the User-Agent sent');
    assert.ok(user_agent?.includes(client_version), `${user_agent} names the client version`);
    if (on === false) {
      assert.ok(!user_agent?.includes(runtime_version), `${user_agent} must not name the runtime`);
    } else {
      assert.ok(user_agent?.includes(runtime_version), `${user_agent} names the runtime version`);
    }
    // Telemetry carries versions only: no key, no host name, no merchant data.
    assert.ok(!user_agent?.includes(SECRET_KEY), 'the User-Agent carries no API key');
  },
}));

// ---------------------------------------------------------------------------------------------
// Pagination

const txn = (n: number): Json => ({
  id: `txn_${String(n).padStart(24, '0')}`,
  object: 'transaction',
  type: 'PAYMENT',
  status: 'APPROVED',
  amount_minor: n * 100,
  currency: 'USD',
  payment_intent_id: 'pi_3Jd8kQ2mZx7LpR5vT9wB4nYc',
  created_at: '2026-01-01T00:00:00.000Z',
});
const page = (items: Json[], next: string | null): Step => ({
  status: 200,
  body: { object: 'list', data: items, has_more: next !== null, next_cursor: next },
});

const pagination: Scenario[] = [
  {
    name: 'pagination: follows next_cursor while has_more, keeps the filters, never exposes the cursor',
    rule: 'List pagination: follow next_cursor while has_more is true; cursor is not exposed to the caller',
    steps: [page([txn(1), txn(2)], 'cur_page2'), page([txn(3), txn(4)], 'cur_page3'), page([txn(5)], null)],
    command: { op: 'transactions.list_all', params: { status: 'APPROVED', type: 'PAYMENT', limit: 2 } },
    expect: {
      ok: true,
      result: { items: [txn(1), txn(2), txn(3), txn(4), txn(5)] },
      attempts: 3,
      sleeps: [],
      requests: (requests) => {
        assert.equal(requests.length, 3);
        const queries = requests.map((r) => new URL(r.url, 'http://x').searchParams);
        for (const query of queries) {
          assert.equal(query.get('status'), 'APPROVED');
          assert.equal(query.get('type'), 'PAYMENT');
          assert.equal(query.get('limit'), '2');
        }
        assert.equal(queries[0]?.get('cursor'), null, 'the first page has no cursor');
        assert.equal(queries[1]?.get('cursor'), 'cur_page2');
        assert.equal(queries[2]?.get('cursor'), 'cur_page3');
        assert.ok(
          requests.every((r) => r.method === 'GET' && r.url.startsWith('/v1/transactions')),
          `every page is a GET of /v1/transactions: ${requests.map((r) => `${r.method} ${r.url}`)}`,
        );
      },
    },
  },
  {
    name: 'pagination: stops when has_more is false even if a cursor is present',
    rule: 'The last page has has_more equal to false',
    steps: [
      { status: 200, body: { object: 'list', data: [txn(1)], has_more: false, next_cursor: 'ignored' } },
    ],
    command: { op: 'transactions.list_all', params: {} },
    expect: { ok: true, result: { items: [txn(1)] }, attempts: 1 },
  },
  {
    name: 'pagination: a page answered 500 is retried like any GET',
    rule: 'Retried: GET on 5xx (each page is a GET)',
    steps: [page([txn(1)], 'cur_2'), answer(500, 'internal_error'), page([txn(2)], null)],
    command: { op: 'transactions.list_all', params: { limit: 1 } },
    expect: {
      ok: true,
      result: { items: [txn(1), txn(2)] },
      attempts: 3,
      sleeps: { backoff: 1 },
      requests: (requests) =>
        assert.equal(new URL(requests[2]?.url ?? '', 'http://x').searchParams.get('cursor'), 'cur_2'),
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Customers and saved payment methods (contract, second round)

const CUSTOMER_ID = 'cus_3Jd8kQ2mZx7LpR5vT9wB4nYc';
const customer = (n = 1, extra: Json = {}): Json => ({
  id: n === 1 ? CUSTOMER_ID : `cus_${String(n).padStart(24, '0')}`,
  object: 'customer',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  metadata: { account: '4711' },
  livemode: false,
  created_at: '2026-01-01T00:00:00.000Z',
  version: 1,
  deleted: false,
  ...extra,
});
const savedMethod = (n: number, status = 'active'): Json => ({
  id: `spm_${String(n).padStart(24, '0')}`,
  object: 'saved_payment_method',
  customer_id: CUSTOMER_ID,
  gateway_id: 'sim',
  status,
  livemode: false,
  created_at: '2026-01-01T00:00:00.000Z',
  version: status === 'active' ? 1 : 2,
});

const customers: Scenario[] = [
  {
    name: 'customers: create POSTs the fields with an Idempotency-Key; retrieve, update and delete address the customer',
    rule: 'POST/GET/POST/DELETE /v1/customers[/{id}] (contract, second round: Customers)',
    run: async (ctx) => {
      await configureScripted(ctx, {});
      ctx.script([ok(customer())]);
      const made = await ctx.send({
        op: 'customers.create',
        params: { email: 'ada@example.com', name: 'Ada Lovelace', metadata: { account: '4711' } },
        idempotency_key: 'signup-4711',
      });
      assert.equal(made.ok, true, JSON.stringify(made));
      assert.deepEqual((made.result as Json).resource, customer());
      assert.equal((made.result as Json).idempotency_key, 'signup-4711');
      const [sent] = ctx.requests();
      assert.equal(`${sent?.method} ${sent?.url}`, 'POST /v1/customers');
      assert.equal(idempotencyHeader(sent), 'signup-4711');
      assert.deepEqual(JSON.parse(sent?.body ?? 'null'), {
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        metadata: { account: '4711' },
      });

      ctx.script([ok(customer())]);
      const read = await ctx.send({ op: 'customers.retrieve', resource_id: CUSTOMER_ID });
      assert.deepEqual((read.result as Json).resource, customer());
      assert.equal(
        `${ctx.requests()[0]?.method} ${ctx.requests()[0]?.url}`,
        `GET /v1/customers/${CUSTOMER_ID}`,
      );

      const renamed = customer(1, { name: null, version: 2 });
      ctx.script([ok(renamed)]);
      const update = await ctx.send({
        op: 'customers.update',
        resource_id: CUSTOMER_ID,
        params: { name: null },
      });
      assert.deepEqual((update.result as Json).resource, renamed);
      const [updated] = ctx.requests();
      assert.equal(`${updated?.method} ${updated?.url}`, `POST /v1/customers/${CUSTOMER_ID}`);
      assert.deepEqual(
        JSON.parse(updated?.body ?? 'null'),
        { name: null },
        'a null is sent, to remove the name',
      );

      const gone = customer(1, { version: 3, deleted: true });
      ctx.script([ok(gone)]);
      const deleted = await ctx.send({ op: 'customers.delete', resource_id: CUSTOMER_ID });
      assert.deepEqual((deleted.result as Json).resource, gone);
      assert.equal(
        `${ctx.requests()[0]?.method} ${ctx.requests()[0]?.url}`,
        `DELETE /v1/customers/${CUSTOMER_ID}`,
      );
    },
  },
  {
    name: 'customers: a DELETE answered 500 is retried like a GET (it is idempotent)',
    rule: 'Retried: idempotent methods on 5xx',
    steps: [answer(500, 'internal_error'), ok(customer(1, { deleted: true }))],
    command: { op: 'customers.delete', resource_id: CUSTOMER_ID },
    expect: { ok: true, attempts: 2, sleeps: { backoff: 1 } },
  },
  {
    name: 'customers: list_all follows the pages with the e-mail filter, never exposing the cursor',
    rule: 'GET /v1/customers?email= (cursor list)',
    steps: [page([customer(1), customer(2)], 'cur_2'), page([customer(3)], null)],
    command: { op: 'customers.list_all', params: { email: 'ada@example.com', limit: 2 } },
    expect: {
      ok: true,
      result: { items: [customer(1), customer(2), customer(3)] },
      attempts: 2,
      requests: (requests) => {
        const queries = requests.map((r) => new URL(r.url, 'http://x'));
        assert.deepEqual(
          queries.map((url) => [url.pathname, url.searchParams.get('email'), url.searchParams.get('cursor')]),
          [
            ['/v1/customers', 'ada@example.com', null],
            ['/v1/customers', 'ada@example.com', 'cur_2'],
          ],
        );
      },
    },
  },
  {
    name: "saved payment methods: list_all walks a customer's methods; detach POSTs to the method's detach address",
    rule: 'GET /v1/customers/{id}/saved-payment-methods, POST /v1/saved-payment-methods/{id}/detach',
    run: async (ctx) => {
      await configureScripted(ctx, {});
      ctx.script([page([savedMethod(1)], 'cur_2'), page([savedMethod(2, 'detached')], null)]);
      const listed = await ctx.send({
        op: 'saved_payment_methods.list_all',
        resource_id: CUSTOMER_ID,
        params: { limit: 1 },
      });
      assert.equal(listed.ok, true, JSON.stringify(listed));
      assert.deepEqual((listed.result as Json).items, [savedMethod(1), savedMethod(2, 'detached')]);
      const urls = ctx.requests().map((r) => new URL(r.url, 'http://x'));
      assert.deepEqual(
        urls.map((url) => [url.pathname, url.searchParams.get('cursor')]),
        [
          [`/v1/customers/${CUSTOMER_ID}/saved-payment-methods`, null],
          [`/v1/customers/${CUSTOMER_ID}/saved-payment-methods`, 'cur_2'],
        ],
      );

      const detached = savedMethod(1, 'detached');
      ctx.script([ok(detached)]);
      const reply = await ctx.send({ op: 'saved_payment_methods.detach', resource_id: savedMethod(1).id });
      assert.equal(reply.ok, true, JSON.stringify(reply));
      assert.deepEqual((reply.result as Json).resource, detached);
      const [sent] = ctx.requests();
      assert.equal(
        `${sent?.method} ${sent?.url}`,
        `POST /v1/saved-payment-methods/${savedMethod(1).id}/detach`,
      );
    },
  },
];

// ---------------------------------------------------------------------------------------------
// HTTP errors: four data, one root, a class per code family

const families: Array<[string, string[], number]> = [
  ['validation', ['validation_error'], 400],
  ['authentication', ['invalid_api_key', 'invalid_client_secret', 'invalid_webhook_signature'], 401],
  ['card', ['card_declined', 'gateway_rejected'], 402],
  ['permission', ['insufficient_permissions'], 403],
  ['not found', ['resource_not_found'], 404],
  ['idempotency', ['idempotency_key_reuse', 'idempotency_key_in_flight'], 409],
  ['state', ['invalid_state_transition'], 409],
  [
    'amount',
    [
      'currency_not_supported',
      'amount_below_minimum',
      'amount_exceeds_refundable',
      'amount_exceeds_capturable',
    ],
    422,
  ],
  ['rate limit', ['rate_limited'], 429],
  ['internal', ['internal_error'], 500],
  ['gateway unavailable', ['gateway_unavailable'], 503],
];

const errors: Scenario[] = [
  {
    name: 'errors: an HTTP error exposes code, status, the full problem document and X-Request-Id',
    rule: 'An HTTP error is exposed with four data: code, status, the full problem document and the request id from X-Request-Id',
    steps: [
      answer(
        402,
        'card_declined',
        { 'x-request-id': 'req_from_header_42' },
        {
          decline_code: 'insufficient_funds',
          amount_minor: 999_999_999_999,
          payment_intent: intent({ status: 'FAILED' }),
        },
      ),
    ],
    command: confirm,
    expect: {
      ok: false,
      error: {
        kind: 'api',
        root: true,
        code: 'card_declined',
        status: 402,
        request_id: 'req_from_header_42',
        problem: problem(402, 'card_declined', {
          decline_code: 'insufficient_funds',
          amount_minor: 999_999_999_999,
          payment_intent: intent({ status: 'FAILED' }),
        }),
      },
      attempts: 1,
    },
  },
  {
    name: 'errors: a class per code family, shared within a family, never the generic class for a known code',
    rule: 'All client errors descend from one root error type; a named error class per code (CLIENTS.md: a class per family)',
    run: async (ctx) => {
      await configureScripted(ctx, { max_retries: 0 });
      const classOf = new Map<string, string>();
      const unknown = 'teapot_overflow';
      for (const [, codes, status] of [
        ...families,
        ['unknown', [unknown], 418] as [string, string[], number],
      ]) {
        for (const code of codes) {
          ctx.script([answer(status, code)]);
          const reply = await ctx.send(retrieve);
          assert.equal(reply.ok, false, JSON.stringify(reply));
          const error = reply.error as DriverError;
          assert.equal(error.kind, 'api', code);
          assert.equal(error.root, true, `${code}: ${error.class} descends from the root error`);
          assert.equal(error.code, code);
          assert.equal(error.status, status);
          assert.deepEqual(error.problem, problem(status, code));
          classOf.set(code, error.class);
        }
      }
      const familyClass = families.map(([family, codes]) => {
        const classes = new Set(codes.map((code) => classOf.get(code)));
        assert.equal(classes.size, 1, `the ${family} codes share one class, got ${[...classes]}`);
        return [family, [...classes][0]] as const;
      });
      const distinct = new Set(familyClass.map(([, cls]) => cls));
      assert.equal(
        distinct.size,
        families.length,
        `two families share a class: ${JSON.stringify(familyClass)}`,
      );
      assert.ok(
        !distinct.has(classOf.get(unknown)),
        `a known code got the generic class ${classOf.get(unknown)}`,
      );
    },
  },
  {
    name: 'errors: an error answer without a problem document is still an API error with its status',
    rule: 'Every HTTP error is an API error with its status (a proxy page has no code)',
    configure: { max_retries: 0 },
    steps: [
      {
        status: 502,
        headers: { 'content-type': 'text/html', 'x-request-id': 'req_proxy' },
        body: '<html>Bad Gateway</html>',
      },
    ],
    command: retrieve,
    expect: { ok: false, error: { kind: 'api', root: true, status: 502 }, attempts: 1 },
  },
];

// ---------------------------------------------------------------------------------------------
// Money: integers in minor units, exact at the edges

const money: Scenario[] = [1, 999_999_999_999].map((amount) => ({
  name: `money: ${amount} round-trips exactly through a create`,
  rule: 'Money is an integer in minor units; never a float',
  steps: [created(intent({ amount_minor: amount, amount_refunded_minor: amount }))],
  command: { ...create, params: { amount_minor: amount, currency: 'JPY', gateway_id: 'sim' } },
  expect: {
    ok: true,
    requests: ([request], reply) => {
      assert.match(
        request?.body ?? '',
        new RegExp(`"amount_minor":\\s*${amount}[,}\\s]`),
        'sent as a JSON integer',
      );
      const resource = reply.result?.resource as Json;
      assert.equal(resource.amount_minor, amount);
      assert.equal(resource.amount_refunded_minor, amount);
    },
  },
}));

// ---------------------------------------------------------------------------------------------
// Webhook signatures: the shared vectors, the default tolerance, the test header

const vectors = loadWebhookVectors();

const webhookVectors: Scenario[] = vectors.cases.map((vector) => ({
  name: `webhook vector: ${vector.name}`,
  rule: 'Webhook signature rules 1-7 (packages/contract/vectors/webhook-signatures.json)',
  command: {
    op: 'webhooks.construct_event',
    payload: vector.raw_body,
    header: vector.header,
    secrets: vector.secrets,
    tolerance_seconds: vectors.tolerance_seconds,
    now_unix: vector.now,
  },
  expect: vector.valid
    ? { ok: true, result: { event: JSON.parse(vector.raw_body) } }
    : {
        ok: false,
        error: {
          kind: vector.error === 'invalid_payload' ? 'invalid_payload' : 'signature_verification',
          root: true,
        },
      },
}));

const SIGNED_AT = 1_767_225_600;
const eventBody = JSON.stringify({
  id: 'evt_1a2B3c4D5e6F7g8H9i0J1k2L',
  object: 'event',
  type: 'payment_intent.succeeded',
  created: '2026-01-01T00:00:00.000Z',
  livemode: false,
  data: { object: intent({ status: 'SUCCEEDED', amount_minor: 999_999_999_999 }) },
});
const secret = 'whsec_GDjVrE0TlSTcNjcTF_Db8xVJ0_kHp1_DCPniWu0bQ-c';

const webhookRules: Scenario[] = [
  ...[
    [300, true],
    [301, false],
    [-300, true],
    [-301, false],
  ].map(([offset, valid]) => ({
    name: `webhooks: the default tolerance is 300 s both ways (clock ${(offset as number) > 0 ? '+' : ''}${offset} s)`,
    rule: 'A receiver rejects a delivery whose t differs from its clock by more than 300 seconds in either direction',
    command: {
      op: 'webhooks.construct_event',
      payload: eventBody,
      header: `t=${SIGNED_AT},v1=${referenceSignature(secret, SIGNED_AT, eventBody)}`,
      secrets: [secret],
      now_unix: SIGNED_AT + (offset as number),
    },
    expect: valid
      ? { ok: true, result: { event: JSON.parse(eventBody) } }
      : { ok: false, error: { kind: 'signature_verification' as const } },
  })),
  {
    name: 'webhooks: a missing header is a signature verification error',
    rule: 'A failed verification raises an error; it never returns a silent boolean',
    command: {
      op: 'webhooks.construct_event',
      payload: eventBody,
      header: '',
      secrets: [secret],
      now_unix: SIGNED_AT,
    },
    expect: { ok: false, error: { kind: 'signature_verification', root: true } },
  },
  {
    name: 'webhooks: any one v1 matching verifies, wherever it sits among the candidates',
    rule: 'A receiver accepts the delivery when any one v1 matches; all candidates are tested',
    command: {
      op: 'webhooks.construct_event',
      payload: eventBody,
      header: `t=${SIGNED_AT},v1=${'0'.repeat(64)},v1=${referenceSignature('whsec_other', SIGNED_AT, eventBody)},v1=${referenceSignature(secret, SIGNED_AT, eventBody)}`,
      secrets: ['whsec_unrelated', secret],
      now_unix: SIGNED_AT,
    },
    expect: { ok: true, result: { event: JSON.parse(eventBody) } },
  },
  {
    name: 'webhooks: test_header signs t, a dot and the raw body with HMAC-SHA256',
    rule: 'Each v1 is the lowercase hex HMAC-SHA256 of t, a dot, the exact raw body, keyed by the secret',
    run: async (ctx) => {
      const reply = await ctx.send({
        op: 'webhooks.test_header',
        payload: eventBody,
        secret,
        timestamp_unix: SIGNED_AT,
      });
      assert.equal(reply.ok, true, JSON.stringify(reply));
      assert.equal(
        reply.result?.header,
        `t=${SIGNED_AT},v1=${referenceSignature(secret, SIGNED_AT, eventBody)}`,
      );
      const verified = await ctx.send({
        op: 'webhooks.construct_event',
        payload: eventBody,
        header: reply.result?.header,
        secrets: [secret],
        now_unix: SIGNED_AT + 10,
      });
      assert.deepEqual(verified.result, { event: JSON.parse(eventBody) });
      const event = verified.result?.event as { data: { object: Json } };
      assert.equal(event.data.object.amount_minor, 999_999_999_999, 'the amount stays an exact integer');
    },
  },
];

// ---------------------------------------------------------------------------------------------
// The real service: an end-to-end payment, money edges, real errors

async function configureService(ctx: Context, fields: Json = {}): Promise<ServiceEnv> {
  const env = await ctx.service();
  const reply = await ctx.send({
    op: 'configure',
    api_key: env.PAYGATE_API_KEY,
    base_url: env.PAYGATE_BASE_URL,
    ...fields,
  });
  assert.equal(reply.ok, true, JSON.stringify(reply));
  return env;
}

async function okResult(ctx: Context, command: Command): Promise<Json> {
  const reply = await ctx.send(command);
  assert.equal(reply.ok, true, `${command.op}: ${JSON.stringify(reply)}`);
  return reply.result as Json;
}

async function failure(ctx: Context, command: Command): Promise<DriverError> {
  const reply = await ctx.send(command);
  assert.equal(reply.ok, false, `${command.op} should fail: ${JSON.stringify(reply)}`);
  return reply.error as DriverError;
}

/** The transactions of one intent, read through the client's list (the list has no intent filter). */
async function transactionsOf(ctx: Context, intentId: string): Promise<Json[]> {
  const listed = await okResult(ctx, { op: 'transactions.list_all', params: { limit: 100 } });
  return (listed.items as Json[]).filter((t) => t.payment_intent_id === intentId);
}

const service: Scenario[] = [
  {
    name: 'real service: create, confirm, retrieve, partial refund, list',
    rule: 'End-to-end payment against the real service',
    run: async (ctx) => {
      await configureService(ctx);
      const params = { amount_minor: 5000, currency: 'EUR', gateway_id: 'sim', metadata: { order: 'E2E-1' } };
      const createdIntent = (await okResult(ctx, { op: 'payment_intents.create', params })).resource as Json;
      assert.equal(createdIntent.status, 'CREATED');
      assert.equal(createdIntent.amount_minor, 5000);
      assert.deepEqual(createdIntent.metadata, { order: 'E2E-1' });
      const id = createdIntent.id as string;

      const confirmed = (
        await okResult(ctx, {
          op: 'payment_intents.confirm',
          resource_id: id,
          params: { payment_method_token: 'tok_sim_approve' },
        })
      ).resource as Json;
      assert.equal(confirmed.status, 'SUCCEEDED');
      const read = (await okResult(ctx, { op: 'payment_intents.retrieve', resource_id: id }))
        .resource as Json;
      assert.equal(read.status, 'SUCCEEDED');
      assert.equal(read.id, id);

      const refunded = await okResult(ctx, {
        op: 'refunds.create',
        params: { payment_intent_id: id, amount_minor: 1200 },
      });
      const refundResource = refunded.resource as Json;
      assert.equal(refundResource.amount_minor, 1200);
      assert.match(refunded.idempotency_key as string, UUID_V4);
      const refundRead = (await okResult(ctx, { op: 'refunds.retrieve', resource_id: refundResource.id }))
        .resource as Json;
      assert.equal(refundRead.amount_minor, 1200);
      const after = (await okResult(ctx, { op: 'payment_intents.retrieve', resource_id: id }))
        .resource as Json;
      assert.equal(after.amount_refunded_minor, 1200);

      const listed = await ctx.send({ op: 'transactions.list_all', params: { limit: 1 } });
      assert.equal(listed.ok, true, JSON.stringify(listed));
      const mine = ((listed.result?.items ?? []) as Json[])
        .filter((t) => t.payment_intent_id === id)
        .map((t) => `${t.type}:${t.amount_minor}`)
        .sort();
      assert.deepEqual(mine, ['PAYMENT:5000', 'REFUND:1200']);
      assert.ok((listed.attempts ?? 0) >= 2, 'limit 1 made the client follow the cursor over several pages');

      const cancel = await failure(ctx, { op: 'payment_intents.cancel', resource_id: id });
      assert.deepEqual([cancel.kind, cancel.code, cancel.status], ['api', 'invalid_state_transition', 409]);
      const tooMuch = await failure(ctx, {
        op: 'refunds.create',
        params: { payment_intent_id: id, amount_minor: 3801 },
      });
      assert.deepEqual([tooMuch.code, tooMuch.status], ['amount_exceeds_refundable', 422]);
    },
  },
  {
    name: 'real service: a manual intent is authorised, partly captured with a key, replayed, then refunded up to the capture',
    rule: 'Capture later: REQUIRES_CAPTURE, POST /capture {amount_minor?} with an Idempotency-Key, refunds up to amount_captured_minor',
    run: async (ctx) => {
      await configureService(ctx);
      const params = { amount_minor: 5000, currency: 'EUR', gateway_id: 'sim', capture_method: 'manual' };
      const made = (await okResult(ctx, { op: 'payment_intents.create', params })).resource as Json;
      assert.equal(made.capture_method, 'manual');
      const id = made.id as string;
      const authorised = (
        await okResult(ctx, {
          op: 'payment_intents.confirm',
          resource_id: id,
          params: { payment_method_token: 'tok_sim_approve' },
        })
      ).resource as Json;
      assert.equal(authorised.status, 'REQUIRES_CAPTURE');
      assert.equal(authorised.amount_capturable_minor, 5000);
      assert.equal(authorised.amount_captured_minor, 0);
      assert.ok(
        Number.isFinite(Date.parse(authorised.capture_before as string)),
        `capture_before: ${authorised.capture_before}`,
      );

      const tooMuch = await failure(ctx, {
        op: 'payment_intents.capture',
        resource_id: id,
        params: { amount_minor: 5001 },
      });
      assert.deepEqual(
        [tooMuch.kind, tooMuch.code, tooMuch.status],
        ['api', 'amount_exceeds_capturable', 422],
      );

      const key = `conformance-capture-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const command: Command = {
        op: 'payment_intents.capture',
        resource_id: id,
        params: { amount_minor: 3000 },
        idempotency_key: key,
      };
      const captured = await okResult(ctx, command);
      const intentCaptured = captured.resource as Json;
      assert.equal(captured.idempotency_key, key);
      assert.equal(intentCaptured.status, 'SUCCEEDED');
      assert.equal(intentCaptured.amount_captured_minor, 3000);
      assert.equal(intentCaptured.amount_capturable_minor, 0);
      const replay = (await okResult(ctx, command)).resource as Json;
      assert.deepEqual(replay, intentCaptured, 'the same key answers the same capture');
      const again = await failure(ctx, { op: 'payment_intents.capture', resource_id: id, params: {} });
      assert.deepEqual([again.code, again.status], ['invalid_state_transition', 409]);

      const overRefund = await failure(ctx, {
        op: 'refunds.create',
        params: { payment_intent_id: id, amount_minor: 3001 },
      });
      assert.deepEqual([overRefund.code, overRefund.status], ['amount_exceeds_refundable', 422]);
      const refunded = (
        await okResult(ctx, { op: 'refunds.create', params: { payment_intent_id: id, amount_minor: 3000 } })
      ).resource as Json;
      assert.equal(refunded.amount_minor, 3000);
      const rows = (await transactionsOf(ctx, id))
        .map((t) => `${t.type}:${t.status}:${t.amount_minor}`)
        .sort();
      assert.deepEqual(rows, ['PAYMENT:APPROVED:3000', 'REFUND:APPROVED:3000']);
    },
  },
  {
    name: 'real service: cancel voids an authorisation; a voided or automatic intent cannot be captured',
    rule: 'Cancel from REQUIRES_CAPTURE voids (CANCELED, cancellation_reason requested); capture of any other intent is 409',
    run: async (ctx) => {
      await configureService(ctx);
      const manual = (
        await okResult(ctx, {
          op: 'payment_intents.create',
          params: { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', capture_method: 'manual' },
        })
      ).resource as Json;
      await okResult(ctx, {
        op: 'payment_intents.confirm',
        resource_id: manual.id,
        params: { payment_method_token: 'tok_sim_approve' },
      });
      const voided = (await okResult(ctx, { op: 'payment_intents.cancel', resource_id: manual.id }))
        .resource as Json;
      assert.equal(voided.status, 'CANCELED');
      assert.equal(voided.cancellation_reason, 'requested');
      assert.equal(voided.amount_capturable_minor, 0);
      const late = await failure(ctx, { op: 'payment_intents.capture', resource_id: manual.id, params: {} });
      assert.deepEqual([late.code, late.status], ['invalid_state_transition', 409]);
      assert.deepEqual(
        (await transactionsOf(ctx, manual.id as string)).map((t) => `${t.type}:${t.status}`),
        ['PAYMENT:DECLINED'],
      );

      const automatic = (
        await okResult(ctx, {
          op: 'payment_intents.create',
          params: { amount_minor: 2500, currency: 'USD', gateway_id: 'sim' },
        })
      ).resource as Json;
      await okResult(ctx, {
        op: 'payment_intents.confirm',
        resource_id: automatic.id,
        params: { payment_method_token: 'tok_sim_approve' },
      });
      const notManual = await failure(ctx, {
        op: 'payment_intents.capture',
        resource_id: automatic.id,
        params: {},
      });
      assert.deepEqual([notManual.code, notManual.status], ['invalid_state_transition', 409]);
    },
  },
  {
    // JPY has no minor digits, so 1 is above the simulated gateway's minimum.
    name: 'real service: amounts 1 and 999999999999 round-trip exactly',
    rule: 'Money is an integer in minor units; the edge values stay exact',
    run: async (ctx) => {
      await configureService(ctx);
      for (const amount of [1, 999_999_999_999]) {
        const made = (
          await okResult(ctx, {
            op: 'payment_intents.create',
            params: { amount_minor: amount, currency: 'JPY', gateway_id: 'sim' },
          })
        ).resource as Json;
        assert.equal(made.amount_minor, amount);
        const read = (await okResult(ctx, { op: 'payment_intents.retrieve', resource_id: made.id }))
          .resource as Json;
        assert.equal(read.amount_minor, amount);
      }
    },
  },
  {
    name: 'real service: an idempotent replay returns the original resource; another body is refused',
    rule: 'Idempotency rules 2 and 4, through the client',
    run: async (ctx) => {
      await configureService(ctx);
      const key = `conformance-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const params = { amount_minor: 700, currency: 'USD', gateway_id: 'sim' };
      const first = await okResult(ctx, { op: 'payment_intents.create', params, idempotency_key: key });
      const again = await okResult(ctx, { op: 'payment_intents.create', params, idempotency_key: key });
      assert.equal((again.resource as Json).id, (first.resource as Json).id);
      assert.equal(again.idempotency_key, key);
      const reuse = await failure(ctx, {
        op: 'payment_intents.create',
        params: { ...params, amount_minor: 701 },
        idempotency_key: key,
      });
      assert.deepEqual([reuse.kind, reuse.code, reuse.status], ['api', 'idempotency_key_reuse', 409]);
    },
  },
  {
    name: 'real service: errors carry the request id and the problem document',
    rule: 'Every HTTP error is a problem document with a stable code; the response carries X-Request-Id',
    run: async (ctx) => {
      const env = await configureService(ctx);
      const missing = await failure(ctx, {
        op: 'payment_intents.retrieve',
        resource_id: 'pi_000000000000000000000000',
      });
      assert.deepEqual([missing.kind, missing.code, missing.status], ['api', 'resource_not_found', 404]);
      assert.match(missing.request_id ?? '', /^req_/);
      assert.equal(missing.problem?.code, 'resource_not_found');
      assert.equal(missing.problem?.status, 404);

      const invalid = await failure(ctx, {
        op: 'payment_intents.create',
        params: { amount_minor: 0, currency: 'USD', gateway_id: 'sim' },
      });
      assert.deepEqual([invalid.code, invalid.status], ['validation_error', 400]);

      const reply = await ctx.send({
        op: 'configure',
        api_key: `${env.PAYGATE_API_KEY.slice(0, -4)}zzzz`,
        base_url: env.PAYGATE_BASE_URL,
      });
      assert.equal(reply.ok, true);
      const badKey = await failure(ctx, {
        op: 'payment_intents.retrieve',
        resource_id: 'pi_000000000000000000000000',
      });
      assert.deepEqual([badKey.code, badKey.status], ['invalid_api_key', 401]);
    },
  },
];

// ---------------------------------------------------------------------------------------------

/** Configures a client on the scripted server with instant, recorded waits. */
export async function configureScripted(ctx: Context, fields: Json): Promise<void> {
  const reply = await ctx.send({
    op: 'configure',
    api_key: SECRET_KEY,
    base_url: ctx.scripted,
    record_sleeps: true,
    ...fields,
  });
  assert.equal(reply.ok, true, `configure: ${JSON.stringify(reply)}`);
}

export const scenarios: Scenario[] = [
  ...configuration,
  ...retries,
  ...posts,
  ...waits,
  ...idempotency,
  ...telemetry,
  ...pagination,
  ...customers,
  ...errors,
  ...money,
  ...webhookVectors,
  ...webhookRules,
  ...webhookSecretShapes,
  ...service,
  // The contract's additive fields and every event type, on recorded answers of the real service.
  ...contractScenarios,
];
