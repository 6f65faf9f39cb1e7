import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLIENT_VERSION, Paygate, PaygateConfigurationError } from '../src/index.ts';
import { intentBody, SECRET_KEY, sendJson, startServer, testClient } from './support.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const createParams = { amount_minor: 1999, currency: 'USD', gateway_id: 'sim' };
const refundBody = {
  id: 're_0123456789abcdefghijABCD',
  object: 'refund',
  payment_intent_id: intentBody.id,
  amount_minor: 500,
  currency: 'USD',
  status: 'PENDING',
  metadata: {},
  livemode: false,
  created_at: '2025-01-01T00:00:00.000Z',
};

describe('requests on the wire', () => {
  it('sends X-API-Key (never Authorization), JSON bodies and the telemetry User-Agent', async () => {
    const server = await startServer((_req, res) => sendJson(res, 201, intentBody));
    try {
      const { client } = testClient(server.baseUrl);
      await client.paymentIntents.create({ ...createParams, metadata: { order_id: '42' } });
      const req = server.requests[0]!;
      assert.equal(req.method, 'POST');
      assert.equal(req.url, '/v1/payment-intents');
      assert.equal(req.headers['x-api-key'], SECRET_KEY);
      assert.equal(req.headers.authorization, undefined);
      assert.equal(req.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(req.body), { ...createParams, metadata: { order_id: '42' } });
      assert.equal(req.headers['user-agent'], `paygate-node/${CLIENT_VERSION} node/${process.version}`);
      assert.equal(CLIENT_VERSION, '1.0.0');
    } finally {
      await server.close();
    }
  });

  it('sends only the client version in the User-Agent with telemetry off', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, intentBody));
    try {
      const { client } = testClient(server.baseUrl, { telemetry: false });
      await client.paymentIntents.retrieve(intentBody.id);
      assert.equal(server.requests[0]?.headers['user-agent'], 'paygate-node/1.0.0');
    } finally {
      await server.close();
    }
  });

  it('routes every operation to its method and path, with an empty JSON body for bare POSTs', async () => {
    const server = await startServer((req, res) =>
      sendJson(res, 200, req.url.startsWith('/v1/refunds') ? refundBody : intentBody),
    );
    try {
      const { client } = testClient(`${server.baseUrl}/`);
      await client.paymentIntents.retrieve('pi_a/b');
      await client.paymentIntents.confirm(intentBody.id, { payment_method_token: 'tok_sim_approve' });
      await client.paymentIntents.cancel(intentBody.id);
      await client.paymentIntents.cancel(intentBody.id, { cancellation_reason: 'abandoned' });
      await client.refunds.create({ payment_intent_id: intentBody.id, amount_minor: 500 });
      await client.refunds.retrieve(refundBody.id);
      const seen = server.requests.map((r) => [r.method, r.url, r.body]);
      assert.deepEqual(seen, [
        ['GET', '/v1/payment-intents/pi_a%2Fb', ''],
        [
          'POST',
          `/v1/payment-intents/${intentBody.id}/confirm`,
          '{"payment_method_token":"tok_sim_approve"}',
        ],
        ['POST', `/v1/payment-intents/${intentBody.id}/cancel`, '{}'],
        ['POST', `/v1/payment-intents/${intentBody.id}/cancel`, '{"cancellation_reason":"abandoned"}'],
        ['POST', '/v1/refunds', `{"payment_intent_id":"${intentBody.id}","amount_minor":500}`],
        ['GET', `/v1/refunds/${refundBody.id}`, ''],
      ]);
      // Confirm and cancel carry no key; only the two creates do.
      const keys = server.requests.map((r) => r.headers['idempotency-key'] !== undefined);
      assert.deepEqual(keys, [false, false, false, false, true, false]);
    } finally {
      await server.close();
    }
  });

  it("captures with an Idempotency-Key (the caller's, else a UUID v4) and the amount, or none", async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 200, { ...intentBody, status: 'SUCCEEDED' }),
    );
    try {
      const { client } = testClient(server.baseUrl);
      const part = await client.paymentIntents.capture(
        intentBody.id,
        { amount_minor: 600 },
        { idempotencyKey: 'ship-42' },
      );
      await client.paymentIntents.capture(intentBody.id);
      const [first, second] = server.requests;
      assert.equal(first?.method, 'POST');
      assert.equal(first?.url, `/v1/payment-intents/${intentBody.id}/capture`);
      assert.equal(first?.headers['idempotency-key'], 'ship-42');
      assert.deepEqual(JSON.parse(first?.body ?? ''), { amount_minor: 600 });
      assert.equal(part.lastResponse.idempotencyKey, 'ship-42');
      assert.match(String(second?.headers['idempotency-key']), UUID_V4);
      assert.deepEqual(JSON.parse(second?.body ?? ''), {});
    } finally {
      await server.close();
    }
  });

  it('refuses an empty id locally', async () => {
    const { client } = testClient('http://127.0.0.1:9');
    await assert.rejects(client.paymentIntents.retrieve(''), PaygateConfigurationError);
  });
});

