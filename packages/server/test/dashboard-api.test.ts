import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FREE_FAILURES } from '../src/domain/attempt-throttle.ts';
import {
  type DashboardUser,
  dashboardRequest,
  firstOwner,
  signIn,
  TEST_PASSWORD,
  teamMember,
} from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`dashboard API (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let paid: IntentJson;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Dashboard shop');
      owner = await firstOwner(svc, merchant.id, 'Owner@Shop.example');
      const pay = paymentHelpers(svc, () => merchant);
      paid = await pay.create({ amount_minor: 4000 });
      const confirmed = await pay.confirm(paid.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().status, 'SUCCEEDED', confirmed.body);
    });
    after(() => svc.close());

    it('sets the session cookie HttpOnly, SameSite=Strict, on /dashboard, not Secure over plain HTTP', async () => {
      const response = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/session',
        body: { email: 'owner@shop.example', password: TEST_PASSWORD },
      });
      assert.equal(response.statusCode, 200, response.body);
      const cookie = response.cookies.find((c) => c.name === 'paygate_session');
      assert.ok(cookie);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Strict');
      assert.equal(cookie.path, '/dashboard');
      assert.equal(cookie.secure, undefined, 'publicUrl is http://, so no Secure');
      const session = response.json();
      assert.equal(session.user.email, 'owner@shop.example', 'addresses are lower-cased');
      assert.equal(session.user.role, 'owner');
      assert.equal(session.user.merchant_id, merchant.id);
      // The session id is stored only as its hash.
      const { rows } = await svc.ctx.db.query<{ id_hash: string }>('SELECT id_hash FROM dashboard_sessions');
      assert.equal(
        rows.some((r) => r.id_hash === cookie.value),
        false,
      );
    });

    it('refuses a request without a session, and a change without the CSRF token', async () => {
      const anonymous = await svc.request({ method: 'GET', url: '/dashboard/api/v1/session' });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().code, 'invalid_session');
      const forged = await svc.request({
        method: 'GET',
        url: '/dashboard/api/v1/session',
        headers: { cookie: 'paygate_session=forged-value' },
      });
      assert.equal(forged.statusCode, 401);
      for (const csrf of [undefined, 'wrong-token']) {
        const refused = await svc.request({
          method: 'POST',
          url: '/dashboard/api/v1/test/refunds',
          headers: {
            cookie: owner.cookie,
            'idempotency-key': freshKey(),
            ...(csrf ? { 'x-csrf-token': csrf } : {}),
          },
          body: { payment_intent_id: paid.id, amount_minor: 100 },
        });
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().code, 'csrf_token_invalid');
      }
      assert.equal(
        (
          await svc.request({
            method: 'GET',
            url: `/v1/payment-intents/${paid.id}`,
            key: merchant.secretTest,
          })
        ).json().amount_refunded_minor,
        0,
      );
    });

    it('lists payments and shows one, in the mode the switch names', async () => {
      const list = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/api/v1/test/transactions?status=APPROVED&type=PAYMENT',
      );
      assert.equal(list.statusCode, 200, list.body);
      assert.ok(
        list.json().data.some((t: { payment_intent_id?: string }) => t.payment_intent_id === paid.id),
        list.body,
      );
      const live = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/live/transactions');
      assert.deepEqual(live.json().data, []);
      const detail = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/api/v1/test/payment-intents/${paid.id}`,
      );
      assert.equal(detail.statusCode, 200, detail.body);
      assert.equal(detail.json().amount_minor, 4000);
      assert.equal(detail.json().client_secret, undefined, 'the back office never shows the client secret');
      const liveDetail = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/api/v1/live/payment-intents/${paid.id}`,
      );
      assert.equal(liveDetail.statusCode, 404);
    });

    it('refunds through the public API use case: same rules, same idempotency, audited', async () => {
      const developer = await teamMember(svc, owner, 'dev@shop.example', 'developer');
      const key = freshKey();
      const refund = () =>
        dashboardRequest(
          svc,
          developer,
          'POST',
          '/dashboard/api/v1/test/refunds',
          {
            payment_intent_id: paid.id,
            amount_minor: 1500,
          },
          { 'idempotency-key': key },
        );
      const first = await refund();
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().amount_minor, 1500);
      const replay = await refund();
      assert.equal(replay.json().id, first.json().id, 'same key, same refund');
      const tooMuch = await dashboardRequest(
        svc,
        developer,
        'POST',
        '/dashboard/api/v1/test/refunds',
        {
          payment_intent_id: paid.id,
          amount_minor: 3000,
        },
        { 'idempotency-key': freshKey() },
      );
      assert.equal(tooMuch.statusCode, 422, tooMuch.body);
      assert.equal(tooMuch.json().code, 'amount_exceeds_refundable');
      const audit = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/audit-log');
      const entry = audit.json().data.find((e: { action: string }) => e.action === 'refund.created');
      assert.ok(entry, audit.body);
      assert.equal(entry.target, first.json().id);
      assert.equal(entry.user_email, 'dev@shop.example');
      assert.equal(entry.livemode, false);
    });

    it('lets only owners invite and read the audit log; a viewer changes nothing', async () => {
      const viewer = await teamMember(svc, owner, 'viewer@shop.example', 'viewer');
      const refund = await dashboardRequest(
        svc,
        viewer,
        'POST',
        '/dashboard/api/v1/test/refunds',
        {
          payment_intent_id: paid.id,
          amount_minor: 100,
        },
        { 'idempotency-key': freshKey() },
      );
      assert.equal(refund.statusCode, 403, refund.body);
      assert.equal(refund.json().code, 'insufficient_permissions');
      const invite = await dashboardRequest(svc, viewer, 'POST', '/dashboard/api/v1/invitations', {
        email: 'friend@shop.example',
        role: 'owner',
      });
      assert.equal(invite.statusCode, 403);
      assert.equal(
        (await dashboardRequest(svc, viewer, 'GET', '/dashboard/api/v1/audit-log')).statusCode,
        403,
      );
      const users = await dashboardRequest(svc, viewer, 'GET', '/dashboard/api/v1/users');
      assert.deepEqual(
        users
          .json()
          .data.map((u: { email: string }) => u.email)
          .sort(),
        ['dev@shop.example', 'owner@shop.example', 'viewer@shop.example'],
      );
      const audit = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/audit-log');
      const actions = audit
        .json()
        .data.map((e: { action: string; user_email: string | null }) => [e.action, e.user_email]);
      assert.ok(
        actions.some(([a, u]: [string, string | null]) => a === 'invitation.created' && u === null),
        'the operator invited',
      );
      assert.ok(actions.some(([a]: [string]) => a === 'invitation.accepted'));
      assert.ok(actions.some(([a]: [string]) => a === 'sign_in.succeeded'));
    });

    it('accepts an invitation once, refuses a short password and a known address', async () => {
      const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
        email: 'once@shop.example',
        role: 'viewer',
      });
      const token = invited.json().token;
      const short = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/invitations/accept',
        body: { token, password: 'short' },
      });
      assert.equal(short.statusCode, 400);
      assert.equal(short.json().errors[0].field, 'password');
      const ok = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/invitations/accept',
        body: { token, password: TEST_PASSWORD },
      });
      assert.equal(ok.statusCode, 200, ok.body);
      const again = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/invitations/accept',
        body: { token, password: TEST_PASSWORD },
      });
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().errors[0].field, 'token');
      const known = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
        email: 'once@shop.example',
        role: 'viewer',
      });
      assert.equal(known.statusCode, 400);
      assert.equal(known.json().errors[0].field, 'email');
    });

    it('blocks sign-in after repeated failures, even with the right password, until the block ends', async () => {
      await teamMember(svc, owner, 'target@shop.example', 'viewer');
      const attempt = (password: string) =>
        svc.request({
          method: 'POST',
          url: '/dashboard/api/v1/session',
          body: { email: 'target@shop.example', password },
        });
      for (let i = 0; i < FREE_FAILURES; i++) {
        const failed = await attempt('wrong password!!');
        assert.equal(failed.statusCode, 401);
        assert.equal(failed.json().code, 'invalid_credentials');
      }
      const blocked = await attempt(TEST_PASSWORD);
      assert.equal(
        blocked.statusCode,
        429,
        `5 failures block the 6th attempt, even the right one: ${blocked.body}`,
      );
      const retryAfter = Number(blocked.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 30, `a 30 s block, on the moving clock: ${retryAfter}`);
      svc.clock.advance(31);
      const open = await attempt(TEST_PASSWORD);
      assert.equal(open.statusCode, 200, open.body);
      const unknown = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/session',
        body: { email: 'nobody@shop.example', password: TEST_PASSWORD },
      });
      assert.equal(unknown.statusCode, 401);
      assert.equal(
        unknown.json().detail,
        (await attempt('wrong password!!')).json().detail,
        'unknown and wrong read alike',
      );
    });

    it('lists, creates and disables webhook endpoints in the mode the switch names', async () => {
      const created = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/test/webhook-endpoints', {
        url: 'http://127.0.0.1:9/hooks',
        enabled_events: ['payment_intent.succeeded'],
      });
      assert.equal(created.statusCode, 201, created.body);
      const endpoint = created.json();
      assert.match(endpoint.secret, /^whsec_/, 'the secret is shown once, at creation');
      assert.equal(endpoint.livemode, false);
      const listed = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/webhook-endpoints');
      assert.deepEqual(
        listed.json().data.map((e: { id: string }) => e.id),
        [endpoint.id],
      );
      assert.equal(listed.json().data[0].secret, undefined, 'never shown again');
      const live = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/live/webhook-endpoints');
      assert.deepEqual(live.json().data, []);
      // The operator's URL rule, from the same use case: plain http to a public host is refused.
      const publicHttp = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/live/webhook-endpoints',
        {
          url: 'http://hooks.example.com/x',
        },
      );
      assert.equal(publicHttp.statusCode, 400, publicHttp.body);
      const wrongMode = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/live/webhook-endpoints/${endpoint.id}/disable`,
      );
      assert.equal(wrongMode.statusCode, 404);
      const disabled = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/webhook-endpoints/${endpoint.id}/disable`,
      );
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.equal(disabled.json().status, 'disabled');
      const stored = await svc.ctx.db.query<{ status: string }>(
        'SELECT status FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
      assert.equal(stored.rows[0]?.status, 'disabled');
      const audit = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/audit-log');
      const actions = audit.json().data.map((e: { action: string }) => e.action);
      assert.ok(
        actions.includes('webhook_endpoint.created') && actions.includes('webhook_endpoint.disabled'),
        audit.body,
      );
    });

    it('signs out here, and everywhere', async () => {
      const laptop = await signIn(svc, 'owner@shop.example');
      const phone = await signIn(svc, 'owner@shop.example');
      const tablet = await signIn(svc, 'owner@shop.example');
      const out = await dashboardRequest(svc, tablet, 'POST', '/dashboard/api/v1/session/sign-out');
      assert.equal(out.statusCode, 200, out.body);
      assert.equal((await dashboardRequest(svc, tablet, 'GET', '/dashboard/api/v1/session')).statusCode, 401);
      assert.equal((await dashboardRequest(svc, phone, 'GET', '/dashboard/api/v1/session')).statusCode, 200);
      const everywhere = await dashboardRequest(
        svc,
        laptop,
        'POST',
        '/dashboard/api/v1/session/sign-out-everywhere',
      );
      assert.equal(everywhere.statusCode, 200, everywhere.body);
      assert.ok(everywhere.json().sessions_ended >= 2);
      for (const device of [laptop, phone, owner]) {
        assert.equal(
          (await dashboardRequest(svc, device, 'GET', '/dashboard/api/v1/session')).statusCode,
          401,
        );
      }
      owner = await signIn(svc, 'owner@shop.example');
    });
  });
}
