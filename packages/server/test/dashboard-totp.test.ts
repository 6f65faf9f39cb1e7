import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock, ShiftedClock } from '../src/clock.ts';
import { totpCodeAt } from '../src/domain/totp.ts';
import { type DashboardUser, dashboardRequest, firstOwner, TEST_PASSWORD } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const EMAIL = 'owner@totp.example';

for (const kind of databaseKinds()) {
  describe(`dashboard two-step sign-in (TOTP, ${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let secret: string;
    let recoveryCodes: string[];

    before(async () => {
      svc = await startTestService(kind, {
        clock: new ShiftedClock(new ManualClock(new Date('2026-05-01T10:00:05.000Z'))),
      });
      merchant = await svc.createMerchant('TOTP shop');
      owner = await firstOwner(svc, merchant.id, EMAIL);
    });
    after(() => svc.close());

    const signInWith = (totp_code?: string) =>
      svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/session',
        body: { email: EMAIL, password: TEST_PASSWORD, ...(totp_code !== undefined ? { totp_code } : {}) },
      });

    it('enrols: a sealed key, shown with a QR code drawn locally, on only after a right code', async () => {
      const started = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/totp/enrol');
      assert.equal(started.statusCode, 200, started.body);
      secret = started.json().secret;
      assert.match(secret, /^[A-Z2-7]{32}$/);
      assert.match(started.json().otpauth_uri, /^otpauth:\/\/totp\/Paygate:owner%40totp\.example\?/);
      assert.match(started.json().qr_svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      const stored = await svc.ctx.db.query<{ secret_sealed: string }>(
        'SELECT t.secret_sealed FROM dashboard_totp t JOIN dashboard_users u ON u.id = t.user_id WHERE u.email = $1',
        [EMAIL],
      );
      assert.ok(stored.rows[0]?.secret_sealed.startsWith('v1.'));
      assert.equal(stored.rows[0]?.secret_sealed.includes(secret), false, 'sealed, not in clear');
      assert.equal((await signInWith()).statusCode, 200, 'not on before it is confirmed');

      const wrong = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/totp/confirm', {
        code: '000000',
      });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().errors[0].field, 'code');
      const confirmed = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/totp/confirm', {
        code: totpCodeAt(secret, svc.clock.now()),
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      recoveryCodes = confirmed.json().recovery_codes;
      assert.equal(recoveryCodes.length, 10);
      const hashes = await svc.ctx.db.query<{ code_hash: string }>(
        'SELECT code_hash FROM dashboard_recovery_codes',
      );
      assert.equal(hashes.rows.length, 10);
      assert.ok(
        hashes.rows.every((row) => !recoveryCodes.includes(row.code_hash)),
        'stored hashed',
      );
    });

    it('then asks for the code at sign-in, naming the field, and refuses a code used before', async () => {
      const missing = await signInWith();
      assert.equal(missing.statusCode, 401);
      assert.equal(missing.json().code, 'invalid_credentials');
      assert.equal(missing.json().errors[0].field, 'totp_code');
      const replayed = await signInWith(totpCodeAt(secret, svc.clock.now()));
      assert.equal(replayed.statusCode, 401, 'the confirmation already used this step');
      svc.clock.advance(30);
      const good = await signInWith(totpCodeAt(secret, svc.clock.now()));
      assert.equal(good.statusCode, 200, good.body);
      const again = await signInWith(totpCodeAt(secret, svc.clock.now()));
      assert.equal(again.statusCode, 401, 'one code, one sign-in');
      svc.clock.advance(30);
      const fromPhoneRunningLate = await signInWith(
        totpCodeAt(secret, new Date(svc.clock.now().getTime() - 30_000)),
      );
      assert.equal(fromPhoneRunningLate.statusCode, 401, 'a step at or before the last one used is refused');
      svc.clock.advance(30);
      assert.equal((await signInWith('123456')).statusCode, 401);
    });

    it('takes each recovery code once', async () => {
      const [code] = recoveryCodes;
      assert.ok(code);
      assert.equal((await signInWith(code.toUpperCase())).statusCode, 200);
      assert.equal((await signInWith(code)).statusCode, 401);
    });

    it('turns off only with a code, and records both changes in the audit log', async () => {
      const session = await signInWith(recoveryCodes[1]);
      const cookie = session.cookies.find((c) => c.name === 'paygate_session');
      const user = {
        email: EMAIL,
        cookie: `paygate_session=${cookie?.value}`,
        csrf: session.json().csrf_token,
      };
      const refused = await dashboardRequest(svc, user, 'POST', '/dashboard/api/v1/totp/disable', {
        code: '111111',
      });
      assert.equal(refused.statusCode, 400);
      svc.clock.advance(30);
      const off = await dashboardRequest(svc, user, 'POST', '/dashboard/api/v1/totp/disable', {
        code: totpCodeAt(secret, svc.clock.now()),
      });
      assert.equal(off.statusCode, 200, off.body);
      assert.equal((await signInWith()).statusCode, 200);
      const audit = (await dashboardRequest(svc, user, 'GET', '/dashboard/api/v1/audit-log')).json().data;
      const actions = audit.map((e: { action: string }) => e.action);
      assert.ok(actions.includes('totp.enabled') && actions.includes('totp.disabled'), actions.join());
    });
  });
}
