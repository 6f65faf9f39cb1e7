import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FREE_FAILURES } from '../src/domain/attempt-throttle.ts';
import { TEST_PASSWORD } from './support/dashboard.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { freePort, type PaygateProcess, startPaygate } from './support/processes.ts';

const ADMIN_TOKEN = `adm_${randomBytes(16).toString('hex')}`;
const BURST = 12;

async function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

// Two service processes on one database: PostgreSQL only (the embedded database belongs to one process).
for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`dashboard sign-in throttle over two processes (${kind})`, () => {
    let database: TestDatabase;
    const processes: PaygateProcess[] = [];
    const bases: string[] = [];

    before(async () => {
      database = await openTestDatabase(kind);
      const masterKey = randomBytes(32).toString('hex');
      for (const name of ['api-a', 'api-b']) {
        const port = await freePort();
        const member = startPaygate(name, ['start'], {
          PORT: String(port),
          PAYGATE_SIM: 'off',
          PAYGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
          PAYGATE_DATABASE_URL: database.url ?? '',
          PAYGATE_MASTER_KEY: masterKey,
          PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN,
          PAYGATE_RATE_LIMIT_PER_SECOND: '100000',
          PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: '100000',
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

    it('counts 12 concurrent wrong passwords sent to two processes as 12 attempts: 5 checked, 7 refused', async () => {
      const [a, b] = bases as [string, string];
      const merchant = await post(
        a,
        '/admin/v1/merchants',
        { name: 'Two processes' },
        { 'x-admin-token': ADMIN_TOKEN },
      );
      assert.equal(merchant.status, 201, JSON.stringify(merchant.json));
      const email = 'owner@two-processes.example';
      const invited = await post(
        b,
        `/admin/v1/merchants/${merchant.json.id}/dashboard-invitations`,
        { email },
        { 'x-admin-token': ADMIN_TOKEN },
      );
      assert.equal(invited.status, 201, JSON.stringify(invited.json));
      const accepted = await post(a, '/dashboard/api/v1/invitations/accept', {
        token: invited.json.token,
        password: TEST_PASSWORD,
      });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.json));

      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          post(i % 2 === 0 ? a : b, '/dashboard/api/v1/session', { email, password: `wrong password ${i}!` }),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [
        ...Array<number>(FREE_FAILURES).fill(401),
        ...Array<number>(BURST - FREE_FAILURES).fill(429),
      ]);
      for (const base of bases) {
        const right = await post(base, '/dashboard/api/v1/session', { email, password: TEST_PASSWORD });
        assert.equal(right.status, 429, `${base}: ${JSON.stringify(right.json)}`);
      }
      const { rows } = await database.db.query<{ failures: number }>(
        'SELECT failures FROM dashboard_attempt_throttle',
      );
      assert.deepEqual(
        rows.map((r) => r.failures),
        [FREE_FAILURES],
      );
    });
  });
}
