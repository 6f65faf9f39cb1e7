import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const order = { amount_minor: 2500, currency: 'USD', gateway_id: 'sim' };
/** Strings that no text or jsonb column can hold. */
const UNSTORABLE = { nul: 'a\u0000b', 'lone high surrogate': 'a\ud800b', 'lone low surrogate': '\udc00' };

for (const kind of databaseKinds()) {
  describe(`hostile input (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let succeededIntentId: string;
    let createdIntentId: string;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant();
      const create = async () =>
        (
          await svc.request({
            method: 'POST',
            url: '/v1/payment-intents',
            key: merchant.secretTest,
            headers: { 'idempotency-key': randomBytes(8).toString('hex') },
            body: order,
          })
        ).json().id as string;
      succeededIntentId = await create();
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${succeededIntentId}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: 'tok_sim_approve' },
      });
      assert.equal(confirmed.json().status, 'SUCCEEDED');
      createdIntentId = await create();
    });
    after(() => svc.close());

    /** Every request a hostile string can reach a stored field through; `field` is the named one. */
    const carriers = (value: string) => [
      {
        url: '/v1/payment-intents',
        body: { ...order, metadata: { note: value } },
        field: 'metadata.note',
        idem: true,
      },
      {
        url: '/v1/payment-intents',
        body: { ...order, return_url: `https://shop.example/${value}` },
        field: 'return_url',
        idem: true,
      },
      { url: '/v1/payment-intents', body: { ...order, currency: value }, field: 'currency', idem: true },
      { url: '/v1/payment-intents', body: { ...order, gateway_id: value }, field: 'gateway_id', idem: true },
      {
        url: '/v1/refunds',
        body: { payment_intent_id: succeededIntentId, amount_minor: 1, metadata: { r: value } },
        field: 'metadata.r',
        idem: true,
      },
      { url: '/v1/refunds', body: { payment_intent_id: value }, field: 'payment_intent_id', idem: true },
      {
        url: () => `/v1/payment-intents/${createdIntentId}/confirm`,
        body: { payment_method_token: value },
        field: 'payment_method_token',
      },
      { url: '/admin/v1/merchants', body: { name: value }, field: 'name', admin: true },
      {
        url: () => `/admin/v1/merchants/${merchant.id}/embed-domains`,
        body: { origin: `https://${value}.example` },
        field: 'origin',
        admin: true,
      },
      {
        url: () => `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        body: { url: `https://shop.example/${value}`, livemode: false },
        field: 'url',
        admin: true,
      },
    ];

    for (const [name, value] of Object.entries(UNSTORABLE)) {
      it(`refuses a ${name} in every stored string field with 400 naming it`, async () => {
        for (const carrier of carriers(value)) {
          const url = typeof carrier.url === 'function' ? carrier.url() : carrier.url;
          const response = await svc.request({
            method: 'POST',
            url,
            ...(carrier.admin ? { headers: { 'x-admin-token': ADMIN_TOKEN } } : { key: merchant.secretTest }),
            ...(carrier.idem ? { headers: { 'idempotency-key': randomBytes(8).toString('hex') } } : {}),
            body: carrier.body,
          });
          assert.equal(response.statusCode, 400, `${url} ${carrier.field}: ${response.body}`);
          assert.equal(response.json().code, 'validation_error');
          assert.equal(response.json().errors[0].field, carrier.field, url);
        }
        // A metadata key is a field too.
        const inKey = await svc.request({
          method: 'POST',
          url: '/v1/payment-intents',
          key: merchant.secretTest,
          headers: { 'idempotency-key': randomBytes(8).toString('hex') },
          body: { ...order, metadata: { [value]: 'x' } },
        });
        assert.equal(inKey.statusCode, 400, inKey.body);
        assert.match(inKey.json().errors[0].field, /^metadata\./);
      });
    }

    it('answers %00 and lone-surrogate escapes in every path id without a 5xx', async () => {
      const paths = [
        (id: string) => ['GET', `/v1/payment-intents/${id}`],
        (id: string) => ['POST', `/v1/payment-intents/${id}/confirm`],
        (id: string) => ['POST', `/v1/payment-intents/${id}/cancel`],
        (id: string) => ['GET', `/v1/refunds/${id}`],
        (id: string) => ['GET', `/admin/v1/merchants/${id}/embed-domains`],
        (id: string) => ['GET', `/admin/v1/webhook-endpoints/${id}`],
        (id: string) => ['GET', `/admin/v1/webhook-endpoints/${id}/deliveries`],
        (id: string) => ['POST', `/admin/v1/webhook-deliveries/${id}/retry`],
      ] as const;
      for (const id of ['%00', 'pi_%00', 'a%00b', '%ED%A0%80', '%C0%80', '%FF']) {
        for (const path of paths) {
          const [method, url] = path(id);
          const response = await svc.app.inject({
            method,
            url,
            headers: { 'x-api-key': merchant.secretTest, 'x-admin-token': ADMIN_TOKEN },
          });
          assert.ok(
            response.statusCode >= 400 && response.statusCode < 500,
            `${method} ${url}: ${response.statusCode}`,
          );
          assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
        }
      }
    });

    it('refuses JSON nested 10,000 levels deep with 400 naming body', async () => {
      for (const deep of [
        '['.repeat(10_000) + ']'.repeat(10_000),
        `{"metadata":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_001)}`,
      ]) {
        const response = await svc.request({
          method: 'POST',
          url: '/v1/payment-intents',
          key: merchant.secretTest,
          headers: { 'idempotency-key': randomBytes(8).toString('hex') },
          body: deep,
        });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().errors[0].field, 'body');
      }
    });

    it('refuses a body that is not valid UTF-8, and stores nothing of it', async () => {
      const shop = await svc.createMerchant('utf-8');
      const json = Buffer.from(JSON.stringify({ ...order, metadata: { note: 'MARK' } }));
      const at = json.indexOf('MARK');
      for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xe2, 0x82]]) {
        const payload = Buffer.concat([json.subarray(0, at), Buffer.from(bad), json.subarray(at)]);
        const response = await svc.app.inject({
          method: 'POST',
          url: '/v1/payment-intents',
          headers: {
            'x-api-key': shop.secretTest,
            'content-type': 'application/json',
            'idempotency-key': randomBytes(8).toString('hex'),
          },
          payload,
        });
        assert.equal(response.statusCode, 400, String(bad));
        assert.equal(response.json().errors[0].field, 'body');
      }
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM payment_intents WHERE merchant_id = $1',
        [shop.id],
      );
      assert.equal(rows[0]?.n, 0);
    });

    it('refuses a declared charset other than UTF-8, and takes utf-8 or none', async () => {
      const send = (contentType: string) =>
        svc.app.inject({
          method: 'POST',
          url: '/v1/payment-intents',
          headers: {
            'x-api-key': merchant.secretTest,
            'content-type': contentType,
            'idempotency-key': randomBytes(8).toString('hex'),
          },
          payload: JSON.stringify(order),
        });
      for (const contentType of [
        'application/json; charset=latin1',
        'application/json;charset=ISO-8859-1',
        'application/json; charset="utf-16"',
        'application/json; charset=',
      ]) {
        const response = await send(contentType);
        assert.equal(response.statusCode, 400, contentType);
        assert.equal(response.json().errors[0].field, 'Content-Type');
      }
      for (const contentType of [
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset="UTF-8"',
      ]) {
        assert.equal((await send(contentType)).statusCode, 200, contentType);
      }
    });
  });
}
