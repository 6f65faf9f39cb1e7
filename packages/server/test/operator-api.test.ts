import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../src/clock.ts';
import { buildHttpApp } from '../src/http/app.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`the operator API manages merchants and API keys (${kind})`, () => {
    let svc: TestService;
    const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      svc.request({
        method,
        url,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        ...(body !== undefined ? { body } : {}),
      });
    /** An API call with a merchant's key on `app` (another process's app where given). */
    const listTransactions = (key: string, app: FastifyInstance = svc.app) =>
      app.inject({ method: 'GET', url: '/v1/transactions', headers: { 'x-api-key': key } });

    before(async () => {
      svc = await startTestService(kind);
    });
    after(() => svc.close());

    it('lists merchants newest first with cursor pagination, like the transaction list', async () => {
      const created: MerchantKeys[] = [];
      for (const name of ['First', 'Second', 'Third']) created.push(await svc.createMerchant(name));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await admin('GET', `/admin/v1/merchants?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(page.statusCode, 200, page.body);
        const body = page.json();
        assert.equal(body.object, 'list');
        assert.ok(body.data.length <= 2);
        assert.equal(body.has_more, body.next_cursor !== null);
        for (const merchant of body.data) {
          assert.deepEqual(Object.keys(merchant).sort(), ['created_at', 'id', 'name', 'object', 'status']);
          seen.push(merchant.id);
        }
        cursor = body.next_cursor;
      } while (cursor);
      assert.equal(new Set(seen).size, seen.length, 'no merchant twice');
      const ours = seen.filter((id) => created.some((m) => m.id === id));
      assert.deepEqual(ours, created.map((m) => m.id).reverse(), 'newest first');
    });

    it("invites a merchant's first dashboard owner: the answer's accept_url carries the token in its #fragment, and the token accepts", async () => {
      const merchant = await svc.createMerchant('Invited shop');
      const invited = await admin('POST', `/admin/v1/merchants/${merchant.id}/dashboard-invitations`, {
        email: 'first-owner@invited.example',
      });
      assert.equal(invited.statusCode, 201, invited.body);
      const body = invited.json();
      assert.match(body.token, /^inv_[0-9A-Za-z]{32}$/);
      const link = new URL(body.accept_url);
      assert.equal(link.pathname, '/dashboard/accept-invitation');
      assert.equal(link.search, '', 'the token is never in the query (server logs would see it)');
      assert.equal(link.hash, `#${body.token}`);
      const accepted = await svc.request({
        method: 'POST',
        url: '/dashboard/api/v1/invitations/accept',
        body: { token: link.hash.slice(1), password: 'a long enough password' },
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
    });

    it('refuses a malformed cursor and a limit outside 1..100 with 400 naming the field', async () => {
      const bad = await admin('GET', '/admin/v1/merchants?cursor=not-a-cursor');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].field, 'cursor');
      assert.equal((await admin('GET', '/admin/v1/merchants?limit=0')).statusCode, 400);
      assert.equal((await admin('GET', '/admin/v1/merchants?limit=101')).statusCode, 400);
    });

    it('retrieves and renames a merchant; an unknown one is 404', async () => {
      const merchant = await svc.createMerchant('Old name');
      const got = await admin('GET', `/admin/v1/merchants/${merchant.id}`);
      assert.equal(got.statusCode, 200);
      assert.equal(got.json().name, 'Old name');
      assert.equal(got.json().status, 'active');
      const renamed = await admin('POST', `/admin/v1/merchants/${merchant.id}`, { name: 'New name' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json().name, 'New name');
      assert.equal((await admin('GET', `/admin/v1/merchants/${merchant.id}`)).json().name, 'New name');
      assert.equal((await admin('POST', `/admin/v1/merchants/${merchant.id}`, { name: '' })).statusCode, 400);
      assert.equal(
        (await admin('POST', `/admin/v1/merchants/${merchant.id}`, { colour: 'red' })).statusCode,
        400,
      );
      const missing = await admin('GET', '/admin/v1/merchants/acct_000000000000000000000000');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().code, 'resource_not_found');
    });

    it("disables a merchant: all its keys are refused, another merchant's are not; enabling restores them", async () => {
      const merchant = await svc.createMerchant('To disable');
      const other = await svc.createMerchant('Unaffected');
      assert.equal((await listTransactions(merchant.secretTest)).statusCode, 200);
      const disabled = await admin('POST', `/admin/v1/merchants/${merchant.id}/disable`);
      assert.equal(disabled.json().status, 'disabled');
      await waitFor(
        "the disabled merchant's keys to be refused",
        async () => (await listTransactions(merchant.secretTest)).statusCode === 401,
      );
      assert.equal((await listTransactions(merchant.secretLive)).statusCode, 401);
      assert.equal((await listTransactions(other.secretTest)).statusCode, 200);
      const enabled = await admin('POST', `/admin/v1/merchants/${merchant.id}/enable`);
      assert.equal(enabled.json().status, 'active');
      // Like the disabling, announced to every process at the commit (the refused key may sit in
      // a process's short negative cache until then).
      await waitFor(
        "the enabled merchant's keys to work again",
        async () => (await listTransactions(merchant.secretTest)).statusCode === 200,
      );
    });

    it("lists a merchant's keys with hints only, and retrieves one", async () => {
      const merchant = await svc.createMerchant('Keys');
      const listed = await admin('GET', `/admin/v1/merchants/${merchant.id}/api-keys`);
      assert.equal(listed.statusCode, 200);
      const keys = listed.json().data;
      assert.equal(keys.length, 4);
      for (const key of keys) {
        assert.equal(key.object, 'api_key');
        assert.equal(key.key, undefined, 'a key is never shown again');
        assert.equal(key.revoked_at, null);
      }
      const one = await admin('GET', `/admin/v1/api-keys/${keys[0].id}`);
      assert.deepEqual(one.json(), keys[0]);
      const paged = await admin('GET', `/admin/v1/merchants/${merchant.id}/api-keys?limit=3`);
      assert.equal(paged.json().has_more, true);
      const rest = await admin(
        'GET',
        `/admin/v1/merchants/${merchant.id}/api-keys?limit=3&cursor=${paged.json().next_cursor}`,
      );
      assert.equal(rest.json().data.length, 1);
      assert.equal((await admin('GET', '/admin/v1/api-keys/key_000000000000000000000000')).statusCode, 404);
      assert.equal(
        (await admin('GET', '/admin/v1/merchants/acct_000000000000000000000000/api-keys')).statusCode,
        404,
      );
    });

    it('revokes a key: refused by this process and, through the change notification, by another whose cache holds it', async () => {
      const merchant = await svc.createMerchant('Revoke');
      // Another process on the same database, whose clock stands still: its 5 s key cache never
      // expires by itself, so only the revocation's notification can make it refuse the key.
      const otherProcess = await buildHttpApp(
        { ...svc.ctx, clock: new ManualClock() },
        {
          adminToken: ADMIN_TOKEN,
          rateLimitPerSecond: 100_000,
          redisUrl: null,
          logLevel: 'silent',
          testClock: null,
        },
      );
      try {
        await otherProcess.ready();
        assert.equal(
          (await listTransactions(merchant.secretTest, otherProcess)).statusCode,
          200,
          'cached now',
        );
        const keys = (await admin('GET', `/admin/v1/merchants/${merchant.id}/api-keys`)).json().data;
        const secretTest = keys.find(
          (k: { kind: string; livemode: boolean }) => k.kind === 'secret' && !k.livemode,
        );
        const revoked = await admin('POST', `/admin/v1/api-keys/${secretTest.id}/revoke`);
        assert.equal(revoked.statusCode, 200);
        assert.ok(revoked.json().revoked_at);
        await waitFor(
          'this process to refuse the revoked key',
          async () => (await listTransactions(merchant.secretTest)).statusCode === 401,
        );
        await waitFor(
          'the other process to refuse the revoked key',
          async () => (await listTransactions(merchant.secretTest, otherProcess)).statusCode === 401,
        );
        assert.equal(
          (await listTransactions(merchant.secretLive, otherProcess)).statusCode,
          200,
          'other keys work',
        );
      } finally {
        await otherProcess.close();
      }
    });

    it('rolls a key: the new one (shown once) works with the same mode, kind and permissions; the old one is refused', async () => {
      const merchant = await svc.createMerchant('Roll');
      const limited = await admin('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, {
        livemode: false,
        kind: 'secret',
        permissions: ['transactions:read'],
      });
      assert.equal(limited.statusCode, 201);
      const old = limited.json();
      assert.equal((await listTransactions(old.key)).statusCode, 200);

      const rolled = await admin('POST', `/admin/v1/api-keys/${old.id}/roll`);
      assert.equal(rolled.statusCode, 201, rolled.body);
      const fresh = rolled.json();
      assert.notEqual(fresh.id, old.id);
      assert.match(fresh.key, /^sk_test_/);
      assert.deepEqual(fresh.permissions, ['transactions:read']);
      assert.equal(fresh.revoked_at, null);
      assert.equal((await listTransactions(fresh.key)).statusCode, 200);
      await waitFor(
        'the rolled key to be refused',
        async () => (await listTransactions(old.key)).statusCode === 401,
      );
      assert.ok((await admin('GET', `/admin/v1/api-keys/${old.id}`)).json().revoked_at);

      const again = await admin('POST', `/admin/v1/api-keys/${old.id}/roll`);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'invalid_state_transition');
    });

    it("lists a merchant's webhook endpoints without secrets, changes URL and events, and disables one", async () => {
      const merchant = await svc.createMerchant('Hooks');
      const ids: string[] = [];
      for (const path of ['a', 'b', 'c']) {
        const created = await admin('POST', `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
          url: `http://localhost:9999/${path}`,
          livemode: false,
        });
        assert.equal(created.statusCode, 201, created.body);
        ids.push(created.json().id);
      }
      const first = await admin('GET', `/admin/v1/merchants/${merchant.id}/webhook-endpoints?limit=2`);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().has_more, true);
      const second = await admin(
        'GET',
        `/admin/v1/merchants/${merchant.id}/webhook-endpoints?limit=2&cursor=${first.json().next_cursor}`,
      );
      const listed = [...first.json().data, ...second.json().data];
      assert.deepEqual(
        listed.map((e: { id: string }) => e.id),
        [...ids].reverse(),
      );
      for (const endpoint of listed) assert.equal(endpoint.secret, undefined, 'no secret in a list');

      const id = ids[0];
      const changed = await admin('POST', `/admin/v1/webhook-endpoints/${id}`, {
        url: 'http://127.0.0.1:9999/new',
        enabled_events: ['payment_intent.succeeded'],
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().url, 'http://127.0.0.1:9999/new');
      assert.deepEqual(changed.json().enabled_events, ['payment_intent.succeeded']);
      const eventsOnly = await admin('POST', `/admin/v1/webhook-endpoints/${id}`, { enabled_events: ['*'] });
      assert.equal(eventsOnly.json().url, 'http://127.0.0.1:9999/new', 'what is not given stays');
      assert.deepEqual((await admin('GET', `/admin/v1/webhook-endpoints/${id}`)).json().enabled_events, [
        '*',
      ]);

      const unknownEvent = await admin('POST', `/admin/v1/webhook-endpoints/${id}`, {
        enabled_events: ['nope'],
      });
      assert.equal(unknownEvent.statusCode, 400);
      assert.equal(unknownEvent.json().errors[0].field, 'enabled_events');
      const badUrl = await admin('POST', `/admin/v1/webhook-endpoints/${id}`, { url: 'ftp://example.com/x' });
      assert.equal(badUrl.statusCode, 400);
      assert.equal((await admin('POST', `/admin/v1/webhook-endpoints/${id}`, {})).statusCode, 400);
      assert.equal(
        (
          await admin('POST', '/admin/v1/webhook-endpoints/we_000000000000000000000000', {
            enabled_events: ['*'],
          })
        ).statusCode,
        404,
      );

      const disabled = await admin('POST', `/admin/v1/webhook-endpoints/${id}/disable`);
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.equal(disabled.json().status, 'disabled');
      assert.equal((await admin('GET', `/admin/v1/webhook-endpoints/${id}`)).json().status, 'disabled');
      assert.equal(
        (await admin('POST', `/admin/v1/webhook-endpoints/${id}/enable`)).json().status,
        'enabled',
      );
    });

    it('refuses to point a live endpoint at a plain-http or loopback URL on update', async () => {
      const merchant = await svc.createMerchant('Live hooks');
      const created = await admin('POST', `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
        url: 'https://93.184.215.14/hooks',
        livemode: true,
      });
      assert.equal(created.statusCode, 201, created.body);
      const plain = await admin('POST', `/admin/v1/webhook-endpoints/${created.json().id}`, {
        url: 'http://93.184.215.14/hooks',
      });
      assert.equal(plain.statusCode, 400);
      const loopback = await admin('POST', `/admin/v1/webhook-endpoints/${created.json().id}`, {
        url: 'https://127.0.0.1/hooks',
      });
      assert.equal(loopback.statusCode, 400);
    });

    it('removes an embed domain; removing it again is 404', async () => {
      const merchant = await svc.createMerchant('Embeds');
      for (const origin of ['https://shop.example', 'https://www.shop.example']) {
        await admin('POST', `/admin/v1/merchants/${merchant.id}/embed-domains`, { origin });
      }
      const removed = await admin('POST', `/admin/v1/merchants/${merchant.id}/embed-domains/remove`, {
        origin: 'https://shop.example',
      });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(removed.json(), {
        object: 'embed_domain',
        merchant_id: merchant.id,
        origin: 'https://shop.example',
        deleted: true,
      });
      const left = (await admin('GET', `/admin/v1/merchants/${merchant.id}/embed-domains`)).json().data;
      assert.deepEqual(
        left.map((d: { origin: string }) => d.origin),
        ['https://www.shop.example'],
      );
      const again = await admin('POST', `/admin/v1/merchants/${merchant.id}/embed-domains/remove`, {
        origin: 'https://shop.example',
      });
      assert.equal(again.statusCode, 404);
    });

    it('requires the operator token on every new route', async () => {
      for (const [method, url] of [
        ['GET', '/admin/v1/merchants'],
        ['GET', '/admin/v1/merchants/acct_000000000000000000000000'],
        ['POST', '/admin/v1/merchants/acct_000000000000000000000000/disable'],
        ['GET', '/admin/v1/api-keys/key_000000000000000000000000'],
        ['POST', '/admin/v1/api-keys/key_000000000000000000000000/revoke'],
      ] as const) {
        const response = await svc.request({
          method,
          url,
          headers: { 'x-admin-token': 'wrong-token-0123456789' },
        });
        assert.equal(response.statusCode, 401, `${method} ${url}`);
      }
    });
  });
}
