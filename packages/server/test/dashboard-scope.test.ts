import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DashboardUser, firstOwner } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { routesWhere } from './support/route-table.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/** The dashboard's routes that need no session (sign-in, the invitation, the assets). */
const PUBLIC = new Set([
  'POST /dashboard/api/v1/session',
  'POST /dashboard/api/v1/invitations/accept',
  'GET /dashboard',
  'GET /dashboard/sign-in',
  'GET /dashboard/accept-invitation',
  'GET /dashboard/assets/:name',
]);

const concrete = (path: string) => path.replaceAll(':mode', 'test').replaceAll(':id', 'x_1');

// Every signed-in dashboard request starts in one place (the scope: merchant, mode, role, user,
// language). These walk the route table, so a page or route added without that start fails here.
for (const kind of databaseKinds()) {
  describe(`the dashboard's request start on every route (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let routes: string[];

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Scope shop');
      owner = await firstOwner(svc, merchant.id, 'owner@scope.example');
      routes = routesWhere(svc.app, (path) => path.startsWith('/dashboard')).filter((r) => !PUBLIC.has(r));
    });
    after(() => svc.close());

    it('sends a browser without a session from every page to sign in, in its language', async () => {
      const pages = routes.filter((r) => r.startsWith('GET ') && !r.startsWith('GET /dashboard/api/'));
      assert.ok(pages.length >= 10, pages.join('\n'));
      for (const route of pages) {
        const url = concrete(route.slice('GET '.length));
        const response = await svc.request({ method: 'GET', url, headers: { 'accept-language': 'es-ES' } });
        assert.equal(response.statusCode, 303, `${route}: ${response.body}`);
        assert.equal(response.headers.location, '/dashboard/sign-in?lang=es', route);
      }
    });

    it('answers every API route without a session with invalid_session', async () => {
      const api = routes.filter((r) => r.includes(' /dashboard/api/'));
      assert.ok(api.length >= 10, api.join('\n'));
      for (const route of api) {
        const [method, path] = route.split(' ') as ['GET' | 'POST', string];
        const body = method === 'POST' ? {} : undefined;
        const response = await svc.request({ method, url: concrete(path), body });
        assert.equal(response.statusCode, 401, `${route}: ${response.body}`);
        assert.equal(response.json().code, 'invalid_session', route);
      }
    });

    it('answers a page of a mode that is neither test nor live with 404, before asking for a session', async () => {
      for (const url of [
        '/dashboard/staging/payments',
        '/dashboard/staging/webhooks',
        '/dashboard/prod/overview',
      ]) {
        const response = await svc.request({ method: 'GET', url });
        assert.equal(response.statusCode, 404, url);
      }
    });

    it('draws a signed-in page in the mode of its path and the language asked for', async () => {
      const live = await svc.request({
        method: 'GET',
        url: '/dashboard/live/payments?lang=es',
        headers: { cookie: owner.cookie },
      });
      assert.equal(live.statusCode, 200, live.body);
      assert.match(live.body, /<html lang="es">/);
      assert.match(live.body, /<header class="mode-live">/);
      assert.match(live.body, /<title>Pagos · Panel de Paygate<\/title>/);
      const both = await svc.request({
        method: 'GET',
        url: '/dashboard/embed-domains?mode=live',
        headers: { cookie: owner.cookie, 'accept-language': 'en-GB' },
      });
      assert.equal(both.statusCode, 200, both.body);
      assert.match(both.body, /<html lang="en">/);
      assert.match(both.body, /<header class="mode-live">/);
    });
  });
}
