// Payment intents of a customer (issue 44; CONTRACT.md, second round): `customer_id` and
// `setup_future_usage` on create, shown on the resource; every bad reference is a 400 naming its
// field, with nothing stored. A payment made with setup_future_usage saves its method for the
// customer when it succeeds (or is authorised), once, with saved_payment_method.attached; the
// customer's methods are listed newest first. On both databases, against the simulated gateway.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSimConnector } from '../src/gateways/sim/connector.ts';
import { databaseKinds } from './support/databases.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

type Json = Record<string, unknown>;

for (const kind of databaseKinds()) {
  describe(`payment intents of a customer (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;

    before(async () => {
      // A gateway that keeps no payment methods, beside the simulator that does.
      const keepsNothing = {
        ...createSimConnector({ baseUrl: 'http://127.0.0.1:9', apiSecret: 'x', notificationSecret: 'y' }),
        id: 'keeps_nothing',
        savesPaymentMethods: false,
      };
      svc = await startTestService(kind, { extraGateways: [keepsNothing] });
      merchant = await svc.createMerchant('Customer intents shop');
      other = await svc.createMerchant('Another shop');
    });
    after(() => svc.close());

    const post = (url: string, body: Json, key = merchant.secretTest) =>
      svc.request({ method: 'POST', url, key, body, headers: { 'idempotency-key': freshKey('ci') } });
    const customerOf = async (key = merchant.secretTest) => {
      const response = await post('/v1/customers', { email: 'payer@example.com' }, key);
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as { id: string }).id;
    };
    const intentBody = (extra: Json): Json => ({
      amount_minor: 1500,
      currency: 'USD',
      gateway_id: 'sim',
      ...extra,
    });
    const intentsOfMerchant = async () => {
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM payment_intents WHERE merchant_id = $1',
        [merchant.id],
      );
      return rows[0]?.n ?? 0;
    };

    it('an intent created for a customer names it; one created without has nulls', async () => {
      const customerId = await customerOf();
      const created = await post('/v1/payment-intents', intentBody({ customer_id: customerId }));
      assert.equal(created.statusCode, 200, created.body);
      const intent = created.json();
      assert.equal(intent.customer_id, customerId);
      assert.equal(intent.setup_future_usage, null);
      const read = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${intent.id}`,
        key: merchant.secretTest,
      });
      assert.equal(read.json().customer_id, customerId);
      const plain = await post('/v1/payment-intents', intentBody({}));
      assert.equal(plain.statusCode, 200, plain.body);
      assert.equal(plain.json().customer_id, null);
      assert.equal(plain.json().setup_future_usage, null);
    });

    const refusals: { name: string; field: string; body: () => Promise<Json>; says: RegExp }[] = [
      {
        name: 'setup_future_usage without customer_id',
        field: 'setup_future_usage',
        body: async () => intentBody({ setup_future_usage: 'off_session' }),
        says: /needs customer_id/,
      },
      {
        name: 'an unknown customer',
        field: 'customer_id',
        body: async () => intentBody({ customer_id: 'cus_000000000000000000000000' }),
        says: /no customer 'cus_0+' exists/,
      },
      {
        name: "another merchant's customer",
        field: 'customer_id',
        body: async () => intentBody({ customer_id: await customerOf(other.secretTest) }),
        says: /no customer 'cus_\w+' exists for this key and mode$/,
      },
      {
        name: 'a deleted customer',
        field: 'customer_id',
        body: async () => {
          const id = await customerOf();
          const gone = await svc.request({
            method: 'DELETE',
            url: `/v1/customers/${id}`,
            key: merchant.secretTest,
          });
          assert.equal(gone.statusCode, 200, gone.body);
          return intentBody({ customer_id: id });
        },
        says: /\(it was deleted\)/,
      },
      {
        name: 'saving on a gateway that keeps no payment methods',
        field: 'setup_future_usage',
        body: async () =>
          intentBody({
            customer_id: await customerOf(),
            setup_future_usage: 'off_session',
            gateway_id: 'keeps_nothing',
          }),
        says: /gateway 'keeps_nothing' does not keep payment methods/,
      },
      {
        name: 'a setup_future_usage the contract does not know',
        field: 'setup_future_usage',
        body: async () => intentBody({ customer_id: await customerOf(), setup_future_usage: 'on_session' }),
        says: /./,
      },
    ];
    for (const refusal of refusals) {
      it(`refuses ${refusal.name}: 400 naming ${refusal.field}, nothing stored`, async () => {
        const body = await refusal.body();
        const before = await intentsOfMerchant();
        const response = await post('/v1/payment-intents', body);
        assert.equal(response.statusCode, 400, response.body);
        const problem = response.json();
        assert.equal(problem.code, 'validation_error');
        const errors = problem.errors as { field: string; message: string }[];
        assert.ok(
          errors.some((error) => error.field === refusal.field && refusal.says.test(error.message)),
          response.body,
        );
        assert.equal(await intentsOfMerchant(), before);
      });
    }

    const confirm = async (id: string, token: string) => {
      const response = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: token },
      });
      return { status: response.statusCode, intent: response.json() as Json };
    };
    const savingIntent = async (customerId: string, extra: Json = {}) => {
      const response = await post(
        '/v1/payment-intents',
        intentBody({ customer_id: customerId, setup_future_usage: 'off_session', ...extra }),
      );
      assert.equal(response.statusCode, 200, response.body);
      const intent = response.json() as Json;
      assert.equal(intent.setup_future_usage, 'off_session');
      return intent.id as string;
    };
    const methodsOf = async (customerId: string, query = '', key = merchant.secretTest) =>
      svc.request({ method: 'GET', url: `/v1/customers/${customerId}/saved-payment-methods${query}`, key });
    const savedRows = async (customerId: string) => {
      const { rows } = await svc.ctx.db.query<{
        id: string;
        gateway_reference: string;
        payment_intent_id: string;
      }>(
        'SELECT id, gateway_reference, payment_intent_id FROM saved_payment_methods WHERE customer_id = $1',
        [customerId],
      );
      return rows;
    };
    const attachedEvents = async (methodId: string) => {
      const { rows } = await svc.ctx.db.query<{ type: string; payload: string }>(
        'SELECT type, payload FROM events WHERE object_id = $1 ORDER BY created_at, id',
        [methodId],
      );
      return rows.map((row) => ({ type: row.type, object: JSON.parse(row.payload).data.object as Json }));
    };

    it('saves the method of a succeeded payment for its customer, once, with saved_payment_method.attached', async () => {
      const customerId = await customerOf();
      const intentId = await savingIntent(customerId);
      const confirmed = await confirm(intentId, 'tok_sim_approve');
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.intent));
      assert.equal(confirmed.intent.status, 'SUCCEEDED');

      const rows = await savedRows(customerId);
      assert.equal(rows.length, 1);
      assert.match(rows[0]?.gateway_reference ?? '', /^pm_sim_\w+$/);
      assert.equal(rows[0]?.payment_intent_id, intentId);

      const listed = await methodsOf(customerId);
      assert.equal(listed.statusCode, 200, listed.body);
      const page = listed.json() as { data: Json[]; has_more: boolean; next_cursor: string | null };
      assert.equal(page.data.length, 1);
      const method = page.data[0] as Json;
      assert.deepEqual(
        { ...method, created_at: 'x' },
        {
          id: rows[0]?.id,
          object: 'saved_payment_method',
          customer_id: customerId,
          gateway_id: 'sim',
          status: 'active',
          livemode: false,
          created_at: 'x',
          version: 1,
        },
      );
      assert.ok(!listed.body.includes('pm_sim_'), 'the gateway reference is never shown');
      assert.deepEqual(await attachedEvents(method.id as string), [
        { type: 'saved_payment_method.attached', object: method },
      ]);
    });

    it('saves the method of an authorised manual payment at REQUIRES_CAPTURE', async () => {
      const customerId = await customerOf();
      const intentId = await savingIntent(customerId, { capture_method: 'manual' });
      const confirmed = await confirm(intentId, 'tok_sim_approve');
      assert.equal(confirmed.intent.status, 'REQUIRES_CAPTURE');
      assert.equal((await savedRows(customerId)).length, 1);
    });

    it('saves nothing for a declined payment, a payment that did not ask, or a customer deleted before the payment succeeded', async () => {
      const declined = await customerOf();
      const declinedIntent = await savingIntent(declined);
      assert.equal((await confirm(declinedIntent, 'tok_sim_decline')).status, 402);
      assert.deepEqual(await savedRows(declined), []);

      const notAsked = await customerOf();
      const created = await post('/v1/payment-intents', intentBody({ customer_id: notAsked }));
      const plain = (created.json() as Json).id as string;
      assert.equal((await confirm(plain, 'tok_sim_approve')).intent.status, 'SUCCEEDED');
      assert.deepEqual(await savedRows(notAsked), []);

      const gone = await customerOf();
      const goneIntent = await savingIntent(gone);
      const deleted = await svc.request({
        method: 'DELETE',
        url: `/v1/customers/${gone}`,
        key: merchant.secretTest,
      });
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal((await confirm(goneIntent, 'tok_sim_approve')).intent.status, 'SUCCEEDED');
      assert.deepEqual(await savedRows(gone), []);
    });

    it("lists a customer's methods newest first, a page at a time; another tenant's or a deleted customer is 404", async () => {
      const customerId = await customerOf();
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await confirm(await savingIntent(customerId), 'tok_sim_approve')).intent.status,
          'SUCCEEDED',
        );
      }
      const all = (await methodsOf(customerId)).json() as { data: Json[] };
      assert.equal(all.data.length, 3);
      const seen: string[] = [];
      let query = '?limit=2';
      for (;;) {
        const page = (await methodsOf(customerId, query)).json() as {
          data: Json[];
          has_more: boolean;
          next_cursor: string | null;
        };
        seen.push(...page.data.map((method) => method.id as string));
        if (!page.has_more) break;
        query = `?limit=2&cursor=${page.next_cursor}`;
      }
      assert.deepEqual(
        seen,
        all.data.map((method) => method.id),
      );
      assert.equal((await methodsOf(customerId, '', other.secretTest)).statusCode, 404);
      assert.equal((await methodsOf('cus_000000000000000000000000')).statusCode, 404);
      assert.equal((await methodsOf(customerId, '?limit=0')).statusCode, 400);
      assert.equal((await methodsOf(customerId, '?limit=101')).statusCode, 400);
      assert.equal((await methodsOf(customerId, '?limit=100')).statusCode, 200);
      assert.equal((await methodsOf(customerId, '?cursor=nonsense')).statusCode, 400);
    });

    it('pages 20 saved methods by default', async () => {
      const customerId = await customerOf();
      for (let i = 0; i < 21; i++) {
        assert.equal(
          (await confirm(await savingIntent(customerId), 'tok_sim_approve')).intent.status,
          'SUCCEEDED',
        );
      }
      const first = (await methodsOf(customerId)).json() as { data: Json[]; has_more: boolean };
      assert.equal(first.data.length, 20);
      assert.equal(first.has_more, true);
    });

    // Charges without the payer (CONTRACT.md, second round): confirm with saved_payment_method_id.
    const savedMethodOf = async (customerId: string, token = 'tok_sim_approve') => {
      assert.equal((await confirm(await savingIntent(customerId), token)).intent.status, 'SUCCEEDED');
      const page = (await methodsOf(customerId)).json() as { data: { id: string }[] };
      return page.data[0]?.id as string;
    };
    const intentOf = async (customerId: string | null) => {
      const response = await post(
        '/v1/payment-intents',
        intentBody(customerId ? { customer_id: customerId } : {}),
      );
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as Json).id as string;
    };
    const chargeSaved = async (intentId: string, body: Json, key = merchant.secretTest, headers = {}) => {
      const response = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${intentId}/confirm`,
        key,
        headers,
        body,
      });
      return { status: response.statusCode, body: response.json() as Json };
    };
    const attemptsOf = async (intentId: string) => {
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM charge_attempts WHERE payment_intent_id = $1',
        [intentId],
      );
      return rows[0]?.n ?? 0;
    };

    it('charges a saved method without the payer: SUCCEEDED, once, and a repeat is refused', async () => {
      const customerId = await customerOf();
      const methodId = await savedMethodOf(customerId);
      const intentId = await intentOf(customerId);
      const charged = await chargeSaved(intentId, { saved_payment_method_id: methodId, off_session: true });
      assert.equal(charged.status, 200, JSON.stringify(charged.body));
      assert.equal(charged.body.status, 'SUCCEEDED');
      const again = await chargeSaved(intentId, { saved_payment_method_id: methodId, off_session: true });
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(await attemptsOf(intentId), 1, 'one charge sent');
      // Charged again with setup_future_usage, the same method is not saved a second time.
      const resaving = await savingIntent(customerId);
      const resaved = await chargeSaved(resaving, { saved_payment_method_id: methodId, off_session: true });
      assert.equal(resaved.body.status, 'SUCCEEDED');
      assert.equal((await savedRows(customerId)).length, 1);
    });

    it('a saved method whose later charges are declined fails the payment with the reason', async () => {
      const customerId = await customerOf();
      const methodId = await savedMethodOf(customerId, 'tok_sim_save_then_decline');
      const declined = await chargeSaved(await intentOf(customerId), {
        saved_payment_method_id: methodId,
        off_session: true,
      });
      assert.equal(declined.status, 402, JSON.stringify(declined.body));
      const intent = declined.body.payment_intent as Json;
      assert.equal(intent.status, 'FAILED');
      assert.equal((intent.last_payment_error as Json).decline_code, 'insufficient_funds');
    });

    it('off-session never answers REQUIRES_ACTION: a method that wants the payer fails as authentication_required; on-session it is challenged', async () => {
      const customerId = await customerOf();
      const methodId = await savedMethodOf(customerId, 'tok_sim_save_then_authenticate');
      const absent = await chargeSaved(await intentOf(customerId), {
        saved_payment_method_id: methodId,
        off_session: true,
      });
      assert.equal(absent.status, 402, JSON.stringify(absent.body));
      const failed = absent.body.payment_intent as Json;
      assert.equal(failed.status, 'FAILED');
      assert.equal((failed.last_payment_error as Json).decline_code, 'authentication_required');
      const present = await chargeSaved(await intentOf(customerId), { saved_payment_method_id: methodId });
      assert.equal(present.status, 200, JSON.stringify(present.body));
      assert.equal(present.body.status, 'REQUIRES_ACTION');
    });

    it('every unusable saved method is a 400 naming its field, and nothing is charged', async () => {
      const customerId = await customerOf();
      const methodId = await savedMethodOf(customerId);
      const otherCustomer = await customerOf();
      const foreignMethod = await (async () => {
        const foreignCustomer = await customerOf(other.secretTest);
        const created = await post(
          '/v1/payment-intents',
          intentBody({ customer_id: foreignCustomer, setup_future_usage: 'off_session' }),
          other.secretTest,
        );
        const id = (created.json() as Json).id as string;
        const paid = await chargeSaved(id, { payment_method_token: 'tok_sim_approve' }, other.secretTest);
        assert.equal(paid.body.status, 'SUCCEEDED');
        const page = (await methodsOf(foreignCustomer, '', other.secretTest)).json() as {
          data: { id: string }[];
        };
        return page.data[0]?.id as string;
      })();
      const detached = await savedMethodOf(customerId);
      const detaching = await svc.request({
        method: 'POST',
        url: `/v1/saved-payment-methods/${detached}/detach`,
        key: merchant.secretTest,
      });
      assert.equal(detaching.statusCode, 200, detaching.body);
      const cases: {
        name: string;
        intent: () => Promise<string>;
        body: Json;
        field: string;
        says: RegExp;
        key?: string;
      }[] = [
        {
          name: 'an unknown method',
          intent: () => intentOf(customerId),
          body: { saved_payment_method_id: 'spm_000000000000000000000000' },
          field: 'saved_payment_method_id',
          says: /no saved payment method/,
        },
        {
          name: "another merchant's method",
          intent: () => intentOf(customerId),
          body: { saved_payment_method_id: foreignMethod },
          field: 'saved_payment_method_id',
          says: /no saved payment method/,
        },
        {
          name: 'a detached method',
          intent: () => intentOf(customerId),
          body: { saved_payment_method_id: detached },
          field: 'saved_payment_method_id',
          says: /detached/,
        },
        {
          name: "another customer's method",
          intent: () => intentOf(otherCustomer),
          body: { saved_payment_method_id: methodId },
          field: 'saved_payment_method_id',
          says: /another customer/,
        },
        {
          name: 'an intent without a customer',
          intent: () => intentOf(null),
          body: { saved_payment_method_id: methodId },
          field: 'saved_payment_method_id',
          says: /this intent has none/,
        },
        {
          name: 'a token and a saved method',
          intent: () => intentOf(customerId),
          body: { saved_payment_method_id: methodId, payment_method_token: 'tok_sim_approve' },
          field: 'saved_payment_method_id',
          says: /give one of them/,
        },
        {
          name: 'off_session without a saved method',
          intent: () => intentOf(customerId),
          body: { payment_method_token: 'tok_sim_approve', off_session: true },
          field: 'off_session',
          says: /needs saved_payment_method_id/,
        },
      ];
      for (const refusal of cases) {
        const intentId = await refusal.intent();
        const refused = await chargeSaved(intentId, refusal.body, refusal.key);
        assert.equal(refused.status, 400, `${refusal.name}: ${JSON.stringify(refusal.body)}`);
        const errors = refused.body.errors as { field: string; message: string }[];
        assert.ok(
          errors.some((error) => error.field === refusal.field && refusal.says.test(error.message)),
          `${refusal.name}: ${JSON.stringify(refused.body)}`,
        );
        assert.equal(await attemptsOf(intentId), 0, `${refusal.name}: nothing charged`);
      }
    });

    it("the payer's browser cannot charge a saved method", async () => {
      const customerId = await customerOf();
      const methodId = await savedMethodOf(customerId);
      const created = await post('/v1/payment-intents', intentBody({ customer_id: customerId }));
      const intent = created.json() as Json;
      const refused = await chargeSaved(
        intent.id as string,
        { saved_payment_method_id: methodId },
        merchant.publishableTest,
        { 'x-client-secret': intent.client_secret as string },
      );
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal((refused.body.errors as { field: string }[])[0]?.field, 'saved_payment_method_id');
      assert.equal(await attemptsOf(intent.id as string), 0);
    });
  });
}
