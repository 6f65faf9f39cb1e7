import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const SHOP = 'http://shop.localhost:3000';

function configOf(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="paygate-frame-config">(.*?)<\/script>/s.exec(html);
  assert.ok(match?.[1], 'the frame page carries its config');
  return JSON.parse(match[1]);
}

for (const kind of databaseKinds()) {
  describe(`embed domains and the checkout frame (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Framed shop');
      other = await svc.createMerchant('Other shop');
    });
    after(() => svc.close());

    const register = (merchantId: string, origin: unknown, token = ADMIN_TOKEN) =>
      svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchantId}/embed-domains`,
        headers: { 'x-admin-token': token },
        body: { origin },
      });
    const frame = (query: Record<string, string>) =>
      svc.request({ method: 'GET', url: `/checkout/v1/frame?${new URLSearchParams(query)}` });

    it('registers an origin once: 201 the first time, 200 after, and lists it', async () => {
      const first = await register(merchant.id, SHOP);
      assert.equal(first.statusCode, 201);
      const { created_at, ...rest } = first.json() as Record<string, unknown>;
      assert.deepEqual(rest, { object: 'embed_domain', merchant_id: merchant.id, origin: SHOP });
      assert.match(String(created_at), /^\d{4}-\d\d-\d\dT/);
      const again = await register(merchant.id, 'http://Shop.LOCALHOST:3000');
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().origin, SHOP);
      const list = await svc.request({
        method: 'GET',
        url: `/admin/v1/merchants/${merchant.id}/embed-domains`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
      });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(
        list.json().data.map((row: { origin: string }) => row.origin),
        [SHOP],
      );
    });

    it('refuses what is not exactly an http(s) origin, naming the field', async () => {
      for (const bad of [
        'https://shop.example/checkout',
        'https://shop.example:443',
        'ftp://shop.example',
        'shop.example',
        'https://shop.example?x=1',
      ]) {
        const response = await register(merchant.id, bad);
        assert.equal(response.statusCode, 400, bad);
        assert.equal(response.json().code, 'validation_error');
        assert.equal(response.json().errors[0].field, 'origin');
      }
    });

    it('answers 404 for an unknown merchant and 401 without the operator token', async () => {
      const unknown = await register('acct_000000000000000000000000', SHOP);
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'resource_not_found');
      const anonymous = await register(merchant.id, SHOP, 'wrong-token-wrong-token');
      assert.equal(anonymous.statusCode, 401);
    });

    it('serves the frame framed only by the registered origins, with its secret-free config', async () => {
      await register(merchant.id, 'https://shop.example');
      const response = await frame({ pk: merchant.publishableTest, origin: SHOP, locale: 'es-MX' });
      assert.equal(response.statusCode, 200);
      const csp = String(response.headers['content-security-policy']);
      assert.match(csp, new RegExp(`frame-ancestors ${SHOP} https://shop\\.example(;|$)`));
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /connect-src 'self'(;|$)/);
      assert.match(csp, new RegExp(`frame-src ${new URL(svc.sim.url).origin}(;|$)`));
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.deepEqual(configOf(response.body), {
        mode: 'checkout',
        parentOrigin: SHOP,
        publishableKey: merchant.publishableTest,
        locale: 'es-MX',
      });
      assert.match(response.body, /<html lang="es">/);
      assert.match(response.body, /<script src="frame\.js" defer><\/script>/);
    });

    it('tells an unregistered page that it is denied, and lets only that page frame the notice', async () => {
      const response = await frame({ pk: other.publishableTest, origin: SHOP });
      assert.equal(response.statusCode, 200);
      assert.match(
        String(response.headers['content-security-policy']),
        new RegExp(`frame-ancestors ${SHOP}(;|$)`),
      );
      assert.equal(configOf(response.body).mode, 'denied');
    });

    it('marks an unknown, revoked-shaped or secret key as an invalid session', async () => {
      for (const pk of [merchant.secretTest, 'pk_test_unknownunknownunknownunknownunknown', 'nonsense']) {
        const response = await frame({ pk, origin: SHOP });
        assert.equal(response.statusCode, 200);
        assert.equal(configOf(response.body).mode, 'invalid_key', pk.slice(0, 8));
      }
    });

    it('keeps an origin stored before the exact-host rule, such as a wildcard, out of frame-ancestors', async () => {
      const shop = await svc.createMerchant('legacy origins');
      await svc.ctx.db.query(
        `INSERT INTO embed_domains (merchant_id, origin, created_at) VALUES ($1, $2, now()), ($1, $3, now())`,
        [shop.id, 'https://*', SHOP],
      );
      const response = await frame({ pk: shop.publishableTest, origin: SHOP });
      assert.equal(response.statusCode, 200);
      const csp = String(response.headers['content-security-policy']);
      assert.match(csp, new RegExp(`frame-ancestors ${SHOP}(;|$)`));
      assert.equal(csp.includes('*'), false);
    });

    it('refuses a page without an exact origin and never lets it be framed', async () => {
      for (const origin of [
        'https://shop.example/',
        'javascript:alert(1)',
        '',
        'https://*',
        'https://*.example',
        "https://a'b.example",
      ]) {
        const response = await frame({ pk: merchant.publishableTest, origin });
        assert.equal(response.statusCode, 400, origin);
        assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'/);
      }
    });

    it('cannot be made to run markup through the config block', async () => {
      const response = await frame({ pk: 'pk_test_</script><script>alert(1)</script>', origin: SHOP });
      assert.equal(response.statusCode, 200);
      assert.doesNotMatch(response.body, /<script>alert/);
      assert.equal(configOf(response.body).publishableKey, 'pk_test_</script><script>alert(1)</script>');
    });

    it('serves the versioned component script, its module and the frame script with validators', async () => {
      const script = await svc.request({ method: 'GET', url: '/checkout/v1/checkout.js' });
      assert.equal(script.statusCode, 200);
      assert.match(String(script.headers['content-type']), /^text\/javascript/);
      assert.equal(script.headers['access-control-allow-origin'], '*');
      assert.match(script.body, /Paygate/);
      const etag = String(script.headers.etag);
      const revalidated = await svc.request({
        method: 'GET',
        url: '/checkout/v1/checkout.js',
        headers: { 'if-none-match': etag },
      });
      assert.equal(revalidated.statusCode, 304);
      const module = await svc.request({ method: 'GET', url: '/checkout/v1/checkout.mjs' });
      assert.equal(module.statusCode, 200);
      assert.match(module.body, /export\s*\{/);
      const frameScript = await svc.request({ method: 'GET', url: '/checkout/v1/frame.js' });
      assert.equal(frameScript.statusCode, 200);
      assert.match(frameScript.body, /paygate-checkout/);
      assert.equal(frameScript.headers['access-control-allow-origin'], undefined);
    });
  });
}
