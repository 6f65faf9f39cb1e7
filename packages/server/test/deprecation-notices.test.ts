import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tellAffectedTeams } from '../src/app/deprecations/tell-affected-teams.ts';
import { findDeprecation } from '../src/storage/repositories/deprecations.ts';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const DAY_S = 24 * 60 * 60;

for (const kind of databaseKinds()) {
  describe(`deprecation notices from client telemetry (${kind})`, () => {
    let svc: TestService;
    let affected: MerchantKeys;
    let upToDate: MerchantKeys;
    let quiet: MerchantKeys;
    let owner: DashboardUser;
    let developer: DashboardUser;
    let upToDateOwner: DashboardUser;
    const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      svc.request({
        method,
        url,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        ...(body !== undefined ? { body } : {}),
      });
    const callWith = (key: string, userAgent: string) =>
      svc.request({
        method: 'GET',
        url: '/v1/transactions?limit=1',
        key,
        headers: { 'user-agent': userAgent },
      });
    const inDays = (days: number) =>
      new Date(svc.clock.now().getTime() + days * DAY_S * 1000).toISOString().slice(0, 10);
    const outbox = async (dedupePrefix: string) =>
      (
        await svc.ctx.db.query<{
          recipients: string[];
          subject: string;
          body_text: string;
          merchant_id: string;
        }>(
          'SELECT recipients, subject, body_text, merchant_id FROM mail_outbox WHERE dedupe_key LIKE $1 ORDER BY recipients[1]',
          [`${dedupePrefix}%`],
        )
      ).rows;

    before(async () => {
      svc = await startTestService(kind);
      affected = await svc.createMerchant('Old Node shop');
      upToDate = await svc.createMerchant('New Node shop');
      quiet = await svc.createMerchant('Quiet shop');
      // The quiet shop's old client called 40 days ago: outside the 30 days that count.
      await callWith(quiet.secretTest, 'paygate-node/1.0.0 node/v20.20.2');
      await svc.app.clientTelemetry.flush();
      svc.clock.advance(40 * DAY_S);
      await callWith(affected.secretLive, 'paygate-node/1.9.3 node/v20.20.2');
      await callWith(affected.secretTest, 'paygate-python/1.0.0 python/3.12.1');
      await callWith(upToDate.secretTest, 'paygate-node/2.0.0 node/v22.1.0');
      await svc.app.clientTelemetry.flush();
      await firstOwner(svc, quiet.id, 'owner@quiet.example');
      owner = await firstOwner(svc, affected.id, 'owner@old-node.example');
      developer = await teamMember(svc, owner, 'dev@old-node.example', 'developer');
      await teamMember(svc, owner, 'viewer@old-node.example', 'viewer');
      upToDateOwner = await firstOwner(svc, upToDate.id, 'owner@new-node.example');
      // The developer works in Spanish: the pages they open say so.
      const spanish = await dashboardRequest(svc, developer, 'GET', '/dashboard/test/payments?lang=es');
      assert.equal(spanish.statusCode, 200);
      await dashboardRequest(svc, owner, 'GET', '/dashboard/test/payments?lang=en');
    });
    after(() => svc.close());

    it('refuses what it cannot announce with a problem naming the field', async () => {
      const good = {
        affected: { clients: [{ name: 'paygate-node', below: '2.0.0' }] },
        withdraw_on: inDays(90),
        text: 'Upgrade.',
      };
      const cases: [unknown, string, RegExp][] = [
        [
          { ...good, affected: { clients: [{ name: 'paygate-ruby', below: '2.0.0' }] } },
          'affected.clients.0.name',
          /not a Paygate client/,
        ],
        [
          { ...good, affected: { clients: [{ name: 'paygate-node', below: 'two' }] } },
          'affected.clients.0.below',
          /semantic version/,
        ],
        [{ ...good, affected: {} }, 'affected', /clients .* or the contract/],
        [{ ...good, affected: { contract: 'v1', clients: good.affected.clients } }, 'affected', /not both/],
        [{ ...good, affected: { contract: 'v9' } }, 'affected.contract', /v1/],
        [{ ...good, withdraw_on: inDays(-1) }, 'withdraw_on', /after today/],
        [{ ...good, withdraw_on: '31/12/2030' }, 'withdraw_on', /YYYY-MM-DD/],
        [{ ...good, text: '   ' }, 'text', /must not be empty/],
        [{ ...good, extra: 1 }, 'extra', /not a recognised field/],
      ];
      for (const [body, field, message] of cases) {
        const refused = await admin('POST', '/admin/v1/deprecations', body);
        assert.equal(refused.statusCode, 400, JSON.stringify(body));
        const problem = refused.json();
        assert.equal(problem.code, 'validation_error');
        assert.equal(problem.errors[0].field, field, JSON.stringify(body));
        assert.match(problem.errors[0].message, message);
      }
      assert.equal(
        (await admin('GET', '/admin/v1/deprecations')).json().data.length,
        0,
        'nothing was recorded',
      );
      assert.equal((await outbox('deprecation:')).length, 0);
      const noToken = await svc.request({ method: 'GET', url: '/admin/v1/deprecations' });
      assert.equal(noToken.statusCode, 401);
    });

    it('e-mails each owner and developer of the affected merchant once, in their language, and shows who was told', async () => {
      const withdrawOn = inDays(90);
      const announced = await admin('POST', '/admin/v1/deprecations', {
        affected: { clients: [{ name: 'paygate-node', below: '2.0.0' }] },
        withdraw_on: withdrawOn,
        text: 'Version 2 signs webhooks with the new scheme.',
      });
      assert.equal(announced.statusCode, 201, announced.body);
      const deprecation = announced.json();
      assert.match(deprecation.id, /^dep_[0-9A-Za-z]{24}$/);
      assert.equal(deprecation.withdraw_on, withdrawOn);
      assert.equal(deprecation.merchants_told, 1);
      assert.deepEqual(
        deprecation.recipients.map(
          (r: { email: string; language: string; merchant_id: string; clients: string[] }) => [
            r.email,
            r.language,
            r.merchant_id,
            r.clients,
          ],
        ),
        [
          ['owner@old-node.example', 'en', affected.id, ['paygate-node/1.9.3']],
          ['dev@old-node.example', 'es', affected.id, ['paygate-node/1.9.3']],
        ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
      for (const recipient of deprecation.recipients)
        assert.equal(recipient.notified_at, deprecation.created_at);

      const mails = await outbox(`deprecation:${deprecation.id}:`);
      assert.deepEqual(
        mails.map((m) => m.recipients),
        [['dev@old-node.example'], ['owner@old-node.example']],
        'the owner and the developer, not the viewer, nor the other merchants',
      );
      const [spanish, english] = mails as [(typeof mails)[0], (typeof mails)[0]];
      assert.equal(
        english.subject,
        `Action needed: paygate-node older than 2.0.0 stop working on ${withdrawOn}`,
      );
      assert.match(english.body_text, /Old Node shop/);
      assert.match(english.body_text, /paygate-node\/1\.9\.3/);
      assert.match(english.body_text, /Version 2 signs webhooks with the new scheme\./);
      assert.match(english.body_text, /http:\/\/localhost:8080\/dashboard\/live\/clients\?lang=en/);
      assert.equal(
        spanish.subject,
        `Acción necesaria: paygate-node anteriores a 2.0.0 dejarán de funcionar el ${withdrawOn}`,
      );
      assert.match(
        spanish.body_text,
        /Recibes este mensaje como propietario o desarrollador de Old Node shop/,
      );

      const again = await admin('GET', `/admin/v1/deprecations/${deprecation.id}`);
      assert.deepEqual(again.json(), deprecation);
      const list = (await admin('GET', '/admin/v1/deprecations')).json();
      assert.deepEqual(
        list.data.map((d: { id: string; merchants_told: number }) => [d.id, d.merchants_told]),
        [[deprecation.id, 1]],
      );

      // Telling again (a retried run, a later pass) queues nothing more: one row per user.
      const record = await findDeprecation(svc.ctx.db, deprecation.id);
      assert.ok(record);
      const toldAgain = await svc.ctx.db.transaction((tx) =>
        tellAffectedTeams(svc.ctx, tx, record, svc.clock.now()),
      );
      assert.equal(toldAgain, 0);
      assert.equal((await outbox(`deprecation:${deprecation.id}:`)).length, 2);
    });

    it("shows the deprecation on the affected merchant's clients page, in the page's language, and not elsewhere", async () => {
      const live = await dashboardRequest(svc, owner, 'GET', '/dashboard/live/clients?lang=en');
      assert.equal(live.statusCode, 200);
      assert.match(live.body, /Deprecations that affect you/);
      assert.match(
        live.body,
        /paygate-node older than 2\.0\.0 stop working on \d{4}-\d{2}-\d{2} \(UTC\)\. Version 2 signs/,
      );
      assert.match(
        live.body,
        /<td>paygate-node<\/td><td>1\.9\.3<\/td>.*<td><a href="#dep_[0-9A-Za-z]{24}">Stops working on/,
      );
      const spanish = await dashboardRequest(svc, developer, 'GET', '/dashboard/live/clients?lang=es');
      assert.match(spanish.body, /Retiradas que te afectan/);
      // The test mode's python client is not affected.
      const test = await dashboardRequest(svc, owner, 'GET', '/dashboard/test/clients?lang=en');
      assert.doesNotMatch(test.body, /Deprecations that affect you/);
      assert.match(
        test.body,
        /<td>paygate-python<\/td><td>1\.0\.0<\/td>(<td>(?:[^<]|<time[^>]*>[^<]*<\/time>)*<\/td>){3}<td>–<\/td>/,
      );
      const other = await dashboardRequest(svc, upToDateOwner, 'GET', '/dashboard/test/clients?lang=en');
      assert.doesNotMatch(other.body, /Deprecations that affect you/);
    });

    it('a contract deprecation tells every merchant whose telemetry of the last 30 days shows any call', async () => {
      const announced = await admin('POST', '/admin/v1/deprecations', {
        affected: { contract: 'v1' },
        withdraw_on: inDays(365),
        text: 'Contract v2 replaces v1.',
      });
      assert.equal(announced.statusCode, 201, announced.body);
      const body = announced.json();
      assert.deepEqual(body.affected, { contract: 'v1' });
      assert.equal(body.merchants_told, 2);
      const emails = body.recipients.map((r: { email: string }) => r.email).sort();
      assert.deepEqual(emails, ['dev@old-node.example', 'owner@new-node.example', 'owner@old-node.example']);
      const mails = await outbox(`deprecation:${body.id}:`);
      assert.equal(mails.length, 3);
      assert.match(
        (mails[0] as { subject: string }).subject,
        /Calls under API contract v1|Las llamadas con el contrato de API v1/,
      );
    });

    it('answers 404 for an unknown deprecation', async () => {
      const missing = await admin('GET', '/admin/v1/deprecations/dep_000000000000000000000000');
      assert.equal(missing.statusCode, 404);
    });
  });
}
