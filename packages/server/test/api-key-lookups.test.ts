import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { freePort, type PaygateProcess, startPaygate } from './support/processes.ts';
import { startTestService, type TestService } from './support/service.ts';

const ADMIN_TOKEN = `adm_${randomBytes(16).toString('hex')}`;
/** Far below the burst: every first look-up spending it would show as 429s. */
const UNAUTHENTICATED_BUDGET = 5;

async function post(base: string, path: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

for (const kind of databaseKinds()) {
  describe(`API key look-ups (${kind})`, () => {
    let svc: TestService;
    let lookups = 0;
    before(async () => {
      svc = await startTestService(kind, { unauthenticatedRateLimitPerSecond: UNAUTHENTICATED_BUDGET });
      // Counts the database lookups of API keys (what concurrent first requests must share).
      const query = svc.ctx.db.query.bind(svc.ctx.db);
      svc.ctx.db.query = ((sql: string, params?: readonly unknown[]) => {
        if (/FROM api_keys/i.test(sql) && /key_hash/i.test(sql)) lookups += 1;
        return query(sql, params);
      }) as typeof svc.ctx.db.query;
    });
    after(() => svc.close());

    it('shares one database lookup among 60 concurrent first requests of a valid key, none answered 429', async () => {
      const merchant = await svc.createMerchant();
      // Past the key cache's lifetime: the process has not seen the key for 5 s.
      svc.clock.advance(6);
      const before = lookups;
      const answers = await Promise.all(
        Array.from({ length: 60 }, () =>
          svc.app.inject({
            method: 'GET',
            url: '/v1/payment-intents/pi_000000000000000000000000',
            headers: { 'x-api-key': merchant.secretTest },
            remoteAddress: '10.40.0.1',
          }),
        ),
      );
      assert.deepEqual(
        [...new Set(answers.map((a) => a.statusCode))],
        [404],
        answers
          .map((a) => a.body)
          .join('\n')
          .slice(0, 500),
      );
      assert.equal(lookups - before, 1);
    });

    it('shares the lookup of an unknown key too, and each of its failures spends the address budget', async () => {
      const key = `sk_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
      const before = lookups;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          svc.app.inject({
            method: 'GET',
            url: '/v1/transactions',
            headers: { 'x-api-key': key },
            remoteAddress: '10.40.0.2',
          }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode).sort();
      assert.deepEqual(statuses, [
        ...Array<number>(UNAUTHENTICATED_BUDGET).fill(401),
        ...Array<number>(20 - UNAUTHENTICATED_BUDGET).fill(429),
      ]);
      assert.equal(lookups - before, 1);
    });

    it('refuses a key not cached from an address that spent its budget, before looking it up', async () => {
      const merchant = await svc.createMerchant('Exhausted address');
      svc.clock.advance(6);
      const address = '10.40.0.3';
      for (let i = 0; i < UNAUTHENTICATED_BUDGET; i++) {
        const bad = await svc.app.inject({ method: 'GET', url: '/v1/transactions', remoteAddress: address });
        assert.equal(bad.statusCode, 401);
      }
      const before = lookups;
      const valid = await svc.app.inject({
        method: 'GET',
        url: '/v1/transactions',
        headers: { 'x-api-key': merchant.secretTest },
        remoteAddress: address,
      });
      assert.equal(valid.statusCode, 429);
      assert.equal(lookups - before, 0);
      svc.clock.advance(1);
      const later = await svc.app.inject({
        method: 'GET',
        url: '/v1/transactions',
        headers: { 'x-api-key': merchant.secretTest },
        remoteAddress: address,
      });
      assert.equal(later.statusCode, 200, 'a window later the valid key is looked up and served');
    });
  });
}

// Three service processes on one database: PostgreSQL only (the embedded database belongs to one process).
for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`a burst of one valid key over three processes (${kind})`, () => {
    let database: TestDatabase;
    const processes: PaygateProcess[] = [];
    const bases: string[] = [];

    before(async () => {
      database = await openTestDatabase(kind);
      const masterKey = randomBytes(32).toString('hex');
      const simPort = await freePort();
      for (const name of ['api-a', 'api-b', 'api-c']) {
        const port = await freePort();
        const member = startPaygate(name, ['start'], {
          PORT: String(port),
          PAYGATE_SIM_PORT: String(simPort),
          PAYGATE_SIM_URL: `http://127.0.0.1:${simPort}`,
          PAYGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
          PAYGATE_DATABASE_URL: database.url ?? '',
          PAYGATE_MASTER_KEY: masterKey,
          PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN,
          PAYGATE_RATE_LIMIT_PER_SECOND: '100000',
          PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: String(UNAUTHENTICATED_BUDGET),
        });
        processes.push(member);
        await member.printed('Paygate is listening');
        bases.push(`http://127.0.0.1:${port}`);
      }
    });
    after(async () => {
      await Promise.all(processes.map((p) => p.stop()));
      await database.drop();
    });

    it('answers 500 concurrent creates with a key no process has seen with 500 × 200 and no 429', async () => {
      const merchant = await post(
        bases[0] ?? '',
        '/admin/v1/merchants',
        { name: 'Burst' },
        { 'x-admin-token': ADMIN_TOKEN },
      );
      assert.equal(merchant.status, 201, JSON.stringify(merchant.json));
      const key = (merchant.json.api_keys as { secret_test: string }).secret_test;
      const answers = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          post(
            bases[i % bases.length] ?? '',
            '/v1/payment-intents',
            { amount_minor: 1000 + i, currency: 'USD', gateway_id: 'sim' },
            { 'x-api-key': key, 'idempotency-key': `burst-${i}` },
          ),
        ),
      );
      const counts = new Map<number, number>();
      for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
      assert.deepEqual(
        Object.fromEntries(counts),
        { 200: 500 },
        JSON.stringify(answers.find((a) => a.status !== 200)?.json),
      );
    });
  });
}
