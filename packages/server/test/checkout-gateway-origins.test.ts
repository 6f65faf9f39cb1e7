// The checkout frame's CSP per merchant: it opens the card component origins of the gateways the
// frame's merchant can pay with in that mode (the process's gateways and the merchant's enabled
// accounts), never another merchant's accounts nor a disabled account; and the component keys an
// account gives (Stripe publishable key, Adyen client key) are checked with the field named.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const SHOP = 'http://shop.localhost:3000';
const A_STRIPE = 'http://stripe-js.a.localhost:4101';
const A_DISABLED = 'http://old-js.a.localhost:4102';
const B_ADYEN = 'http://adyen-web.b.localhost:4201';

const stripeAccount = (gatewayId: string, settings: Record<string, string>) => ({
  livemode: false,
  connector: 'stripe',
  gateway_id: gatewayId,
  credentials: { secret_key: 'sk_test_originsA1', webhook_secret: 'whsec_originsA1' },
  settings: { api_url: 'http://127.0.0.1:9', ...settings },
});
const adyenAccount = (gatewayId: string, settings: Record<string, string>) => ({
  livemode: false,
  connector: 'adyen',
  gateway_id: gatewayId,
  credentials: {
    api_key: 'adyen_origins_key',
    hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  },
  settings: { merchant_account: 'OriginsECOM', api_url: 'http://127.0.0.1:9', ...settings },
});

const directives = (csp: string) =>
  new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const));

for (const kind of databaseKinds()) {
  describe(`the checkout frame's gateway origins per merchant (${kind})`, () => {
    let svc: TestService;
    let merchantA: MerchantKeys;
    let merchantB: MerchantKeys;

    const admin = (url: string, body?: unknown) =>
      svc.request({ method: 'POST', url, headers: { 'x-admin-token': ADMIN_TOKEN }, body });
    const addAccount = async (merchant: MerchantKeys, body: unknown) => {
      const response = await admin(`/admin/v1/merchants/${merchant.id}/gateway-accounts`, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json() as { id: string };
    };
    const frameCsp = async (pk: string) => {
      const response = await svc.request({
        method: 'GET',
        url: `/checkout/v1/frame?${new URLSearchParams({ pk, origin: SHOP })}`,
      });
      assert.equal(response.statusCode, 200);
      return directives(String(response.headers['content-security-policy']));
    };

    before(async () => {
      svc = await startTestService(kind);
      merchantA = await svc.createMerchant('Shop A');
      merchantB = await svc.createMerchant('Shop B');
      for (const merchant of [merchantA, merchantB]) {
        assert.equal(
          (await admin(`/admin/v1/merchants/${merchant.id}/embed-domains`, { origin: SHOP })).statusCode,
          201,
        );
      }
      await addAccount(
        merchantA,
        stripeAccount('stripe-a', { hosted_fields_url: `${A_STRIPE}/v3/`, publishable_key: 'pk_test_shopA' }),
      );
      const old = await addAccount(
        merchantA,
        stripeAccount('stripe-old', {
          hosted_fields_url: `${A_DISABLED}/v3/`,
          publishable_key: 'pk_test_old',
        }),
      );
      const disabled = await admin(`/admin/v1/merchants/${merchantA.id}/gateway-accounts/${old.id}/disable`);
      assert.equal(disabled.json().status, 'disabled');
      await addAccount(
        merchantB,
        adyenAccount('adyen-b', { hosted_fields_url: `${B_ADYEN}/adyen.js`, client_key: 'test_shopB' }),
      );
    });
    after(() => svc.close());

    it("opens merchant A's own account origin in A's frame, and not B's nor A's disabled account's", async () => {
      const csp = await frameCsp(merchantA.publishableTest);
      const sim = new URL(svc.sim.url).origin;
      assert.deepEqual(csp.get('script-src'), ["'self'", A_STRIPE]);
      assert.deepEqual(csp.get('connect-src'), ["'self'", A_STRIPE]);
      assert.deepEqual(csp.get('frame-src'), [sim, A_STRIPE]);
      const all = [...csp.values()].flat();
      assert.equal(all.includes(B_ADYEN), false, "merchant B's account never widens A's frame");
      assert.equal(all.includes(A_DISABLED), false, 'a disabled account opens nothing');
    });

    it("opens B's account origin in B's frame only", async () => {
      const csp = await frameCsp(merchantB.publishableTest);
      assert.deepEqual(csp.get('script-src'), ["'self'", B_ADYEN]);
      assert.equal([...csp.values()].flat().includes(A_STRIPE), false);
    });

    it('opens no account origin in the live-mode frame of a merchant whose accounts are test-mode', async () => {
      const csp = await frameCsp(merchantA.publishableLive);
      assert.deepEqual(csp.get('script-src'), ["'self'"]);
      assert.equal(csp.get('frame-src')?.includes(A_STRIPE), false);
    });

    it('opens no gateway origin for a key that takes no payment', async () => {
      const response = await svc.request({
        method: 'GET',
        url: `/checkout/v1/frame?${new URLSearchParams({ pk: 'pk_test_unknown000000000000000000', origin: SHOP })}`,
      });
      const csp = directives(String(response.headers['content-security-policy']));
      assert.deepEqual(csp.get('script-src'), ["'self'"]);
      assert.deepEqual(csp.get('frame-src'), ["'none'"]);
    });

    it('refuses a component key of the wrong kind or mode, naming the setting', async () => {
      const cases: Array<[unknown, string]> = [
        [stripeAccount('stripe-x', { publishable_key: 'pk_live_shopA' }), 'settings.publishable_key'],
        [stripeAccount('stripe-x', { publishable_key: 'sk_test_shopA' }), 'settings.publishable_key'],
        [adyenAccount('adyen-x', { client_key: 'live_shopB' }), 'settings.client_key'],
        [adyenAccount('adyen-x', { client_key: 'test shop' }), 'settings.client_key'],
      ];
      for (const [body, field] of cases) {
        const response = await admin(`/admin/v1/merchants/${merchantA.id}/gateway-accounts`, body);
        assert.equal(response.statusCode, 400, response.body);
        assert.deepEqual(
          response.json().errors.map((e: { field: string }) => e.field),
          [field],
        );
      }
    });
  });
}
