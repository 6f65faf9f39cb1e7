import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  GatewayUnavailableError,
  InternalServerError,
  PaygateApiError,
  PaygateConnectionError,
  RateLimitError,
} from '../src/index.ts';
import { intentBody, problem, sendJson, startServer, testClient } from './support.ts';

const ID = intentBody.id;

describe('GET retries', () => {
  it('retries a GET on 500 and returns the eventual success', async () => {
    const server = await startServer((_req, res, i) =>
      i < 2 ? sendJson(res, 500, problem(500, 'internal_error')) : sendJson(res, 200, intentBody),
    );
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      const intent = await client.paymentIntents.retrieve(ID);
      assert.equal(intent.id, ID);
      assert.equal(server.requests.length, 3);
      // random() = 0.5: half of 500 ms, then half of 1000 ms.
      assert.deepEqual(sleeps, [250, 500]);
    } finally {
      await server.close();
    }
  });

  it('gives up after maxRetries (2 retries, 3 attempts) and throws the last error', async () => {
    const server = await startServer((_req, res) => sendJson(res, 500, problem(500, 'internal_error')));
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      const error = await client.paymentIntents.retrieve(ID).catch((e: unknown) => e);
      assert.ok(error instanceof InternalServerError);
      assert.equal(error.requestId, 'req_500');
      assert.equal(server.requests.length, 3);
      assert.equal(sleeps.length, 2);
    } finally {
      await server.close();
    }
  });

  it('honours maxRetries: 0 (a single attempt)', async () => {
    const server = await startServer((_req, res) => sendJson(res, 502, problem(502, 'bad_gateway')));
    try {
      const { client, sleeps } = testClient(server.baseUrl, { maxRetries: 0 });
      await assert.rejects(client.paymentIntents.retrieve(ID), PaygateApiError);
      assert.equal(server.requests.length, 1);
      assert.deepEqual(sleeps, []);
    } finally {
      await server.close();
    }
  });

  it('waits Retry-After seconds on 429 rate_limited', async () => {
    const server = await startServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, problem(429, 'rate_limited'), { 'Retry-After': '7' })
        : sendJson(res, 200, intentBody),
    );
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      await client.paymentIntents.retrieve(ID);
      assert.deepEqual(sleeps, [7000]);
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  it('waits Retry-After seconds on 503 gateway_unavailable, and throws GatewayUnavailableError at the end', async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 503, problem(503, 'gateway_unavailable'), { 'Retry-After': '3' }),
    );
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      await assert.rejects(client.paymentIntents.retrieve(ID), GatewayUnavailableError);
      assert.deepEqual(sleeps, [3000, 3000]);
    } finally {
      await server.close();
    }
  });

  it('caps Retry-After at 60 s', async () => {
    const server = await startServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, problem(429, 'rate_limited'), { 'Retry-After': '3600' })
        : sendJson(res, 200, intentBody),
    );
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      await client.paymentIntents.retrieve(ID);
      assert.deepEqual(sleeps, [60_000]);
    } finally {
      await server.close();
    }
  });

  it('reads a Retry-After HTTP date against the injected clock', async () => {
    const nowMs = Date.parse('2025-01-01T00:00:00Z');
    const server = await startServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, problem(429, 'rate_limited'), { 'Retry-After': 'Wed, 01 Jan 2025 00:00:12 GMT' })
        : sendJson(res, 200, intentBody),
    );
    try {
      const { client, sleeps } = testClient(server.baseUrl, { now: () => nowMs });
      await client.paymentIntents.retrieve(ID);
      assert.deepEqual(sleeps, [12_000]);
    } finally {
      await server.close();
    }
  });

  for (const [status, code] of [
    [500, 'internal_error'],
    [502, 'bad_gateway'],
    [503, 'internal_error'],
    [429, 'something_else'],
  ] as const) {
    it(`ignores Retry-After on ${status} ${code} and uses the back-off instead`, async () => {
      const server = await startServer((_req, res, i) =>
        i === 0
          ? sendJson(res, status, problem(status, code), { 'Retry-After': '30' })
          : sendJson(res, 200, intentBody),
      );
      try {
        const { client, sleeps } = testClient(server.baseUrl);
        await client.paymentIntents.retrieve(ID);
        assert.deepEqual(sleeps, [250]);
      } finally {
        await server.close();
      }
    });
  }

  it('falls back to the back-off when Retry-After is missing or unreadable', async () => {
    const server = await startServer((_req, res, i) => {
      if (i === 0) return sendJson(res, 429, problem(429, 'rate_limited'));
      if (i === 1) return sendJson(res, 429, problem(429, 'rate_limited'), { 'Retry-After': 'soon' });
      return sendJson(res, 200, intentBody);
    });
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      await client.paymentIntents.retrieve(ID);
      assert.deepEqual(sleeps, [250, 500]);
    } finally {
      await server.close();
    }
  });

  it('does not retry a GET on 4xx other than 429', async () => {
    const server = await startServer((_req, res) => sendJson(res, 404, problem(404, 'resource_not_found')));
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      await assert.rejects(client.paymentIntents.retrieve(ID), { code: 'resource_not_found' });
      assert.equal(server.requests.length, 1);
      assert.deepEqual(sleeps, []);
    } finally {
      await server.close();
    }
  });

  it('throws RateLimitError when 429 persists', async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 429, problem(429, 'rate_limited'), { 'Retry-After': '1' }),
    );
    try {
      const { client } = testClient(server.baseUrl);
      await assert.rejects(client.refunds.retrieve('re_0123456789abcdefghijABCD'), RateLimitError);
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });

  it('retries a GET whose connection is destroyed after the request was received', async () => {
    const server = await startServer((_req, res, i, raw) => {
      if (i < 2) raw.socket.destroy();
      else sendJson(res, 200, intentBody);
    });
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      const intent = await client.paymentIntents.retrieve(ID);
      assert.equal(intent.id, ID);
      assert.equal(server.requests.length, 3);
      assert.equal(sleeps.length, 2);
    } finally {
      await server.close();
    }
  });

  it('retries a GET whose connection is destroyed before the request was read', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, intentBody), { dropOnConnect: 2 });
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      const intent = await client.paymentIntents.retrieve(ID);
      assert.equal(intent.id, ID);
      assert.equal(server.requests.length, 1);
      assert.equal(server.connections, 3);
      assert.equal(sleeps.length, 2);
    } finally {
      await server.close();
    }
  });

  it('retries a GET that times out, then throws PaygateConnectionError', async () => {
    const server = await startServer((_req, res) => {
      const timer = setTimeout(() => sendJson(res, 200, intentBody), 2_000);
      res.on('close', () => clearTimeout(timer));
    });
    try {
      const { client, sleeps } = testClient(server.baseUrl, { timeoutMs: 100 });
      const error = await client.paymentIntents.retrieve(ID).catch((e: unknown) => e);
      assert.ok(error instanceof PaygateConnectionError, String(error));
      assert.match(error.message, /100 ms/);
      assert.equal(server.requests.length, 3);
      assert.equal(sleeps.length, 2);
    } finally {
      await server.close();
    }
  });

  it('times out a response whose body stalls after the headers', async () => {
    const server = await startServer((_req, res, i) => {
      if (i > 0) return sendJson(res, 200, intentBody);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"id":');
    });
    try {
      const { client } = testClient(server.baseUrl, { timeoutMs: 150 });
      const intent = await client.paymentIntents.retrieve(ID);
      assert.equal(intent.id, ID);
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });
});
