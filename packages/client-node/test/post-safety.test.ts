import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CardError,
  GatewayUnavailableError,
  InternalServerError,
  PaygateConnectionError,
  RateLimitError,
} from '../src/index.ts';
import { closedPort, intentBody, problem, sendJson, startServer, testClient } from './support.ts';

const createParams = { amount_minor: 1999, currency: 'USD', gateway_id: 'sim' };
const ID = intentBody.id;

describe('POST is never retried once it may have been sent', () => {
  for (const [status, code, errorClass] of [
    [500, 'internal_error', InternalServerError],
    [503, 'gateway_unavailable', GatewayUnavailableError],
    [429, 'rate_limited', RateLimitError],
  ] as const) {
    it(`does not retry a create that got ${status} ${code}`, async () => {
      const server = await startServer((_req, res) =>
        sendJson(res, status, problem(status, code), { 'Retry-After': '1' }),
      );
      try {
        const { client, sleeps } = testClient(server.baseUrl);
        const error = await client.paymentIntents.create(createParams).catch((e: unknown) => e);
        assert.ok(error instanceof errorClass);
        assert.equal(server.requests.length, 1);
        assert.deepEqual(sleeps, []);
        // The key travels with the error so the caller can repeat the same POST safely.
        assert.equal(error.idempotencyKey, server.requests[0]?.headers['idempotency-key']);
      } finally {
        await server.close();
      }
    });
  }

  it('does not retry a confirm that got 402 card_declined, and exposes the failed intent', async () => {
    const failed = { ...intentBody, status: 'FAILED' };
    const server = await startServer((_req, res) =>
      sendJson(res, 402, problem(402, 'card_declined', { payment_intent: failed })),
    );
    try {
      const { client } = testClient(server.baseUrl);
      const error = await client.paymentIntents
        .confirm(ID, { payment_method_token: 'tok_sim_decline' })
        .catch((e: unknown) => e);
      assert.ok(error instanceof CardError);
      assert.equal(error.paymentIntent?.status, 'FAILED');
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('does not retry a POST whose connection is destroyed after the request was received', async () => {
    const server = await startServer((_req, _res, _i, raw) => raw.socket.destroy());
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      const error = await client.refunds
        .create({ payment_intent_id: ID }, { idempotencyKey: 'order-42-refund-1' })
        .catch((e: unknown) => e);
      assert.ok(error instanceof PaygateConnectionError, String(error));
      assert.equal(error.mayHaveBeenSent, true);
      assert.equal(error.idempotencyKey, 'order-42-refund-1');
      assert.equal(server.requests.length, 1);
      assert.deepEqual(sleeps, []);
    } finally {
      await server.close();
    }
  });

  it('does not retry a POST whose connection is destroyed before the request was read (delivery unknown)', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, intentBody), { dropOnConnect: 1 });
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      const error = await client.paymentIntents.cancel(ID).catch((e: unknown) => e);
      assert.ok(error instanceof PaygateConnectionError, String(error));
      assert.equal(error.mayHaveBeenSent, true);
      assert.equal(server.connections, 1);
      assert.equal(server.requests.length, 0);
      assert.deepEqual(sleeps, []);
    } finally {
      await server.close();
    }
  });

  it('does not retry a POST that times out', async () => {
    const server = await startServer((_req, res) => {
      const timer = setTimeout(() => sendJson(res, 200, intentBody), 2_000);
      res.on('close', () => clearTimeout(timer));
    });
    try {
      const { client, sleeps } = testClient(server.baseUrl, { timeoutMs: 100 });
      const error = await client.paymentIntents.confirm(ID).catch((e: unknown) => e);
      assert.ok(error instanceof PaygateConnectionError, String(error));
      assert.equal(error.mayHaveBeenSent, true);
      assert.equal(server.requests.length, 1);
      assert.deepEqual(sleeps, []);
    } finally {
      await server.close();
    }
  });
});

describe('POST retried only when it never left', () => {
  it('retries a create refused at connect, with the same Idempotency-Key, once the server is up', async () => {
    const port = await closedPort();
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    const sleeps: number[] = [];
    const { client } = testClient(`http://127.0.0.1:${port}`, {
      sleep: async (ms) => {
        sleeps.push(ms);
        // The service comes up during the back-off wait.
        server ??= await startServer((_req, res) => sendJson(res, 201, intentBody), { port });
      },
    });
    try {
      const intent = await client.paymentIntents.create(createParams, { idempotencyKey: 'order-7-pay' });
      assert.equal(intent.id, ID);
      assert.deepEqual(sleeps, [250]);
      assert.equal(server?.requests.length, 1);
      assert.equal(server?.requests[0]?.headers['idempotency-key'], 'order-7-pay');
      assert.equal(intent.lastResponse.idempotencyKey, 'order-7-pay');
    } finally {
      await server?.close();
    }
  });

  it('throws PaygateConnectionError (not sent) after the retries when the connection is always refused', async () => {
    const port = await closedPort();
    const { client, sleeps } = testClient(`http://127.0.0.1:${port}`);
    const error = await client.paymentIntents.create(createParams).catch((e: unknown) => e);
    assert.ok(error instanceof PaygateConnectionError, String(error));
    assert.equal(error.mayHaveBeenSent, false);
    assert.match(error.message, /ECONNREFUSED/);
    assert.match(error.message, /3 attempt/);
    assert.deepEqual(sleeps, [250, 500]);
    assert.match(
      error.idempotencyKey ?? '',
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
