import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createMerchant } from '../src/app/merchants/create-merchant.ts';
import { auditOperatorAction, createOperator } from '../src/app/operators/operator-accounts.ts';
import { firstOwner } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';

const PASSWORD = 'a long operator password';

for (const kind of databaseKinds()) {
  describe(`the operator's console (${kind})`, () => {
    let svc: TestService;
    let cookie = '';
    let csrf = '';
    const signIn = (email: string, password: string) =>
      svc.request({ method: 'POST', url: '/operator/api/v1/session', body: { email, password } });
    const cookieOf = (response: LightMyRequestResponse) => {
      const set = response.cookies.find((c) => c.name === 'paygate_operator_session');
      assert.ok(set, response.body);
      assert.equal(set.httpOnly, true);
      assert.equal(set.sameSite, 'Strict');
      assert.equal(set.path, '/operator');
      return `paygate_operator_session=${set.value}`;
    };
    const inDays = (days: number) =>
      new Date(svc.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

    before(async () => {
      svc = await startTestService(kind);
      await createOperator(svc.ctx, { email: 'Ops@Paygate.example', password: PASSWORD });
      const merchant = await svc.createMerchant('Console shop');
      await svc.request({
        method: 'GET',
        url: '/v1/transactions?limit=1',
        key: merchant.secretTest,
        headers: { 'user-agent': 'paygate-php/1.0.0' },
      });
      await svc.app.clientTelemetry.flush();
      await firstOwner(svc, merchant.id, 'owner@console-shop.example');
    });
    after(() => svc.close());

    it('refuses a second operator with the same address, and a short password, naming the field', async () => {
      await assert.rejects(
        createOperator(svc.ctx, { email: 'ops@paygate.example', password: PASSWORD }),
        (error: Error & { extras?: { errors?: { field: string }[] } }) =>
          error.extras?.errors?.[0]?.field === 'email',
      );
      await assert.rejects(
        createOperator(svc.ctx, { email: 'other@paygate.example', password: 'short' }),
        (error: Error & { extras?: { errors?: { field: string }[] } }) =>
          error.extras?.errors?.[0]?.field === 'password',
      );
    });

    it('sends a browser without an operator session to the sign-in page; a dashboard session is not one', async () => {
      const page = await svc.request({ method: 'GET', url: '/operator/deprecations?lang=en' });
      assert.equal(page.statusCode, 303);
      assert.equal(page.headers.location, '/operator/sign-in?lang=en');
      const owner = await firstOwner(svc, (await svc.createMerchant('Other')).id, 'owner@other.example');
      const asOwner = await svc.request({
        method: 'GET',
        url: '/operator/deprecations',
        headers: { cookie: owner.cookie },
      });
      assert.equal(asOwner.statusCode, 303);
      const signInPage = await svc.request({ method: 'GET', url: '/operator/sign-in?lang=es' });
      assert.equal(signInPage.statusCode, 200);
      assert.match(signInPage.body, /Acceso del operador/);
      assert.match(String(signInPage.headers['content-security-policy']), /script-src 'self'/);
    });

    it('signs in with the right password only, as the dashboard does', async () => {
      const wrong = await signIn('ops@paygate.example', 'not the password');
      assert.equal(wrong.statusCode, 401);
      assert.equal(wrong.json().code, 'invalid_credentials');
      const unknown = await signIn('nobody@paygate.example', PASSWORD);
      assert.equal(unknown.statusCode, 401);
      const good = await signIn('OPS@paygate.example', PASSWORD);
      assert.equal(good.statusCode, 200, good.body);
      assert.equal(good.json().object, 'operator_session');
      assert.match(good.json().operator.id, /^opu_[0-9A-Za-z]{24}$/);
      cookie = cookieOf(good);
      csrf = good.json().csrf_token;
      const audit = await svc.ctx.db.query<{ action: string }>(
        'SELECT action FROM operator_audit_log ORDER BY created_at, action',
      );
      assert.deepEqual(audit.rows.map((r) => r.action).sort(), ['sign_in.failed', 'sign_in.succeeded']);
      // The operator's cookie opens nothing of the dashboard.
      const dashboard = await svc.request({
        method: 'GET',
        url: '/dashboard/api/v1/session',
        headers: { cookie },
      });
      assert.equal(dashboard.statusCode, 401);
    });

    it('announces a deprecation through the operator API use case, with the CSRF token, and shows who was told', async () => {
      const body = {
        affected: 'paygate-php',
        below: '2.0.0',
        withdraw_on: inDays(60),
        text: 'PHP client 1.x ends.',
      };
      const noToken = await svc.request({
        method: 'POST',
        url: '/operator/api/v1/deprecations',
        headers: { cookie },
        body,
      });
      assert.equal(noToken.statusCode, 403);
      assert.equal(noToken.json().code, 'csrf_token_invalid');
      const bad = await svc.request({
        method: 'POST',
        url: '/operator/api/v1/deprecations',
        headers: { cookie, 'x-csrf-token': csrf },
        body: { ...body, below: '' },
      });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].field, 'affected.clients.0.below');
      const announced = await svc.request({
        method: 'POST',
        url: '/operator/api/v1/deprecations',
        headers: { cookie, 'x-csrf-token': csrf },
        body,
      });
      assert.equal(announced.statusCode, 201, announced.body);
      const deprecation = announced.json();
      assert.deepEqual(
        deprecation.recipients.map((r: { email: string }) => r.email),
        ['owner@console-shop.example'],
      );
      const mail = await svc.ctx.db.query<{ recipients: string[] }>(
        'SELECT recipients FROM mail_outbox WHERE dedupe_key LIKE $1',
        [`deprecation:${deprecation.id}:%`],
      );
      assert.deepEqual(
        mail.rows.map((r) => r.recipients),
        [['owner@console-shop.example']],
      );
      const audit = await svc.ctx.db.query<{ target: string }>(
        "SELECT target FROM operator_audit_log WHERE action = 'deprecation.announced'",
      );
      assert.deepEqual(
        audit.rows.map((r) => r.target),
        [deprecation.id],
      );

      const list = await svc.request({
        method: 'GET',
        url: '/operator/deprecations?lang=en',
        headers: { cookie },
      });
      assert.equal(list.statusCode, 200);
      assert.match(list.body, new RegExp(`<meta name="csrf-token" content="${csrf}">`));
      assert.match(
        list.body,
        /paygate-php older than 2\.0\.0<\/a><\/td><td>\d{4}-\d{2}-\d{2}<\/td><td>1<\/td>/,
      );
      const detail = await svc.request({
        method: 'GET',
        url: `/operator/deprecations/${deprecation.id}?lang=en`,
        headers: { cookie },
      });
      assert.equal(detail.statusCode, 200);
      assert.match(
        detail.body,
        /<td>owner@console-shop\.example<\/td><td>en<\/td><td>paygate-php\/1\.0\.0<\/td>/,
      );
    });

    it("writes each console action's audit line in the use case's transaction: a refused action leaves none, a done one exactly one", async () => {
      const form = (url: string, fields: Record<string, string>) =>
        svc.request({
          method: 'POST',
          url,
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
        });
      const lines = async (action: string) =>
        (
          await svc.ctx.db.query<{ target: string }>(
            'SELECT target FROM operator_audit_log WHERE action = $1 ORDER BY created_at, id',
            [action],
          )
        ).rows.map((r) => r.target);

      const tooLong = await form('/operator/merchants?lang=en', { name: 'x'.repeat(201) });
      assert.equal(tooLong.statusCode, 400);
      assert.deepEqual(await lines('merchant.created'), []);
      const created = await form('/operator/merchants?lang=en', { name: 'Audited shop' });
      assert.equal(created.statusCode, 303, created.body);
      const merchantId = String(created.headers.location).split('?')[0]?.split('/').pop() as string;
      assert.deepEqual(await lines('merchant.created'), [merchantId]);

      const account = {
        livemode: 'false',
        connector: 'stripe',
        gateway_id: 'stripe_audited',
        'credentials.secret_key': 'sk_test_Audited1234',
        'credentials.webhook_secret': 'whsec_Audited5678',
      };
      const added = await form(`/operator/merchants/${merchantId}/gateway-accounts`, account);
      assert.equal(added.statusCode, 303, added.body);
      // The same gateway id again: refused by the database inside the use case's transaction.
      const taken = await form(`/operator/merchants/${merchantId}/gateway-accounts`, account);
      assert.equal(taken.statusCode, 400);
      const accounts = await svc.ctx.db.query<{ id: string }>(
        'SELECT id FROM gateway_accounts WHERE merchant_id = $1',
        [merchantId],
      );
      assert.deepEqual(
        await lines('gateway_account.added'),
        accounts.rows.map((r) => r.id),
      );

      const past = await form('/operator/deprecations?lang=en', {
        affected: 'paygate-php',
        below: '3.0.0',
        withdraw_on: inDays(-1),
        text: 'Too late.',
      });
      assert.equal(past.statusCode, 400);
      const announced = await lines('deprecation.announced');
      assert.equal(announced.length, 1, 'only the announcement made earlier through the console API');

      const disabled = await form(`/operator/merchants/${merchantId}/disable`, {});
      assert.equal(disabled.statusCode, 303);
      const unknown = await form('/operator/merchants/acct_000000000000000000000000/disable', {});
      assert.equal(unknown.statusCode, 404);
      assert.deepEqual(await lines('merchant.disabled'), [merchantId]);
    });

    it("says a refused console action in the page's language: Spanish pages, Spanish refusals", async () => {
      const form = (url: string, fields: Record<string, string>) =>
        svc.request({
          method: 'POST',
          url,
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
        });
      const alertOf = (body: string) => /<p role="alert">([^<]*)<\/p>/.exec(body)?.[1];
      const merchant = await svc.createMerchant('Tienda rechazada');
      const cases: [string, Record<string, string>, string][] = [
        [
          '/operator/merchants?lang=es',
          { name: 'x'.repeat(201) },
          'nombre: admite como mucho 200 caracteres',
        ],
        ['/operator/merchants?lang=es', { name: ' ' }, 'nombre: es obligatorio'],
        [
          `/operator/merchants/${merchant.id}/gateway-accounts?lang=es`,
          {
            livemode: 'false',
            connector: 'stripe',
            gateway_id: 'stripe_es',
            'credentials.secret_key': 'sk_live_Nope1234',
            'credentials.webhook_secret': 'whsec_Es5678',
          },
          'credentials.secret_key: debe ser una clave secreta de Stripe del modo test (sk_test_... o rk_test_...)',
        ],
        [
          `/operator/merchants/${merchant.id}/gateway-accounts?lang=es`,
          { livemode: 'false', connector: 'stripe', gateway_id: 'sim_es' },
          'gateway_id: no puede empezar por &quot;sim&quot; ni por &quot;gwa_&quot; (reservados)',
        ],
        [
          `/operator/merchants/${merchant.id}/invitations?lang=es`,
          { email: 'not an address', language: 'es' },
          'correo electrónico: debe ser una dirección de correo electrónico',
        ],
        [
          '/operator/deprecations?lang=es',
          { affected: 'paygate-php', below: '3.0.0', withdraw_on: inDays(-1), text: 'Tarde.' },
          `deja de funcionar el (día UTC): debe ser posterior a hoy (${inDays(0)}): los comercios se enteran antes de que se retire nada`,
        ],
      ];
      for (const [url, fields, spanish] of cases) {
        const refused = await form(url, fields);
        assert.equal(refused.statusCode, 400, url);
        assert.equal(alertOf(refused.body), spanish, url);
        assert.match(refused.body, /<html lang="es"/);
      }
      const english = await form('/operator/merchants?lang=en', { name: ' ' });
      assert.equal(alertOf(english.body), 'name: is required');
    });

    it('rolls the change back with its audit line when the transaction fails after the line was written', async () => {
      const before = await svc.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchants');
      const operator = await svc.ctx.db.query<{ id: string }>('SELECT id FROM operator_users LIMIT 1');
      const write = auditOperatorAction(svc.ctx, operator.rows[0]?.id as string, 'merchant.created');
      await assert.rejects(
        createMerchant(svc.ctx, 'Never committed', async (tx, merchantId) => {
          await write(tx, merchantId);
          throw new Error('the process died here');
        }),
        /the process died here/,
      );
      const after = await svc.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchants');
      assert.equal(after.rows[0]?.n, before.rows[0]?.n);
      const named = await svc.ctx.db.query('SELECT 1 FROM merchants WHERE name = $1', ['Never committed']);
      assert.equal(named.rows.length, 0);
      const audit = await svc.ctx.db.query<{ target: string }>(
        "SELECT target FROM operator_audit_log WHERE action = 'merchant.created'",
      );
      assert.equal(audit.rows.length, 1, 'only the line of the merchant created before');
    });

    it('signs out: the session no longer opens a page', async () => {
      const out = await svc.request({
        method: 'POST',
        url: '/operator/api/v1/session/sign-out',
        headers: { cookie, 'x-csrf-token': csrf },
      });
      assert.equal(out.statusCode, 200, out.body);
      const page = await svc.request({ method: 'GET', url: '/operator/deprecations', headers: { cookie } });
      assert.equal(page.statusCode, 303);
    });
  });
}