describe('idempotency keys', () => {
  it('generates a fresh UUID v4 per create and returns it with the resource', async () => {
    const server = await startServer((req, res) =>
      sendJson(res, 201, req.url === '/v1/refunds' ? refundBody : intentBody, { 'X-Request-Id': 'req_abc' }),
    );
    try {
      const { client } = testClient(server.baseUrl);
      const first = await client.paymentIntents.create(createParams);
      const second = await client.paymentIntents.create(createParams);
      const refund = await client.refunds.create({ payment_intent_id: intentBody.id });
      const sent = server.requests.map((r) => r.headers['idempotency-key']);
      for (const key of sent) assert.match(String(key), UUID_V4);
      assert.equal(new Set(sent).size, 3);
      assert.deepEqual(
        [
          first.lastResponse.idempotencyKey,
          second.lastResponse.idempotencyKey,
          refund.lastResponse.idempotencyKey,
        ],
        sent,
      );
      assert.deepEqual(first.lastResponse, {
        statusCode: 201,
        requestId: 'req_abc',
        idempotencyKey: sent[0],
        replayed: false,
      });
    } finally {
      await server.close();
    }
  });

  it("sends the caller's key unchanged and reports a replay", async () => {
    const server = await startServer((_req, res, i) =>
      sendJson(res, 201, intentBody, i === 1 ? { 'Idempotent-Replayed': 'true' } : {}),
    );
    try {
      const { client } = testClient(server.baseUrl);
      const first = await client.paymentIntents.create(createParams, { idempotencyKey: 'order-42' });
      const again = await client.paymentIntents.create(createParams, { idempotencyKey: 'order-42' });
      assert.deepEqual(
        server.requests.map((r) => r.headers['idempotency-key']),
        ['order-42', 'order-42'],
      );
      assert.equal(first.lastResponse.replayed, false);
      assert.equal(again.lastResponse.replayed, true);
      assert.equal(again.lastResponse.idempotencyKey, 'order-42');
    } finally {
      await server.close();
    }
  });

  it('keeps lastResponse out of JSON, spreads and key listings', async () => {
    const server = await startServer((_req, res) => sendJson(res, 201, intentBody));
    try {
      const { client } = testClient(server.baseUrl);
      const intent = await client.paymentIntents.create(createParams);
      assert.deepEqual(JSON.parse(JSON.stringify(intent)), intentBody);
      assert.equal(Object.keys(intent).includes('lastResponse'), false);
      assert.equal('lastResponse' in { ...intent }, false);
    } finally {
      await server.close();
    }
  });

  for (const bad of ['', 'x'.repeat(256), 'line\nbreak', 'ключ']) {
    it(`refuses the idempotency key ${JSON.stringify(bad.slice(0, 12))} locally, before sending`, async () => {
      const server = await startServer((_req, res) => sendJson(res, 201, intentBody));
      try {
        const { client } = testClient(server.baseUrl);
        await assert.rejects(
          client.paymentIntents.create(createParams, { idempotencyKey: bad }),
          PaygateConfigurationError,
        );
        assert.equal(server.requests.length, 0);
      } finally {
        await server.close();
      }
    });
  }
});

describe('configuration', () => {
  const invalid: [string, Record<string, unknown>][] = [
    ['a publishable test key', { apiKey: 'pk_test_4eC39HqLyjWDarjtT1zdp7dc00000000' }],
    ['a publishable live key', { apiKey: 'pk_live_4eC39HqLyjWDarjtT1zdp7dc00000000' }],
    ['a key of another service', { apiKey: 'rk_test_abc' }],
    ['an empty key', { apiKey: '' }],
    ['a missing key', {}],
    ['a key with white space', { apiKey: `${SECRET_KEY} ` }],
    ['a bare prefix', { apiKey: 'sk_test_' }],
    ['an ftp base address', { baseUrl: 'ftp://pay.example.com' }],
    ['a base address that is not a URL', { baseUrl: 'pay.example.com' }],
    ['a base address with a query', { baseUrl: 'https://pay.example.com/?x=1' }],
    ['a zero time-out', { timeoutMs: 0 }],
    ['a negative time-out', { timeoutMs: -5 }],
    ['an infinite time-out', { timeoutMs: Number.POSITIVE_INFINITY }],
    ['a NaN time-out', { timeoutMs: Number.NaN }],
    ['a string time-out', { timeoutMs: '30000' }],
    ['negative retries', { maxRetries: -1 }],
    ['fractional retries', { maxRetries: 1.5 }],
    ['a non-boolean telemetry flag', { telemetry: 'no' }],
  ];
  for (const [what, override] of invalid) {
    it(`refuses ${what} locally`, () => {
      const options = { apiKey: SECRET_KEY, ...override };
      if (!('apiKey' in override) && what === 'a missing key') Reflect.deleteProperty(options, 'apiKey');
      assert.throws(() => Reflect.construct(Paygate, [options]), PaygateConfigurationError);
    });
  }

  it('never echoes a rejected key in the error message', () => {
    const key = 'pk_live_SuperSecretValue0000000000000000';
    assert.throws(
      () => new Paygate({ apiKey: key }),
      (error: Error) => error instanceof PaygateConfigurationError && !error.message.includes('SuperSecret'),
    );
  });

  it('accepts test and live secret keys and removes trailing slashes from the base address', async () => {
    assert.ok(
      new Paygate({ apiKey: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc00000000', baseUrl: 'https://pay.example.com' }),
    );
    const server = await startServer((_req, res) => sendJson(res, 200, intentBody));
    try {
      const { client } = testClient(`${server.baseUrl}/paygate//`);
      await client.paymentIntents.retrieve(intentBody.id);
      assert.equal(server.requests[0]?.url, `/paygate/v1/payment-intents/${intentBody.id}`);
    } finally {
      await server.close();
    }
  });

  it('uses the injected fetch', async () => {
    const urls: string[] = [];
    const client = new Paygate({
      apiKey: SECRET_KEY,
      baseUrl: 'https://pay.example.com',
      fetch: async (input) => {
        urls.push(String(input));
        return new Response(JSON.stringify(intentBody), { status: 200 });
      },
    });
    const intent = await client.paymentIntents.retrieve(intentBody.id);
    assert.equal(intent.amount_minor, 1999);
    assert.deepEqual(urls, [`https://pay.example.com/v1/payment-intents/${intentBody.id}`]);
  });
});
