import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { newId } from '../src/domain/ids.ts';
import { insertDispute } from '../src/storage/repositories/disputes.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { routesWhere } from './support/route-table.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/** Every route of the app with a path parameter, as `METHOD /path/:param`, from Fastify's route table. */
function parameterisedRoutes(app: FastifyInstance): string[] {
  return routesWhere(app, (path) => path.includes(':'));
}

/**
 * Parameterised routes that are not a merchant's: the operator API (authenticated by the admin
 * token, across merchants by design), gateway notifications (authenticated by the gateway's
 * signature; the id is a gateway id or a gateway account id) and gateway returns. Dashboard routes take their tenant from a session, not a
 * key: dashboard-isolation.test.ts walks every one of them. The operator's console (`/operator/`)
 * is the operator's, across merchants by design, behind an operator session.
 */
const notTenantScoped = (route: string) =>
  / \/admin\//.test(route) ||
  / \/operator\//.test(route) ||
  / \/dashboard\//.test(route) ||
  route === 'POST /gateway-notifications/:gatewayId' ||
  // The payer's return from a gateway, by GET or by a posted form: authenticated by the MAC in
  // the return id (gateway-returns.test.ts refuses forged ones, both ways).
  / \/gateway-returns\/:returnId$/.test(route);

const MARKER = 'foreign-marker-7Q2';

