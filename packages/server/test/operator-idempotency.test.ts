// The operator API's creating POSTs honour Idempotency-Key as /v1 does (issue 41 item 6: a
// repeated POST /admin/v1/deprecations answered 201 and e-mailed every affected owner again).
// On both databases: a repeat is the first answer, byte for byte, marked Idempotent-Replayed, and
// creates nothing; another request under the key is 409 idempotency_key_reuse; a repeat while the
// first holds the key is 409 idempotency_key_in_flight; the answers, which hold keys and secrets
// shown once, are stored sealed; without a key a request runs as before.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { firstOwner } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

const DAY_S = 24 * 60 * 60;

for (const kind of databaseKinds()) {
  describe(`the operator's Idempotency-Key (${kind})`, () => {
    let svc: TestService;
    let shop: MerchantKeys;

    const admin = (url: string, body: unknown, key?: string) =>
      svc.request({
        method: 'POST',
        url,
        headers: { 'x-admin-token': ADMIN_TOKEN, ...(key ? { 'idempotency-key': key } : {}) },
        body,
      });
    const count = async (sql: string, params: unknown[] = []) =>
      Number((await svc.ctx.db.query<{ n: string }>(sql, params)).rows[0]?.n);

    before(async () => {
      svc = await startTestService(kind);
      shop = await svc.createMerchant('Shop the operator serves');
      // The shop's old client called: a deprecation of it e-mails the shop's owner.
      await svc.request({
        method: 'GET',
        url: '/v1/transactions?limit=1',
        key: shop.secretTest,
        headers: { 'user-agent': 'paygate-node/1.9.3 node/v20.20.2' },
      });
      await svc.app.clientTelemetry.flush();
      await firstOwner(svc, shop.id, 'owner@operator-keys.example');
    });
    after(() => svc?.close());

    it('a repeated deprecation announcement is the first answer and e-mails no owner again', async () => {
      const key = freshKey('dep');
      const body = {
        affected: { clients: [{ name: 'paygate-node', below: '2.0.0' }] },
        withdraw_on: new Date(svc.clock.now().getTime() + 90 * DAY_S * 1000).toISOString().slice(0, 10),
        text: 'Upgrade to paygate-node 2.',
      };
      const first = await admin('/admin/v1/deprecations', body, key);
      assert.equal(first.statusCode, 201, first.body);
      const mails = await count(
        "SELECT count(*) AS n FROM mail_outbox WHERE dedupe_key LIKE 'deprecation:%'",
      );
      assert.equal(mails, 1, 'the owner is told once');
      for (let i = 0; i < 2; i += 1) {
        const again = await admin('/admin/v1/deprecations', body, key);
        assert.equal(again.statusCode, 201);
        assert.equal(again.body, first.body, 'byte for byte');
        assert.equal(again.headers['idempotent-replayed'], 'true');
      }
      assert.equal(await count('SELECT count(*) AS n FROM deprecations'), 1, 'one announcement');
      assert.equal(
        await count("SELECT count(*) AS n FROM mail_outbox WHERE dedupe_key LIKE 'deprecation:%'"),
        1,
        'no second e-mail',
      );
      const reused = await admin('/admin/v1/deprecations', { ...body, text: 'Something else.' }, key);
      assert.equal(reused.statusCode, 409);
      assert.equal(reused.json().code, 'idempotency_key_reuse');
    });

    it('every creating operator POST replays under its key and creates nothing twice', async () => {
      const endpointBody = { url: 'http://localhost:4000/operator-keys', livemode: false };
      const endpoint = await admin(`/admin/v1/merchants/${shop.id}/webhook-endpoints`, endpointBody);
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const cases: Array<{ url: string; body: unknown; table: string; where?: string }> = [
        { url: '/admin/v1/merchants', body: { name: 'Keyed shop' }, table: 'merchants' },
        {
          url: `/admin/v1/merchants/${shop.id}/api-keys`,
          body: { livemode: false, kind: 'secret' },
          table: 'api_keys',
        },
        {
          url: `/admin/v1/merchants/${shop.id}/webhook-endpoints`,
          body: { url: 'http://localhost:4000/operator-keys-second', livemode: false },
          table: 'webhook_endpoints',
        },
        {
          url: `/admin/v1/merchants/${shop.id}/embed-domains`,
          body: { origin: 'https://keyed.operator-keys.example' },
          table: 'embed_domains',
        },
        {
          url: `/admin/v1/merchants/${shop.id}/gateway-accounts`,
          body: {
            livemode: false,
            connector: 'stripe',
            gateway_id: 'stripe-keyed',
            credentials: { secret_key: 'sk_test_keyed01', webhook_secret: 'whsec_keyed01' },
          },
          table: 'gateway_accounts',
        },
        {
          url: `/admin/v1/merchants/${shop.id}/dashboard-invitations`,
          body: { email: 'second-owner@operator-keys.example' },
          table: 'dashboard_invitations',
        },
        {
          url: `/admin/v1/webhook-endpoints/${endpoint.json().id}/send-test-event`,
          body: { type: 'payment_intent.succeeded' },
          table: 'events',
        },
      ];
      for (const { url, body, table } of cases) {
        const before = await count(`SELECT count(*) AS n FROM ${table}`);
        const key = freshKey('op');
        const first = await admin(url, body, key);
        assert.ok(first.statusCode === 201 || first.statusCode === 200, `${url}: ${first.body}`);
        const again = await admin(url, body, key);
        assert.equal(again.statusCode, first.statusCode, url);
        assert.equal(again.body, first.body, `${url}: the same bytes, the same secrets`);
        assert.equal(again.headers['idempotent-replayed'], 'true', url);
        assert.equal(await count(`SELECT count(*) AS n FROM ${table}`), before + 1, `${url}: created once`);
        // Without a key the operator asks for a second one, and gets it.
        if (table !== 'embed_domains' && table !== 'gateway_accounts' && table !== 'dashboard_invitations') {
          const unkeyed = await admin(url, body);
          assert.ok(unkeyed.statusCode === 201 || unkeyed.statusCode === 200, unkeyed.body);
          assert.equal(
            await count(`SELECT count(*) AS n FROM ${table}`),
            before + 2,
            `${url}: no key, no replay`,
          );
        }
      }
      // Rolling a key creates its successor once.
      const created = await admin(`/admin/v1/merchants/${shop.id}/api-keys`, {
        livemode: false,
        kind: 'secret',
      });
      const key = freshKey('roll');
      const rolled = await admin(`/admin/v1/api-keys/${created.json().id}/roll`, {}, key);
      assert.equal(rolled.statusCode, 201, rolled.body);
      const rolledAgain = await admin(`/admin/v1/api-keys/${created.json().id}/roll`, {}, key);
      assert.equal(rolledAgain.body, rolled.body);
    });

    it('stores the answers sealed: no key or secret shown once is in the clear', async () => {
      const created = await admin('/admin/v1/merchants', { name: 'Sealed shop' }, freshKey('seal'));
      assert.equal(created.statusCode, 201, created.body);
      const secrets = JSON.stringify(created.json()).match(/sk_test_[0-9A-Za-z]+/g) ?? [];
      assert.ok(secrets.length > 0, 'the answer shows the new secret key');
      const { rows } = await svc.ctx.db.query<{ response_body: string }>(
        'SELECT response_body FROM operator_idempotency_keys',
      );
      assert.ok(rows.length > 0);
      for (const row of rows) {
        for (const secret of secrets) assert.ok(!row.response_body.includes(secret), 'sealed');
        assert.doesNotMatch(row.response_body, /whsec_|sk_test_|"token"/);
      }
    });

    // The embedded database runs one transaction at a time: a second request waits for the first
    // to end and is then its replay, so a request in flight is only seen beside it on PostgreSQL.
    const concurrent = kind === 'postgres' ? it : null;
    concurrent?.(
      'a repeat while the first request holds its key is 409 idempotency_key_in_flight',
      async () => {
        const key = freshKey('busy');
        // The key's lock as the first request holds it (app/idempotent-phases.ts lockIdFor, in the
        // operator's key space), held by another transaction.
        const lockId = createHash('sha256')
          .update(`operator\u0000true\u0000${key}`)
          .digest()
          .readBigInt64BE(0);
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked: () => void = () => {};
        const isLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const holder = svc.ctx.db.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockId.toString()]);
          locked();
          await held;
        });
        await isLocked;
        try {
          const busy = await admin('/admin/v1/merchants', { name: 'Busy shop' }, key);
          assert.equal(busy.statusCode, 409, busy.body);
          assert.equal(busy.json().code, 'idempotency_key_in_flight');
        } finally {
          release();
          await holder;
        }
        const after = await admin('/admin/v1/merchants', { name: 'Busy shop' }, key);
        assert.equal(after.statusCode, 201, 'the key is free again');
      },
    );
  });
}
