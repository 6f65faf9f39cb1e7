import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../src/domain/api-keys.ts';
import { databaseKinds } from './support/databases.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

const order = { amount_minor: 2500, currency: 'USD', gateway_id: 'sim' };

for (const kind of databaseKinds()) {
  describe(`authentication and errors (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant();
    });
    after(() => svc.close());

    const createWith = (headers: Record<string, string>, body: unknown = order) =>
      svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        headers: { 'idempotency-key': freshKey(), ...headers },
        body,
      });

    it('refuses Authorization: Bearer with 401 invalid_api_key naming the X-API-Key header', async () => {
      const response = await createWith({ authorization: `Bearer ${merchant.secretTest}` });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().code, 'invalid_api_key');
      assert.match(response.json().detail, /X-API-Key/);
    });

    it('refuses a missing, malformed or unknown key with 401 invalid_api_key', async () => {
      for (const headers of [
        {},
        { 'x-api-key': 'nonsense' },
        { 'x-api-key': `sk_test_${'A'.repeat(40)}` },
      ] as Record<string, string>[]) {
        const response = await createWith(headers);
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().code, 'invalid_api_key');
      }
    });

    it('stores API keys only as SHA-256 hashes', async () => {
      const { rows } = await svc.ctx.db.query<{ key_hash: string; key_hint: string }>(
        'SELECT key_hash, key_hint FROM api_keys WHERE merchant_id = $1',
        [merchant.id],
      );
      assert.equal(rows.length, 4);
      const hashes = rows.map((r) => r.key_hash).sort();
      const expected = [
        merchant.secretTest,
        merchant.publishableTest,
        merchant.secretLive,
        merchant.publishableLive,
      ]
        .map(hashApiKey)
        .sort();
      assert.deepEqual(hashes, expected);
      const stored = JSON.stringify(rows);
      assert.ok(!stored.includes(merchant.secretTest));
    });

    it('enforces key permissions with 403 insufficient_permissions', async () => {
      const response = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/api-keys`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { livemode: false, kind: 'secret', permissions: ['payment_intents:read'] },
      });
      assert.equal(response.statusCode, 201);
      const readOnly = response.json();
      assert.match(readOnly.key, /^sk_test_[0-9A-Za-z]{40}$/);
      assert.deepEqual(readOnly.permissions, ['payment_intents:read']);
      const write = await createWith({ 'x-api-key': readOnly.key });
      assert.equal(write.statusCode, 403);
      assert.equal(write.json().code, 'insufficient_permissions');
      const created = (await createWith({ 'x-api-key': merchant.secretTest })).json();
      const read = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${created.id}`,
        key: readOnly.key,
      });
      assert.equal(read.statusCode, 200);
    });

    it('refuses the operator API without the right X-Admin-Token', async () => {
      for (const headers of [{}, { 'x-admin-token': 'wrong-token-wrong-token' }] as Record<
        string,
        string
      >[]) {
        const response = await svc.request({
          method: 'POST',
          url: '/admin/v1/merchants',
          headers,
          body: { name: 'x' },
        });
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().code, 'invalid_admin_token');
      }
      const unknownMerchant = await svc.request({
        method: 'POST',
        url: '/admin/v1/merchants/acct_000000000000000000000000/api-keys',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { livemode: false, kind: 'secret' },
      });
      assert.equal(unknownMerchant.statusCode, 404);
    });

    it('answers every error as application/problem+json with code, status, request_id and X-Request-Id', async () => {
      const response = await createWith(
        { 'x-api-key': merchant.secretTest },
        { ...order, amount_minor: 'lots' },
      );
      assert.equal(response.statusCode, 400);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      const problem = response.json();
      assert.equal(problem.type, 'urn:paygate:problem:validation_error');
      assert.equal(problem.title, 'Validation error');
      assert.equal(problem.status, 400);
      assert.equal(problem.code, 'validation_error');
      assert.equal(typeof problem.detail, 'string');
      assert.match(problem.request_id, /^req_[0-9A-Za-z]{24}$/);
      assert.equal(response.headers['x-request-id'], problem.request_id);
    });

    it('puts X-Request-Id on successes, unknown routes and health checks too', async () => {
      for (const url of ['/healthz', '/readyz', '/v1/nowhere']) {
        const response = await svc.request({ method: 'GET', url });
        assert.match(String(response.headers['x-request-id']), /^req_/);
      }
      const missing = await svc.request({ method: 'GET', url: '/v1/nowhere' });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().code, 'resource_not_found');
    });

    it('answers a malformed JSON body with 400 validation_error that does not quote the body', async () => {
      const response = await createWith(
        { 'x-api-key': merchant.secretTest },
        '{"amount_minor": 12, secret-stuff',
      );
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'validation_error');
      assert.ok(!response.body.includes('secret-stuff'));
    });

    it('answers a body over 64 KiB with 413 as a problem document', async () => {
      const big = { ...order, metadata: { a: 'x'.repeat(70 * 1024) } };
      const response = await createWith({ 'x-api-key': merchant.secretTest }, big);
      assert.equal(response.statusCode, 413);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.equal(response.json().code, 'payload_too_large');
    });

    it('refuses unknown query parameters', async () => {
      const created = (await createWith({ 'x-api-key': merchant.secretTest })).json();
      const response = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${created.id}?expand=everything`,
        key: merchant.secretTest,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().errors[0].field, 'expand');
    });

    it('refuses a card number anywhere in the body, naming the field and never storing it', async () => {
      const pans = ['4242424242424242', '4242 4242 4242 4242', '5555-5555-5555-4444', '378282246310005'];
      for (const pan of pans) {
        const response = await createWith(
          { 'x-api-key': merchant.secretTest },
          { ...order, metadata: { note: `card ${pan}` } },
        );
        assert.equal(response.statusCode, 400, pan);
        assert.equal(response.json().errors[0].field, 'metadata.note');
        assert.ok(!response.body.includes(pan.replace(/\D/g, '').slice(0, 12)));
      }
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM payment_intents WHERE metadata::text LIKE '%4242%'",
      );
      assert.equal(rows[0]?.n, 0);
      // A number that fails the Luhn check is not card data.
      const notACard = await createWith(
        { 'x-api-key': merchant.secretTest },
        { ...order, metadata: { ref: '4242424242424241' } },
      );
      assert.equal(notACard.statusCode, 200);
    });

    it('refuses a card number in any spelling, in return_url, metadata and Idempotency-Key, storing none', async () => {
      const shop = await svc.createMerchant('card guard');
      const fullWidth = [...'4242424242424242'].map((d) => String.fromCharCode(0xff10 + Number(d))).join('');
      const spellings = [
        '4242%204242%204242%204242',
        '4242+4242+4242+4242',
        [...'4242424242424242'].map((d) => `%3${d}`).join(''),
        '4242  4242  4242  4242',
        '4242\u00a04242\u00a04242\u00a04242',
        '4242\t4242\t4242\t4242',
        '4242\n4242\n4242\n4242',
        '4242 - 4242 - 4242 - 4242',
        fullWidth,
      ];
      for (const pan of spellings) {
        const inUrl = await createWith(
          { 'x-api-key': shop.secretTest },
          { ...order, return_url: `https://shop.example/back?c=${encodeURI(pan).replaceAll('%25', '%')}` },
        );
        assert.equal(inUrl.statusCode, 400, JSON.stringify(pan));
        assert.equal(inUrl.json().errors[0].field, 'return_url');
        const inMetadata = await createWith(
          { 'x-api-key': shop.secretTest },
          { ...order, metadata: { note: pan } },
        );
        assert.equal(inMetadata.statusCode, 400, JSON.stringify(pan));
        assert.equal(inMetadata.json().errors[0].field, 'metadata.note');
      }
      for (const key of ['4242424242424242', '4242-4242-4242-4242', 'order 4242 4242 4242 4242', fullWidth]) {
        const response = await createWith({
          'x-api-key': shop.secretTest,
          'idempotency-key': encodeURI(key),
        });
        assert.equal(response.statusCode, 400, key);
        assert.equal(response.json().errors[0].field, 'Idempotency-Key');
      }
      const stored = await svc.ctx.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM idempotency_keys WHERE merchant_id = $1)
              + (SELECT count(*) FROM payment_intents WHERE merchant_id = $1)::int AS n`,
        [shop.id],
      );
      assert.equal(Number(stored.rows[0]?.n), 0);
    });
  });
}