for (const kind of databaseKinds()) {
  describe(`tenant isolation (${kind})`, () => {
    let svc: TestService;
    let owner: MerchantKeys;
    let stranger: MerchantKeys;
    /** Owner's test-mode resources. */
    let created: IntentJson;
    let succeeded: IntentJson;
    let refundId: string;
    /** A dispute of the owner's succeeded intent, as a gateway notification would record it. */
    let disputeId: string;
    /** Owner's live-mode intent. */
    let liveIntent: IntentJson;
    /** Owner's test-mode customer. */
    let customerId: string;
    let savedMethodId: string;

    before(async () => {
      svc = await startTestService(kind);
      owner = await svc.createMerchant('Owner');
      stranger = await svc.createMerchant('Stranger');
      const pay = paymentHelpers(svc, () => owner);
      created = await pay.create({ metadata: { note: MARKER } });
      succeeded = await pay.create({ amount_minor: 3000, metadata: { note: MARKER } });
      assert.equal(
        (await pay.confirm(succeeded.id, { payment_method_token: 'tok_sim_approve' })).json().status,
        'SUCCEEDED',
      );
      const refund = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: owner.secretTest,
        headers: { 'idempotency-key': freshKey() },
        body: { payment_intent_id: succeeded.id, amount_minor: 100, metadata: { note: MARKER } },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      refundId = refund.json().id;
      disputeId = newId('dp');
      const now = svc.ctx.clock.now();
      await insertDispute(svc.ctx.db, {
        id: disputeId,
        merchantId: owner.id,
        livemode: false,
        paymentIntentId: succeeded.id,
        gatewayId: 'sim',
        gatewayReference: `dispute-of-${succeeded.id}`,
        amountMinor: 3000,
        currency: 'USD',
        reason: 'fraudulent',
        status: 'NEEDS_RESPONSE',
        fundsHeld: true,
        fundsReturned: false,
        evidenceDueBy: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      const live = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: owner.secretLive,
        headers: { 'idempotency-key': freshKey() },
        body: { amount_minor: 2500, currency: 'USD', gateway_id: 'sim_live', metadata: { note: MARKER } },
      });
      assert.equal(live.statusCode, 200, live.body);
      liveIntent = live.json();
      const customer = await svc.request({
        method: 'POST',
        url: '/v1/customers',
        key: owner.secretTest,
        headers: { 'idempotency-key': freshKey() },
        body: { email: 'owner-customer@example.com', metadata: { note: MARKER } },
      });
      assert.equal(customer.statusCode, 200, customer.body);
      customerId = customer.json().id;
      // A saved method of that customer: a payment that asked to keep its method.
      const saving = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: owner.secretTest,
        headers: { 'idempotency-key': freshKey() },
        body: {
          amount_minor: 1200,
          currency: 'USD',
          gateway_id: 'sim',
          customer_id: customerId,
          setup_future_usage: 'off_session',
        },
      });
      const paid = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${saving.json().id}/confirm`,
        key: owner.secretTest,
        body: { payment_method_token: 'tok_sim_approve' },
      });
      assert.equal(paid.json().status, 'SUCCEEDED', paid.body);
      const { rows } = await svc.ctx.db.query<{ id: string }>(
        'SELECT id FROM saved_payment_methods WHERE customer_id = $1',
        [customerId],
      );
      savedMethodId = rows[0]?.id ?? '';
    });
    after(() => svc.close());

    /** The foreign callers of a test-mode resource: another merchant, and the owner's other mode. */
    const foreignKeys = () => [
      { who: 'another merchant', key: stranger.secretTest },
      { who: 'the other mode', key: owner.secretLive },
    ];

    function assertNotFound(response: { statusCode: number; body: string }, what: string): void {
      assert.equal(response.statusCode, 404, `${what}: ${response.body}`);
      const problem = JSON.parse(response.body);
      assert.equal(problem.code, 'resource_not_found', what);
      assert.equal(response.body.includes(MARKER), false, `${what}: no foreign data`);
      assert.equal(response.body.includes('client_secret'), false, what);
      assert.equal(problem.payment_intent, undefined, what);
      assert.deepEqual(
        Object.keys(problem)
          .filter((k) => !['type', 'title', 'status', 'detail', 'code', 'request_id', 'errors'].includes(k))
          .sort(),
        [],
        `${what}: only problem members`,
      );
    }

    async function intentStatus(id: string): Promise<{ status: string; amount_refunded_minor: number }> {
      const { rows } = await svc.ctx.db.query<{ status: string; amount_refunded_minor: number }>(
        'SELECT status, amount_refunded_minor FROM payment_intents WHERE id = $1',
        [id],
      );
      const row = rows[0];
      assert.ok(row);
      return row;
    }

    /**
     * One check per tenant-scoped route that takes an id: each proves that a foreign id is 404
     * with nothing of the resource in the answer, and that nothing happened to the resource.
     */
    const checks: Record<string, () => Promise<void>> = {
      'GET /v1/payment-intents/:id': async () => {
        for (const { who, key } of foreignKeys()) {
          for (const id of [created.id, succeeded.id]) {
            assertNotFound(await svc.request({ method: 'GET', url: `/v1/payment-intents/${id}`, key }), who);
          }
        }
        const liveFromTest = await svc.request({
          method: 'GET',
          url: `/v1/payment-intents/${liveIntent.id}`,
          key: owner.secretTest,
        });
        assertNotFound(liveFromTest, 'a live intent read with the test key');
        // The browser path: another merchant's publishable key, even with the intent's real client secret.
        const browser = await svc.request({
          method: 'GET',
          url: `/v1/payment-intents/${created.id}`,
          key: stranger.publishableTest,
          headers: { 'x-client-secret': String(created.client_secret) },
        });
        assertNotFound(browser, "another merchant's publishable key");
      },
      'POST /v1/payment-intents/:id/confirm': async () => {
        for (const { who, key } of foreignKeys()) {
          const response = await svc.request({
            method: 'POST',
            url: `/v1/payment-intents/${created.id}/confirm`,
            key,
            body: { payment_method_token: 'tok_sim_approve' },
          });
          assertNotFound(response, who);
        }
        const browser = await svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${created.id}/confirm`,
          key: stranger.publishableTest,
          headers: { 'x-client-secret': String(created.client_secret) },
          body: { payment_method_token: 'tok_sim_approve' },
        });
        assertNotFound(browser, "another merchant's publishable key");
        const liveFromTest = await svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${liveIntent.id}/confirm`,
          key: owner.secretTest,
          body: { payment_method_token: 'tok_sim_approve' },
        });
        assertNotFound(liveFromTest, 'a live intent confirmed with the test key');
        assert.equal((await intentStatus(created.id)).status, 'CREATED');
        assert.equal((await intentStatus(liveIntent.id)).status, 'CREATED');
      },
      'POST /v1/payment-intents/:id/capture': async () => {
        for (const { who, key } of foreignKeys()) {
          const response = await svc.request({
            method: 'POST',
            url: `/v1/payment-intents/${created.id}/capture`,
            key,
            headers: { 'idempotency-key': `capture-${who.replace(/\W+/g, '-')}` },
            body: {},
          });
          assertNotFound(response, who);
        }
        assertNotFound(
          await svc.request({
            method: 'POST',
            url: `/v1/payment-intents/${liveIntent.id}/capture`,
            key: owner.secretTest,
            headers: { 'idempotency-key': 'capture-live-from-test' },
            body: {},
          }),
          'a live intent captured with the test key',
        );
        assert.equal((await intentStatus(created.id)).status, 'CREATED');
        assert.equal((await intentStatus(liveIntent.id)).status, 'CREATED');
      },
      'POST /v1/payment-intents/:id/cancel': async () => {
        for (const { who, key } of foreignKeys()) {
          const response = await svc.request({
            method: 'POST',
            url: `/v1/payment-intents/${created.id}/cancel`,
            key,
          });
          assertNotFound(response, who);
        }
        assertNotFound(
          await svc.request({
            method: 'POST',
            url: `/v1/payment-intents/${liveIntent.id}/cancel`,
            key: owner.secretTest,
          }),
          'a live intent canceled with the test key',
        );
        assert.equal((await intentStatus(created.id)).status, 'CREATED');
        assert.equal((await intentStatus(liveIntent.id)).status, 'CREATED');
      },
      'GET /v1/refunds/:id': async () => {
        for (const { who, key } of foreignKeys()) {
          assertNotFound(await svc.request({ method: 'GET', url: `/v1/refunds/${refundId}`, key }), who);
        }
      },
      'GET /v1/customers/:id': async () => {
        for (const { who, key } of foreignKeys()) {
          assertNotFound(await svc.request({ method: 'GET', url: `/v1/customers/${customerId}`, key }), who);
        }
      },
      'POST /v1/customers/:id': async () => {
        for (const { who, key } of foreignKeys()) {
          const response = await svc.request({
            method: 'POST',
            url: `/v1/customers/${customerId}`,
            key,
            body: { name: 'Taken over' },
          });
          assertNotFound(response, who);
        }
        const { rows } = await svc.ctx.db.query<{ name: string | null; version: number }>(
          'SELECT name, version FROM customers WHERE id = $1',
          [customerId],
        );
        assert.deepEqual(rows[0], { name: null, version: 1 });
      },
      'DELETE /v1/customers/:id': async () => {
        for (const { who, key } of foreignKeys()) {
          assertNotFound(
            await svc.request({ method: 'DELETE', url: `/v1/customers/${customerId}`, key }),
            who,
          );
        }
        const { rows } = await svc.ctx.db.query<{ deleted_at: Date | null }>(
          'SELECT deleted_at FROM customers WHERE id = $1',
          [customerId],
        );
        assert.equal(rows[0]?.deleted_at, null);
      },
      'GET /v1/customers/:id/saved-payment-methods': async () => {
        for (const { who, key } of foreignKeys()) {
          assertNotFound(
            await svc.request({
              method: 'GET',
              url: `/v1/customers/${customerId}/saved-payment-methods`,
              key,
            }),
            who,
          );
        }
      },
      'POST /v1/saved-payment-methods/:id/detach': async () => {
        for (const { who, key } of foreignKeys()) {
          assertNotFound(
            await svc.request({
              method: 'POST',
              url: `/v1/saved-payment-methods/${savedMethodId}/detach`,
              key,
            }),
            who,
          );
        }
        const { rows } = await svc.ctx.db.query<{ status: string }>(
          'SELECT status FROM saved_payment_methods WHERE id = $1',
          [savedMethodId],
        );
        assert.equal(rows[0]?.status, 'active');
      },
      'GET /v1/disputes/:id': async () => {
        for (const { who, key } of foreignKeys()) {
          assertNotFound(await svc.request({ method: 'GET', url: `/v1/disputes/${disputeId}`, key }), who);
        }
      },
    };

    /** Routes whose id travels in the body rather than the path. */
    const bodyIdChecks: Record<string, () => Promise<void>> = {
      'POST /v1/refunds (payment_intent_id)': async () => {
        const before = await intentStatus(succeeded.id);
        for (const { who, key } of foreignKeys()) {
          const response = await svc.request({
            method: 'POST',
            url: '/v1/refunds',
            key,
            headers: { 'idempotency-key': freshKey() },
            body: { payment_intent_id: succeeded.id, amount_minor: 100 },
          });
          assertNotFound(response, who);
        }
        const liveFromTest = await svc.request({
          method: 'POST',
          url: '/v1/refunds',
          key: owner.secretTest,
          headers: { 'idempotency-key': freshKey() },
          body: { payment_intent_id: liveIntent.id },
        });
        assertNotFound(liveFromTest, 'a live intent refunded with the test key');
        assert.deepEqual(await intentStatus(succeeded.id), before);
        const { rows } = await svc.ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM refunds WHERE payment_intent_id = ANY($1::text[])',
          [[succeeded.id, liveIntent.id]],
        );
        assert.equal(rows[0]?.n, 1, 'only the owner’s own refund exists');
      },
    };

    it('has a check for every tenant-scoped route that takes an id (read from the route table)', () => {
      const scoped = parameterisedRoutes(svc.app).filter((route) => !notTenantScoped(route));
      assert.ok(scoped.length >= 4, `found ${scoped.join(', ')}`);
      assert.deepEqual(scoped, Object.keys(checks).sort(), 'add a check for each new id-taking route');
    });

    for (const [route, check] of Object.entries({ ...checks, ...bodyIdChecks })) {
      it(`${route}: another merchant's id and the other mode's id are 404 resource_not_found`, check);
    }

    it("another merchant's customer, or the other mode's, is no customer for a new intent: 400 naming customer_id, nothing created", async () => {
      const { rows: before } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM payment_intents WHERE customer_id = $1',
        [customerId],
      );
      for (const { who, key } of foreignKeys()) {
        const response = await svc.request({
          method: 'POST',
          url: '/v1/payment-intents',
          key,
          headers: { 'idempotency-key': freshKey() },
          body: {
            amount_minor: 1000,
            currency: 'USD',
            gateway_id: who === 'the other mode' ? 'sim_live' : 'sim',
            customer_id: customerId,
          },
        });
        assert.equal(response.statusCode, 400, `${who}: ${response.body}`);
        assert.deepEqual(
          (response.json() as { errors: { field: string }[] }).errors.map((error) => error.field),
          ['customer_id'],
          who,
        );
      }
      const { rows: after } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM payment_intents WHERE customer_id = $1',
        [customerId],
      );
      assert.deepEqual(after, before);
    });

    it('the owner reaches each of these resources (the 404s are not a broken route)', async () => {
      for (const url of [
        `/v1/payment-intents/${created.id}`,
        `/v1/refunds/${refundId}`,
        `/v1/disputes/${disputeId}`,
        `/v1/customers/${customerId}`,
        `/v1/customers/${customerId}/saved-payment-methods`,
      ]) {
        assert.equal((await svc.request({ method: 'GET', url, key: owner.secretTest })).statusCode, 200, url);
      }
      const live = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${liveIntent.id}`,
        key: owner.secretLive,
      });
      assert.equal(live.statusCode, 200);
      assert.ok(live.body.includes(MARKER));
    });
  });
}
