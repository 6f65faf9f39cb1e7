// A confirmation for something already gone (issue 41 item 10): a repeated POST (a second click,
// the browser's resend) or a hand-made one answered the API's JSON problem. Every confirmation of
// the back office (walked from the route table: each POST with a confirmation page of its own)
// now answers a dashboard page in the user's language, with the way back to the list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { declaredRoute } from '../src/http/route-catalogue.ts';
import { type DashboardUser, firstOwner } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { routesWhere } from './support/route-table.ts';
import { startTestService, type TestService } from './support/service.ts';

/** What each confirmation is asked about when nothing of that name exists, and its list page. */
const GONE: Record<string, { path: string; fields?: Record<string, string>; list: string }> = {
  '/dashboard/:mode/api-keys/:id/revoke': {
    path: '/dashboard/test/api-keys/ak_gone/revoke',
    list: '/dashboard/test/api-keys',
  },
  '/dashboard/:mode/api-keys/:id/roll': {
    path: '/dashboard/test/api-keys/ak_gone/roll',
    list: '/dashboard/test/api-keys',
  },
  '/dashboard/:mode/webhooks/:id/disable': {
    path: '/dashboard/test/webhooks/we_gone/disable',
    list: '/dashboard/test/webhooks',
  },
  '/dashboard/:mode/webhooks/:id/rotate-secret': {
    path: '/dashboard/test/webhooks/we_gone/rotate-secret',
    list: '/dashboard/test/webhooks',
  },
  '/dashboard/:mode/webhooks/:id/reveal-secret': {
    path: '/dashboard/test/webhooks/we_gone/reveal-secret',
    list: '/dashboard/test/webhooks',
  },
  '/dashboard/team/:id/remove': { path: '/dashboard/team/du_gone/remove', list: '/dashboard/team' },
  '/dashboard/team/invitations/:email/revoke': {
    path: '/dashboard/team/invitations/gone%40example.com/revoke',
    list: '/dashboard/team',
  },
  '/dashboard/embed-domains/remove': {
    path: '/dashboard/embed-domains/remove',
    fields: { origin: 'https://gone.example' },
    list: '/dashboard/embed-domains',
  },
};

for (const kind of databaseKinds()) {
  describe(`a confirmation for something already gone (${kind})`, () => {
    let svc: TestService;
    let owner: DashboardUser;

    before(async () => {
      svc = await startTestService(kind);
      const merchant = await svc.createMerchant('Shop with gone things');
      owner = await firstOwner(svc, merchant.id, 'owner@gone.example');
    });
    after(() => svc?.close());

    it('knows every confirmation of the route table (a new one must be listed here)', () => {
      const confirmations = routesWhere(svc.app, (path) => path.startsWith('/dashboard/'))
        .filter((r) => declaredRoute(svc.app, r)?.config?.confirmation === true)
        .map((r) => r.slice('POST '.length));
      assert.deepEqual(confirmations.sort(), Object.keys(GONE).sort());
    });

    for (const [route, gone] of Object.entries(GONE)) {
      it(`${route}: a POST and the page answer a dashboard page in the user's language, with the way back`, async () => {
        for (const [lang, said] of [
          ['en', /^This is no longer there: .* Nothing was changed\.$/],
          ['es', /^Esto ya no está: .* No se ha cambiado nada\.$/],
        ] as const) {
          const form = new URLSearchParams({ csrf_token: owner.csrf, ...(gone.fields ?? {}) });
          const posted = await svc.app.inject({
            method: 'POST',
            url: `${gone.path}?lang=${lang}`,
            headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
            payload: form.toString(),
          });
          assert.equal(posted.statusCode, 404, `${route} ${lang}: ${posted.body.slice(0, 300)}`);
          assert.match(String(posted.headers['content-type']), /^text\/html/, `${route} ${lang}`);
          assert.match(posted.body, new RegExp(`<html lang="${lang}"`));
          const alert = posted.body.match(/<p role="alert">([^<]*)<\/p>/)?.[1] ?? '';
          assert.match(alert, said, `${route} ${lang}: ${alert}`);
          assert.ok(
            posted.body.includes(
              `<a href="${gone.list}?lang=${lang}">${lang === 'en' ? 'Go back' : 'Volver'}</a>`,
            ),
            `${route} ${lang}: the way back`,
          );
          const shown = await svc.app.inject({
            method: 'GET',
            url: `${gone.path}?lang=${lang}${gone.fields ? `&${new URLSearchParams(gone.fields)}` : ''}`,
            headers: { cookie: owner.cookie },
          });
          assert.equal(shown.statusCode, 404, `GET ${route} ${lang}`);
          assert.match(String(shown.headers['content-type']), /^text\/html/);
        }
      });
    }
  });
}
