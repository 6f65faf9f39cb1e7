import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock, ShiftedClock } from '../src/clock.ts';
import { FREE_FAILURES, throttleSubject } from '../src/domain/attempt-throttle.ts';
import { totpCodeAt } from '../src/domain/totp.ts';
import {
  type DashboardUser,
  dashboardRequest,
  firstOwner,
  TEST_PASSWORD,
  teamMember,
} from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const BURST = 12;

/** The statuses of a burst, sorted: what each concurrent attempt was answered. */
const statusesOf = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode).sort();
const expectedBurst = (checked: number) => [
  ...Array<number>(FREE_FAILURES).fill(checked),
  ...Array<number>(BURST - FREE_FAILURES).fill(429),
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

for (const kind of databaseKinds()) {
  describe(`dashboard sign-in throttle (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;

    before(async () => {
      // The clock stands still unless a test moves it: a block lasts until the test says so.
      svc = await startTestService(kind, {
        clock: new ShiftedClock(new ManualClock(new Date('2026-06-01T09:00:00.000Z'))),
      });
      merchant = await svc.createMerchant('Throttle shop');
      owner = await firstOwner(svc, merchant.id, 'owner@throttle.example');
    });
    after(() => svc.close());

    const signIn = (email: string, password: string, totp_code?: string) =>
      svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/session',
        body: { email, password, ...(totp_code !== undefined ? { totp_code } : {}) },
      });
    const failuresOf = async (kindOf: 'sign-in' | 'invitation', value: string) => {
      const { rows } = await svc.ctx.db.query<{ failures: number }>(
        'SELECT failures FROM dashboard_attempt_throttle WHERE subject = $1',
        [throttleSubject(kindOf, value)],
      );
      return rows[0]?.failures ?? 0;
    };

    it('blocks at exactly 5 failures: the 6th attempt is refused even with the right password', async () => {
      const email = 'five@throttle.example';
      await teamMember(svc, owner, email, 'viewer');
      for (let i = 0; i < FREE_FAILURES - 1; i++) {
        assert.equal((await signIn(email, 'wrong password!!')).statusCode, 401);
      }
      assert.equal((await signIn(email, TEST_PASSWORD)).statusCode, 200, 'four failures do not block');
      for (let i = 0; i < FREE_FAILURES; i++) {
        assert.equal((await signIn(email, 'wrong password!!')).statusCode, 401, `failure ${i + 1}`);
      }
      const sixth = await signIn(email, TEST_PASSWORD);
      assert.equal(sixth.statusCode, 429, sixth.body);
      assert.equal(sixth.headers['retry-after'], '30');
      svc.clock.advance(30);
      assert.equal((await signIn(email, TEST_PASSWORD)).statusCode, 200, 'the block ends after 30 s');
    });

    it('counts every one of 12 concurrent wrong passwords: 5 are checked, 7 refused, and the right one then too', async () => {
      const email = 'burst@throttle.example';
      await teamMember(svc, owner, email, 'viewer');
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) => signIn(email, `wrong password ${i}!`)),
      );
      assert.deepEqual(statusesOf(answers), expectedBurst(401));
      assert.equal(await failuresOf('sign-in', email), FREE_FAILURES);
      const right = await signIn(email, TEST_PASSWORD);
      assert.equal(right.statusCode, 429, `the burst blocked the account: ${right.body}`);
      svc.clock.advance(30);
      assert.equal((await signIn(email, TEST_PASSWORD)).statusCode, 200);
      assert.equal(await failuresOf('sign-in', email), 0, 'a success starts the count again');
    });

    it('answers a known and an unknown address alike: status, body, Retry-After and time', async () => {
      const known = 'known@throttle.example';
      const unknown = 'nobody-here@throttle.example';
      await teamMember(svc, owner, known, 'viewer');
      const times: Record<string, number[]> = { known: [], unknown: [] };
      for (let i = 0; i < FREE_FAILURES + 2; i++) {
        const answers: LightMyRequestResponse[] = [];
        for (const [name, email] of [
          ['known', known],
          ['unknown', unknown],
        ] as const) {
          const started = performance.now();
          answers.push(await signIn(email, 'wrong password!!'));
          if (i < FREE_FAILURES) times[name]?.push(performance.now() - started);
        }
        const [a, b] = answers as [LightMyRequestResponse, LightMyRequestResponse];
        assert.equal(a.statusCode, i < FREE_FAILURES ? 401 : 429, `attempt ${i + 1}: ${a.body}`);
        assert.equal(b.statusCode, a.statusCode, `attempt ${i + 1}: ${b.body}`);
        const { request_id: _a, ...bodyA } = a.json();
        const { request_id: _b, ...bodyB } = b.json();
        assert.deepEqual(bodyB, bodyA);
        assert.equal(b.headers['retry-after'], a.headers['retry-after']);
      }
      // Both do the same scrypt work: the medians differ by far less than one hash.
      const k = median(times.known ?? []);
      const u = median(times.unknown ?? []);
      assert.ok(
        Math.abs(k - u) <= 0.5 * Math.max(k, u),
        `known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`,
      );
      svc.clock.advance(30);
    });

    it('counts concurrent wrong second-factor codes, and a missing code not at all', async () => {
      const email = 'totp@throttle.example';
      const user = await teamMember(svc, owner, email, 'developer');
      const enrol = await dashboardRequest(svc, user, 'POST', '/dashboard/api/v1/totp/enrol');
      const secret: string = enrol.json().secret;
      const confirmed = await dashboardRequest(svc, user, 'POST', '/dashboard/api/v1/totp/confirm', {
        code: totpCodeAt(secret, svc.clock.now()),
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      for (let i = 0; i < FREE_FAILURES + 2; i++) {
        const missing = await signIn(email, TEST_PASSWORD);
        assert.equal(missing.json().errors?.[0]?.field, 'totp_code', missing.body);
      }
      assert.equal(await failuresOf('sign-in', email), 0, 'the form asking for the code is no failure');
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) => signIn(email, TEST_PASSWORD, String(100000 + i))),
      );
      assert.deepEqual(statusesOf(answers), expectedBurst(401));
      svc.clock.advance(30);
      const good = await signIn(email, TEST_PASSWORD, totpCodeAt(secret, svc.clock.now()));
      assert.equal(good.statusCode, 200, good.body);

      // Turning the second factor off takes a code too, counted the same way.
      const session = {
        email,
        cookie: `paygate_session=${good.cookies[0]?.value}`,
        csrf: good.json().csrf_token,
      };
      for (let i = 0; i < FREE_FAILURES; i++) {
        const wrong = await dashboardRequest(svc, session, 'POST', '/dashboard/api/v1/totp/disable', {
          code: String(200000 + i),
        });
        assert.equal(wrong.statusCode, 400, wrong.body);
      }
      // The next step's code: valid (one step of tolerance) and not used yet.
      const next = totpCodeAt(secret, new Date(svc.clock.now().getTime() + 30_000));
      const right = await dashboardRequest(svc, session, 'POST', '/dashboard/api/v1/totp/disable', {
        code: next,
      });
      assert.equal(right.statusCode, 429, `five wrong codes block the sixth attempt: ${right.body}`);
      svc.clock.advance(30);
      const later = await dashboardRequest(svc, session, 'POST', '/dashboard/api/v1/totp/disable', {
        code: totpCodeAt(secret, svc.clock.now()),
      });
      assert.equal(later.statusCode, 200, later.body);
    });

    it('counts concurrent unknown invitation tokens per client address', async () => {
      const invite = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/dashboard-invitations`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { email: 'invited@throttle.example' },
      });
      assert.equal(invite.statusCode, 201, invite.body);
      const accept = (token: string, remoteAddress = '192.0.2.7') =>
        svc.app.inject({
          method: 'POST',
          url: '/dashboard/api/v1/invitations/accept',
          remoteAddress,
          payload: { token, password: TEST_PASSWORD },
        });
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) => accept(`inv_guess${i}xxxxxxxxxxxxxxxxxxxxxxxxx`)),
      );
      assert.deepEqual(statusesOf(answers), expectedBurst(400));
      assert.equal(await failuresOf('invitation', '192.0.2.7'), FREE_FAILURES);
      const real = await accept(invite.json().token);
      assert.equal(real.statusCode, 429, real.body);
      const elsewhere = await accept(invite.json().token, '198.51.100.9');
      assert.equal(elsewhere.statusCode, 200, `another address has its own count: ${elsewhere.body}`);
    });
  });
}
