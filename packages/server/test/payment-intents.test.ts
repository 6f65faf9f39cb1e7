import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listEventsForObject } from '../src/storage/repositories/events.ts';
import { databaseKinds } from './support/databases.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const order = { amount_minor: 2500, currency: 'USD', gateway_id: 'sim' };

for (const kind of databaseKinds()) {
  describe(`payment intents (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Shop A');
      other = await svc.createMerchant('Shop B');
    });
    after(() => svc.close());

    const create = (body: unknown, key = merchant.secretTest) =>
      svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key,
        headers: { 'idempotency-key': freshKey() },
        body,
      });

    it('creates an intent in CREATED with every contract field', async () => {
      const response = await create({
        ...order,
        metadata: { order_id: 'A-1' },
        return_url: 'https://shop.test/back',
      });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      const intent = response.json();
      assert.match(intent.id, /^pi_[0-9A-Za-z]{24}$/);
      assert.equal(intent.object, 'payment_intent');
      assert.equal(intent.amount_minor, 2500);
      assert.equal(Number.isInteger(intent.amount_minor), true);
      assert.equal(intent.currency, 'USD');
      assert.equal(intent.status, 'CREATED');
      assert.equal(intent.gateway_id, 'sim');
      assert.equal(intent.redirect_url, null);
      assert.equal(intent.return_url, 'https://shop.test/back');
      assert.deepEqual(intent.metadata, { order_id: 'A-1' });
      assert.equal(intent.livemode, false);
      assert.equal(intent.payment_method, null);
      assert.equal(intent.amount_refunded_minor, 0);
      assert.match(intent.client_secret, new RegExp(`^${intent.id}_secret_[0-9A-Za-z]{24}$`));
      assert.equal(intent.checkout, undefined);
      const expiresInMs = Date.parse(intent.expires_at) - Date.parse(intent.created_at);
      assert.equal(expiresInMs, 86_400_000);
    });

    it('retrieves an intent with the secret key', async () => {
      const created = (await create(order)).json();
      const response = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${created.id}`,
        key: merchant.secretTest,
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), created);
    });

    it('takes a zero-decimal currency amount in whole units and honours expires_in_seconds', async () => {
      const response = await create({
        amount_minor: 1500,
        currency: 'clp',
        gateway_id: 'sim',
        expires_in_seconds: 600,
      });
      assert.equal(response.statusCode, 200);
      const intent = response.json();
      assert.equal(intent.currency, 'CLP');
      assert.equal(Date.parse(intent.expires_at) - Date.parse(intent.created_at), 600_000);
    });

    it('refuses a currency code that is not ISO 4217 with 400 naming currency', async () => {
      const response = await create({ ...order, currency: 'XYZ' });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'validation_error');
      assert.equal(response.json().errors[0].field, 'currency');
    });

    it('refuses an ISO currency the gateway does not take with 422 currency_not_supported', async () => {
      const response = await create({ ...order, currency: 'CHF' });
      assert.equal(response.statusCode, 422);
      assert.equal(response.json().code, 'currency_not_supported');
    });

    it('refuses an amount under the gateway minimum with 422 amount_below_minimum', async () => {
      const response = await create({ ...order, amount_minor: 49 });
      assert.equal(response.statusCode, 422);
      assert.equal(response.json().code, 'amount_below_minimum');
      const kwd = await create({ amount_minor: 499, currency: 'KWD', gateway_id: 'sim' });
      assert.equal(kwd.json().code, 'amount_below_minimum');
      const jpy = await create({ amount_minor: 1, currency: 'JPY', gateway_id: 'sim' });
      assert.equal(jpy.statusCode, 200);
    });

    it('refuses non-integer, string, zero and oversized amounts with 400 naming amount_minor', async () => {
      for (const amount of [10.5, '2500', 0, -5, 1_000_000_000_000]) {
        const response = await create({ ...order, amount_minor: amount });
        assert.equal(response.statusCode, 400, `amount ${amount}`);
        assert.equal(response.json().errors[0].field, 'amount_minor', `amount ${amount}`);
      }
    });

    it('refuses missing required fields, unknown fields and unknown gateways, naming the field', async () => {
      const missing = await create({ amount_minor: 100, gateway_id: 'sim' });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().errors[0].field, 'currency');
      const unknown = await create({ ...order, statement_descriptor: 'SHOP' });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().errors[0].field, 'statement_descriptor');
      const gateway = await create({ ...order, gateway_id: 'nope' });
      assert.equal(gateway.statusCode, 400);
      assert.equal(gateway.json().errors[0].field, 'gateway_id');
    });

    it('enforces the metadata limits', async () => {
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
      assert.equal((await create({ ...order, metadata: tooMany })).statusCode, 400);
      const longKey = await create({ ...order, metadata: { ['k'.repeat(41)]: 'v' } });
      assert.equal(longKey.statusCode, 400);
      assert.equal(longKey.json().errors[0].field, `metadata.${'k'.repeat(41)}`);
      assert.equal((await create({ ...order, metadata: { a: 'v'.repeat(501) } })).statusCode, 400);
      assert.equal((await create({ ...order, metadata: { a: 1 } })).statusCode, 400);
    });

    it('refuses a sim intent in live mode (the simulator is test mode only)', async () => {
      const response = await create(order, merchant.secretLive);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().errors[0].field, 'gateway_id');
    });

    it('cancels a CREATED intent, writes one payment_intent.canceled event, and refuses a second cancel', async () => {
      const created = (await create(order)).json();
      const canceled = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.id}/cancel`,
        key: merchant.secretTest,
        body: { cancellation_reason: 'requested_by_customer' },
      });
      assert.equal(canceled.statusCode, 200);
      assert.equal(canceled.json().status, 'CANCELED');
      const again = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.id}/cancel`,
        key: merchant.secretTest,
      });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'invalid_state_transition');

      const events = await listEventsForObject(svc.ctx.db, created.id);
      assert.equal(events.length, 1);
      const event = JSON.parse(events[0]!.payload);
      assert.match(event.id, /^evt_[0-9A-Za-z]{24}$/);
      assert.equal(event.object, 'event');
      assert.equal(event.type, 'payment_intent.canceled');
      assert.equal(event.livemode, false);
      assert.equal(event.data.object.id, created.id);
      assert.equal(event.data.object.status, 'CANCELED');
      assert.equal(event.data.object.client_secret, undefined, 'events never carry the client secret');
      assert.ok(!Number.isNaN(Date.parse(event.created)));
    });

    it('cancels with no body at all', async () => {
      const created = (await create(order)).json();
      const response = await svc.app.inject({
        method: 'POST',
        url: `/v1/payment-intents/${created.id}/cancel`,
        headers: { 'x-api-key': merchant.secretTest },
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().status, 'CANCELED');
    });

    it("answers 404 for another merchant's intent and for the other mode, with no foreign data", async () => {
      const created = (await create(order)).json();
      for (const key of [other.secretTest, merchant.secretLive]) {
        const read = await svc.request({ method: 'GET', url: `/v1/payment-intents/${created.id}`, key });
        assert.equal(read.statusCode, 404);
        assert.equal(read.json().code, 'resource_not_found');
        assert.ok(!read.body.includes('2500'));
        const cancel = await svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${created.id}/cancel`,
          key,
        });
        assert.equal(cancel.statusCode, 404);
      }
    });

    it('lets a publishable key with the client secret read the intent, with checkout and no client_secret', async () => {
      const created = (await create(order)).json();
      const response = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${created.id}`,
        key: merchant.publishableTest,
        headers: { 'x-client-secret': created.client_secret },
      });
      assert.equal(response.statusCode, 200);
      const intent = response.json();
      assert.equal(intent.client_secret, undefined);
      assert.equal(intent.checkout.gateway_id, 'sim');
      assert.equal(intent.checkout.hosted_fields_url, `${svc.sim.url}/hosted-fields`);
      assert.equal(intent.checkout.gateway_origin, svc.sim.origin);
    });

    it('refuses a wrong or missing client secret with 401 invalid_client_secret', async () => {
      const created = (await create(order)).json();
      const another = (await create(order)).json();
      for (const headers of [{ 'x-client-secret': String(another.client_secret) }, {}] as Record<
        string,
        string
      >[]) {
        const response = await svc.request({
          method: 'GET',
          url: `/v1/payment-intents/${created.id}`,
          key: merchant.publishableTest,
          headers,
        });
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().code, 'invalid_client_secret');
      }
    });

    it('refuses a client secret passed as a query parameter', async () => {
      const created = (await create(order)).json();
      const response = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${created.id}?client_secret=${created.client_secret}`,
        key: merchant.publishableTest,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().errors[0].field, 'client_secret');
    });

    it('refuses a publishable key on secret-key operations with 403 insufficient_permissions', async () => {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.publishableTest,
        headers: { 'idempotency-key': freshKey() },
        body: order,
      });
      assert.equal(created.statusCode, 403);
      assert.equal(created.json().code, 'insufficient_permissions');
    });
  });
}
