import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`dashboard embedding domains (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let developer: DashboardUser;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Embed shop');
      owner = await firstOwner(svc, merchant.id, 'owner@embed.example');
      developer = await teamMember(svc, owner, 'dev@embed.example', 'developer');
    });
    after(() => svc.close());

    const origins = async () =>
      (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/embed-domains'))
        .json()
        .data.map((d: { origin: string }) => d.origin);

    it('adds an origin once, in its canonical form, and the operator API sees the same list', async () => {
      const added = await dashboardRequest(svc, developer, 'POST', '/dashboard/api/v1/embed-domains', {
        origin: 'https://Shop.Example',
      });
      assert.equal(added.statusCode, 201, added.body);
      assert.equal(added.json().origin, 'https://shop.example');
      const again = await dashboardRequest(svc, developer, 'POST', '/dashboard/api/v1/embed-domains', {
        origin: 'https://shop.example',
      });
      assert.equal(again.statusCode, 200);
      assert.deepEqual(await origins(), ['https://shop.example']);
      const operator = await svc.request({
        method: 'GET',
        url: `/admin/v1/merchants/${merchant.id}/embed-domains`,
        headers: { 'x-admin-token': 'test-admin-token-0123456789' },
      });
      assert.deepEqual(
        operator.json().data.map((d: { origin: string }) => d.origin),
        ['https://shop.example'],
      );
    });

    it('refuses an origin with a path, naming the field', async () => {
      const bad = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/embed-domains', {
        origin: 'https://shop.example/checkout',
      });
      assert.equal(bad.statusCode, 400);
      assert.match(JSON.stringify(bad.json().errors), /origin/);
    });

    it('removes an origin, and a second removal is a 404', async () => {
      const removed = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/embed-domains/remove', {
        origin: 'https://shop.example',
      });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(removed.json().deleted, true);
      assert.deepEqual(await origins(), []);
      const twice = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/embed-domains/remove', {
        origin: 'https://shop.example',
      });
      assert.equal(twice.statusCode, 404);
    });

    it('audits additions and removals, and renders the page in both languages', async () => {
      const audit = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/audit-log')).json().data;
      const actions = audit.map((e: { action: string; target: string }) => `${e.action} ${e.target}`);
      assert.ok(actions.includes('embed_domain.added https://shop.example'), actions.join('\n'));
      assert.ok(actions.includes('embed_domain.removed https://shop.example'), actions.join('\n'));
      const es = await dashboardRequest(svc, owner, 'GET', '/dashboard/embed-domains?lang=es&mode=live');
      assert.equal(es.statusCode, 200);
      assert.match(es.body, /Dominios de inserción/);
      assert.match(es.body, /class="mode-live"/, 'the mode the user came from');
    });
  });
}
