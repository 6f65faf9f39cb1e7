import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ManualClock, ShiftedClock } from '../src/clock.ts';
import { type ApiKeyRow, insertApiKey } from '../src/storage/repositories/api-keys.ts';
import { findMerchant, insertMerchant } from '../src/storage/repositories/merchants.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const REDIS_URL = process.env.PAYGATE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('rate limiting', () => {
  let svc: TestService;
  let merchant: MerchantKeys;
  before(async () => {
    // A clock that stands still unless the test moves it: the one-second windows are exact.
    svc = await startTestService('embedded', {
      rateLimitPerSecond: 3,
      clock: new ShiftedClock(new ManualClock()),
    });
    merchant = await svc.createMerchant();
  });
  after(() => svc.close());

  it('answers 429 rate_limited with Retry-After once a key spends its budget, per key', async () => {
    const read = (key: string) =>
      svc.request({ method: 'GET', url: '/v1/payment-intents/pi_000000000000000000000000', key });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await read(merchant.secretTest)).statusCode);
    assert.deepEqual(statuses, [404, 404, 404, 429, 429]);
    const limited = await read(merchant.secretTest);
    assert.equal(limited.json().code, 'rate_limited');
    assert.match(String(limited.headers['content-type']), /^application\/problem\+json/);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1,
      `Retry-After ${limited.headers['retry-after']}`,
    );
    // Another key has its own budget.
    assert.equal((await read(merchant.secretLive)).statusCode, 404);
  });

  it('renews the budget when the window has passed on the clock', async () => {
    const read = () =>
      svc.request({
        method: 'GET',
        url: '/v1/payment-intents/pi_000000000000000000000000',
        key: merchant.secretTest,
      });
    svc.clock.advance(1);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await read()).statusCode);
    assert.deepEqual(statuses, [404, 404, 404, 429]);
    svc.clock.advance(0.5);
    assert.equal((await read()).statusCode, 429, 'half a window later the budget is still spent');
    svc.clock.advance(0.5);
    assert.equal((await read()).statusCode, 404, 'a full window later it is renewed');
  });
});

describe('rate limiting shared through Redis', () => {
  let first: TestService;
  let second: TestService;
  before(async () => {
    first = await startTestService('embedded', { rateLimitPerSecond: 4, redisUrl: REDIS_URL });
    second = await startTestService('embedded', { rateLimitPerSecond: 4, redisUrl: REDIS_URL });
  });
  after(async () => {
    await first.close();
    await second.close();
  });

  it('spends one budget across two processes for the same key', async () => {
    // Both services must know the key: the same key row is inserted into the second database.
    const merchant = await first.createMerchant();
    const keys = await first.ctx.db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE merchant_id = $1', [
      merchant.id,
    ]);
    const stored = await findMerchant(first.ctx.db, merchant.id);
    assert.ok(stored);
    await insertMerchant(second.ctx.db, stored);
    for (const key of keys.rows) await insertApiKey(second.ctx.db, key);
    const url = `/v1/payment-intents/pi_${randomBytes(12).toString('hex').slice(0, 24)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const svc = i % 2 === 0 ? first : second;
      statuses.push((await svc.request({ method: 'GET', url, key: merchant.secretTest })).statusCode);
    }
    assert.deepEqual(statuses.slice(0, 4), [404, 404, 404, 404]);
    assert.deepEqual(statuses.slice(4), [429, 429]);
  });
});

describe('rate limiting requests that fail authentication, per client address', () => {
  const BUDGET = 5;
  let svc: TestService;
  let merchant: MerchantKeys;
  let lookups = 0;
  before(async () => {
    svc = await startTestService('embedded', { unauthenticatedRateLimitPerSecond: BUDGET });
    merchant = await svc.createMerchant();
    // Counts the database lookups of API keys (what a flood of bad keys must not multiply).
    const query = svc.ctx.db.query.bind(svc.ctx.db);
    svc.ctx.db.query = ((sql: string, params?: readonly unknown[]) => {
      if (/FROM api_keys/i.test(sql) && /key_hash/i.test(sql)) lookups += 1;
      return query(sql, params);
    }) as typeof svc.ctx.db.query;
  });
  after(() => svc.close());

  const randomKey = () => `sk_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
  const failures: [string, () => Record<string, string>, string][] = [
    ['no key', () => ({}), '/v1/payment-intents/pi_000000000000000000000000'],
    [
      'Authorization: Bearer',
      () => ({ authorization: `Bearer ${randomKey()}` }),
      '/v1/payment-intents/pi_000000000000000000000000',
    ],
    [
      'a malformed key',
      () => ({ 'x-api-key': 'sk_nope' }),
      '/v1/payment-intents/pi_000000000000000000000000',
    ],
    ['a new unknown key each time', () => ({ 'x-api-key': randomKey() }), '/v1/transactions'],
    [
      'a wrong operator token',
      () => ({ 'x-admin-token': 'wrong-token-wrong-token' }),
      '/admin/v1/webhook-endpoints/we_000000000000000000000000',
    ],
  ];

  for (const [index, [label, headers, url]] of failures.entries()) {
    it(`answers 429 rate_limited with Retry-After to an address sending ${label}, and only to it`, async () => {
      const address = `10.22.0.${index + 1}`;
      const lookupsBefore = lookups;
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof svc.app.inject>> | null = null;
      while (statuses.length < 100 && !limited) {
        const response = await svc.app.inject({
          method: 'GET',
          url,
          headers: headers(),
          remoteAddress: address,
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) limited = response;
      }
      assert.ok(limited, `no 429 in ${statuses.length} requests: ${statuses.join(',')}`);
      assert.equal(limited.json().code, 'rate_limited');
      assert.match(String(limited.headers['content-type']), /^application\/problem\+json/);
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.ok(
        statuses.every((s) => s === 401 || s === 429),
        statuses.join(','),
      );
      // Each database lookup was paid for from the budget: no more lookups than answered 401s.
      assert.ok(lookups - lookupsBefore <= statuses.filter((s) => s === 401).length);
      // Another address is not affected, and a known key works from the limited address.
      const other = await svc.app.inject({
        method: 'GET',
        url,
        headers: headers(),
        remoteAddress: `10.23.0.${index + 1}`,
      });
      assert.equal(other.statusCode, 401);
    });
  }

  it('keeps serving a known key from an address that floods with bad ones', async () => {
    const address = '10.22.1.1';
    const read = () =>
      svc.app.inject({
        method: 'GET',
        url: '/v1/payment-intents/pi_000000000000000000000000',
        headers: { 'x-api-key': merchant.secretTest },
        remoteAddress: address,
      });
    assert.equal((await read()).statusCode, 404);
    let statuses: number[] = [];
    while (!statuses.includes(429) && statuses.length < 100) {
      statuses = [
        ...statuses,
        (await svc.app.inject({ method: 'GET', url: '/v1/transactions', remoteAddress: address })).statusCode,
      ];
    }
    assert.ok(statuses.includes(429));
    assert.equal((await read()).statusCode, 404);
  });

  it('looks an unknown key up once and answers its repeats from a negative cache', async () => {
    const key = randomKey();
    const lookupsBefore = lookups;
    const statuses: number[] = [];
    for (let i = 0; i < BUDGET - 1; i++) {
      const response = await svc.app.inject({
        method: 'GET',
        url: '/v1/transactions',
        headers: { 'x-api-key': key },
        remoteAddress: '10.22.2.1',
      });
      statuses.push(response.statusCode);
    }
    assert.ok(statuses.includes(401));
    assert.equal(lookups - lookupsBefore, 1);
  });
});
