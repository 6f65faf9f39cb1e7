import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { backoffMs, parseRetryAfterMs } from '../src/request-sender.ts';
import { problem, sendJson, startServer, testClient } from './support.ts';

describe('back-off', () => {
  it('is full jitter: random() times min(8000, 500 * 2^retry)', () => {
    assert.equal(
      backoffMs(0, () => 0),
      0,
    );
    assert.equal(
      backoffMs(0, () => 0.5),
      250,
    );
    assert.equal(
      backoffMs(1, () => 0.5),
      500,
    );
    assert.equal(
      backoffMs(3, () => 0.5),
      2000,
    );
    assert.equal(
      backoffMs(4, () => 0.5),
      4000,
    );
    assert.equal(
      backoffMs(5, () => 0.5),
      4000,
    );
    assert.equal(
      backoffMs(9, () => 0.5),
      4000,
    );
  });

  it('stays in [0, min(8000, 500 * 2^retry)) for every random value in [0, 1)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, r) => {
          const wait = backoffMs(retry, () => r);
          const bound = Math.min(8000, 500 * 2 ** retry);
          return wait >= 0 && wait < bound && wait <= 8000;
        },
      ),
    );
  });

  it('records the real waits of a client against a failing server, never above the cap', async () => {
    const server = await startServer((_req, res) => sendJson(res, 503, problem(503, 'internal_error')));
    try {
      const { client, sleeps } = testClient(server.baseUrl, { maxRetries: 7, random: () => 0.999999 });
      await assert.rejects(client.paymentIntents.retrieve('pi_0123456789abcdefghijABCD'));
      assert.equal(server.requests.length, 8);
      const bounds = [500, 1000, 2000, 4000, 8000, 8000, 8000];
      assert.equal(sleeps.length, bounds.length);
      sleeps.forEach((wait, i) => {
        assert.ok(wait < bounds[i]! && wait > bounds[i]! * 0.999, `wait ${i} = ${wait}`);
      });
    } finally {
      await server.close();
    }
  });

  it('reads Retry-After seconds and dates, capped at 60 s', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs('0', now), 0);
    assert.equal(parseRetryAfterMs(' 5 ', now), 5000);
    assert.equal(parseRetryAfterMs('61', now), 60_000);
    assert.equal(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfterMs('Wed, 01 Jan 2025 01:00:00 GMT', now), 60_000);
    assert.equal(parseRetryAfterMs('Tue, 31 Dec 2024 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfterMs('-3', now), undefined);
    assert.equal(parseRetryAfterMs('later', now), undefined);
    assert.equal(parseRetryAfterMs(null, now), undefined);
  });
});
