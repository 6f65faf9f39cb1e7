// The conformance driver of @paygate/node: JSON Lines commands on stdin, one JSON line per command
// on stdout (the protocol every Paygate client follows: ../shared/CLIENTS.md, clients/README.md).
// It runs the built package (dist/, made by ./build), so it checks what npm ships. It uses only
// the client's documented testing aids: the `sleep` option (to record back-off waits) and the
// `fetch` option (to count attempts and see the exact User-Agent sent).
import { createInterface } from 'node:readline';
import {
  CLIENT_VERSION,
  InvalidPayloadError,
  Paygate,
  PaygateApiError,
  PaygateConfigurationError,
  PaygateConnectionError,
  PaygateError,
  WebhookSignatureError,
  webhooks,
} from '../dist/index.js';

/** The client of the last successful `configure`, with what the current command observed. */
let client = null;
let configured = null;
const observed = { sleeps: [], attempts: 0 };

function countingFetch(onAttempt) {
  return (input, init) => {
    onAttempt(init);
    return globalThis.fetch(input, init);
  };
}

function makeClient(command) {
  const recordSleeps = command.record_sleeps === true;
  return new Paygate({
    apiKey: command.api_key,
    baseUrl: command.base_url,
    timeoutMs: command.timeout_ms,
    maxRetries: command.max_retries,
    telemetry: command.telemetry,
    sleep: (ms) => {
      observed.sleeps.push(ms);
      return recordSleeps ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
    },
    fetch: countingFetch(() => {
      observed.attempts += 1;
    }),
  });
}

/** The exact User-Agent the configured client sends, captured by a transport that sends nothing. */
async function userAgentOf(command) {
  let userAgent = null;
  const probe = new Paygate({
    apiKey: command.api_key,
    baseUrl: command.base_url,
    telemetry: command.telemetry,
    maxRetries: 0,
    fetch: async (_input, init) => {
      userAgent = new Headers(init.headers).get('user-agent');
      throw new TypeError('probe: nothing is sent');
    },
  });
  await probe.paymentIntents.retrieve('pi_probe').catch(() => undefined);
  return userAgent;
}

function requireClient() {
  if (client === null) throw new PaygateConfigurationError('configure must succeed before this op');
  return client;
}

function withKey(resource) {
  return { resource, idempotency_key: resource.lastResponse.idempotencyKey };
}

const httpOps = {
  'payment_intents.create': async (c) =>
    withKey(await requireClient().paymentIntents.create(c.params, keyOption(c))),
  'payment_intents.retrieve': async (c) => ({
    resource: await requireClient().paymentIntents.retrieve(c.resource_id),
  }),
  'payment_intents.confirm': async (c) => ({
    resource: await requireClient().paymentIntents.confirm(c.resource_id, c.params),
  }),
  'payment_intents.capture': async (c) =>
    withKey(await requireClient().paymentIntents.capture(c.resource_id, c.params, keyOption(c))),
  'payment_intents.cancel': async (c) => ({
    resource: await requireClient().paymentIntents.cancel(c.resource_id, c.params),
  }),
  'refunds.create': async (c) => withKey(await requireClient().refunds.create(c.params, keyOption(c))),
  'refunds.retrieve': async (c) => ({ resource: await requireClient().refunds.retrieve(c.resource_id) }),
  'customers.create': async (c) => withKey(await requireClient().customers.create(c.params, keyOption(c))),
  'customers.retrieve': async (c) => ({ resource: await requireClient().customers.retrieve(c.resource_id) }),
  'customers.update': async (c) => ({
    resource: await requireClient().customers.update(c.resource_id, c.params),
  }),
  'customers.delete': async (c) => ({ resource: await requireClient().customers.del(c.resource_id) }),
  'customers.list_all': async (c) => {
    const items = [];
    for await (const item of requireClient().customers.list(c.params)) items.push(item);
    return { items };
  },
  'saved_payment_methods.list_all': async (c) => {
    const items = [];
    for await (const item of requireClient().savedPaymentMethods.list(c.resource_id, c.params))
      items.push(item);
    return { items };
  },
  'saved_payment_methods.detach': async (c) => ({
    resource: await requireClient().savedPaymentMethods.detach(c.resource_id),
  }),
  'transactions.list_all': async (c) => {
    const items = [];
    for await (const item of requireClient().transactions.list(c.params)) items.push(item);
    return { items };
  },
};

function keyOption(command) {
  return command.idempotency_key === undefined ? {} : { idempotencyKey: command.idempotency_key };
}

const localOps = {
  configure: async (c) => {
    client = null;
    configured = null;
    client = makeClient(c);
    configured = c;
    return {};
  },
  info: async () => {
    if (configured === null) throw new PaygateConfigurationError('configure must succeed before info');
    return {
      language: 'typescript',
      client_version: CLIENT_VERSION,
      runtime_version: process.versions.node,
      user_agent: await userAgentOf(configured),
    };
  },
  'webhooks.construct_event': async (c) => ({
    event: webhooks.constructEvent(c.payload, c.header === '' ? undefined : c.header, c.secrets, {
      toleranceSeconds: c.tolerance_seconds,
      now: c.now_unix === undefined ? undefined : () => c.now_unix,
    }),
  }),
  'webhooks.test_header': async (c) => ({
    header: webhooks.generateTestHeader({
      payload: c.payload,
      secret: c.secret,
      timestamp: c.timestamp_unix,
    }),
  }),
};

function errorKind(error) {
  if (error instanceof PaygateApiError) return 'api';
  if (error instanceof PaygateConnectionError) return 'connection';
  if (error instanceof PaygateConfigurationError) return 'configuration';
  if (error instanceof WebhookSignatureError) return 'signature_verification';
  if (error instanceof InvalidPayloadError) return 'invalid_payload';
  // Not an error the client documents: the suite fails on this kind, which is the point.
  return 'unexpected';
}

function describeError(error) {
  const api = error instanceof PaygateApiError;
  return {
    kind: errorKind(error),
    class: error?.constructor?.name ?? typeof error,
    root: error instanceof PaygateError,
    code: api ? error.code : null,
    status: api ? error.status : null,
    request_id: api ? error.requestId : null,
    problem: api ? error.problem : null,
    message: error instanceof Error ? error.message : String(error),
  };
}

async function handle(line) {
  let command;
  try {
    command = JSON.parse(line);
  } catch {
    return { id: null, ok: false, error: describeError(new PaygateConfigurationError('not a JSON line')) };
  }
  const id = command?.id ?? null;
  const http = Object.hasOwn(httpOps, command?.op);
  const run = http ? httpOps[command.op] : Object.hasOwn(localOps, command?.op) ? localOps[command.op] : null;
  observed.sleeps = [];
  observed.attempts = 0;
  let reply;
  if (run === null) {
    reply = {
      id,
      ok: false,
      error: describeError(new PaygateConfigurationError(`unknown op ${JSON.stringify(command?.op)}`)),
    };
  } else {
    try {
      reply = { id, ok: true, result: await run(command) };
    } catch (error) {
      reply = { id, ok: false, error: describeError(error) };
    }
  }
  if (http) Object.assign(reply, { sleeps_ms: [...observed.sleeps], attempts: observed.attempts });
  return reply;
}

// One command at a time, in order: a reply is written (and flushed) before the next line is read.
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const reply = await handle(line);
  await new Promise((resolve) => process.stdout.write(`${JSON.stringify(reply)}\n`, resolve));
}
