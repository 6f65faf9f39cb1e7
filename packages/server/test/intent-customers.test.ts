// Payment intents of a customer (issue 44, item 1; CONTRACT.md, second round): `customer_id` and
// `setup_future_usage` on create, shown on the resource; every bad reference is a 400 naming its
// field, with nothing stored. On both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

type Json = Record<string, unknown>;

for (const kind of databaseKinds()) {
  describe(`payment intents of a customer (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
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
        body: async () => intentBody({ customer_id: await customerOf(), setup_future_usage: 'off_session' }),
        says: /gateway 'sim' does not keep payment methods/,
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
  });
}
