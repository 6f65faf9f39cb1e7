// Merchants' own gateway accounts, on both databases: the operator API (add, list with cursor,
// retrieve, disable, enable, rotate), the field-named problems of each connector's checks, the
// credentials sealed at rest and never answered, tenant isolation, and payments, refunds and
// notifications that go through a merchant's account against the Stripe and Adyen fakes.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  ADYEN_TEST_TOKENS,
  type AdyenFake,
  STRIPE_TEST_PAYMENT_METHODS,
  type StripeFake,
  startAdyenFake,
  startStripeFake,
} from '@paygate/gateway-fakes';
import { waitFor } from '@paygate/testing';
import { ShiftedClock } from '../src/clock.ts';
import { databaseKinds } from './support/databases.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

const STRIPE = { secretKey: 'sk_test_accountsFake01', webhookSecret: 'whsec_accountsFake01' };
const ADYEN = {
  apiKey: 'adyen_accounts_api_key',
  merchantAccount: 'ShopECOM',
  hmacKeyHex: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

interface AccountJson {
  id: string;
  gateway_id: string;
  status: string;
  notification_url: string;
  credentials_hint: Record<string, string>;
  settings: Record<string, string>;
}

for (const kind of databaseKinds()) {
  describe(`gateway accounts per merchant (${kind})`, () => {
    let svc: TestService;
    let shop: MerchantKeys;
    let stranger: MerchantKeys;
    let stripe: StripeFake;
    let adyen: AdyenFake;
    let stripeAccount: AccountJson;
    let adyenAccount: AccountJson;

    const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      svc.request({ method, url, headers: { 'x-admin-token': ADMIN_TOKEN }, body });

    const stripeBody = (gatewayId: string, credentials: Record<string, string> = {}) => ({
      livemode: false,
      connector: 'stripe',
      gateway_id: gatewayId,
      credentials: { secret_key: STRIPE.secretKey, webhook_secret: STRIPE.webhookSecret, ...credentials },
      settings: { api_url: stripe.url },
    });

    async function addAccount(merchant: MerchantKeys, body: unknown): Promise<AccountJson> {
      const response = await admin('POST', `/admin/v1/merchants/${merchant.id}/gateway-accounts`, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json();
    }

    before(async () => {
      stripe = await startStripeFake({ ...STRIPE, webhookUrl: null });
      adyen = await startAdyenFake({ ...ADYEN, notificationUrl: null });
      svc = await startTestService(kind, { listen: true, clock: new ShiftedClock() });
      shop = await svc.createMerchant('Shop with its own accounts');
      stranger = await svc.createMerchant('Another shop');
      stripeAccount = await addAccount(shop, stripeBody('stripe'));
      adyenAccount = await addAccount(shop, {
        livemode: false,
        connector: 'adyen',
        gateway_id: 'adyen-eu',
        credentials: { api_key: ADYEN.apiKey, hmac_key: ADYEN.hmacKeyHex },
        settings: { merchant_account: ADYEN.merchantAccount, api_url: adyen.url },
      });
      // The fakes post their notifications to the address each account answers with.
      stripe.setNotificationUrl(`${svc.baseUrl}${new URL(stripeAccount.notification_url).pathname}`);
      adyen.setNotificationUrl(`${svc.baseUrl}${new URL(adyenAccount.notification_url).pathname}`);
    });
    after(async () => {
      await svc.close();
      await stripe.close();
      await adyen.close();
    });

    async function createIntent(merchant: MerchantKeys, gatewayId: string, amountMinor = 5_000) {
      return svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: { amount_minor: amountMinor, currency: 'EUR', gateway_id: gatewayId },
      });
    }

    async function intentOn(gatewayId: string, amountMinor = 5_000): Promise<string> {
      const created = await createIntent(shop, gatewayId, amountMinor);
      assert.equal(created.statusCode, 200, created.body);
      return created.json().id;
    }

    const confirm = (id: string, token: string) =>
      svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: shop.secretTest,
        body: { payment_method_token: token },
      });

    const statusOf = async (url: string) =>
      (await svc.request({ method: 'GET', url, key: shop.secretTest })).json().status as string;

    function assertFieldProblem(response: { statusCode: number; body: string }, field: string): void {
      assert.equal(response.statusCode, 400, response.body);
      const problem = JSON.parse(response.body);
      assert.equal(problem.code, 'validation_error');
      assert.deepEqual(
        problem.errors.map((e: { field: string }) => e.field),
        [field],
      );
    }

    it('answers with the credentials masked, and stores them only sealed', async () => {
      assert.deepEqual(stripeAccount.credentials_hint, { secret_key: '…ke01', webhook_secret: '…ke01' });
      assert.equal(stripeAccount.status, 'enabled');
      assert.match(stripeAccount.id, /^gwa_[0-9A-Za-z]{24}$/);
      assert.equal(
        stripeAccount.notification_url,
        `http://localhost:8080/gateway-notifications/${stripeAccount.id}`,
      );
      const retrieved = await admin(
        'GET',
        `/admin/v1/merchants/${shop.id}/gateway-accounts/${stripeAccount.id}`,
      );
      assert.equal(retrieved.statusCode, 200, retrieved.body);
      for (const secret of [STRIPE.secretKey, STRIPE.webhookSecret, ADYEN.apiKey, ADYEN.hmacKeyHex]) {
        assert.equal(retrieved.body.includes(secret), false);
      }
      const { rows } = await svc.ctx.db.query<Record<string, unknown>>(
        'SELECT * FROM gateway_accounts WHERE merchant_id = $1',
        [shop.id],
      );
      assert.equal(rows.length, 2);
      const stored = JSON.stringify(rows);
      for (const secret of [STRIPE.secretKey, STRIPE.webhookSecret, ADYEN.apiKey, ADYEN.hmacKeyHex]) {
        assert.equal(stored.includes(secret), false, 'no credential in clear in the table');
      }
      assert.match(String(rows[0]?.credentials_sealed), /^v1\./);
    });

    it("refuses each connector's wrong or missing fields, naming the field", async () => {
      const url = `/admin/v1/merchants/${shop.id}/gateway-accounts`;
      const cases: Array<[unknown, string]> = [
        [{ ...stripeBody('s1'), credentials: { webhook_secret: 'whsec_abc' } }, 'credentials.secret_key'],
        [stripeBody('s2', { secret_key: 'sk_live_wrongMode' }), 'credentials.secret_key'],
        [stripeBody('s3', { secret_key: 'pk_test_publishable' }), 'credentials.secret_key'],
        [stripeBody('s4', { extra: 'x' }), 'credentials.extra'],
        [{ ...stripeBody('s5'), settings: { api_url: 'ftp://example' } }, 'settings.api_url'],
        [{ ...stripeBody('s6'), connector: 'paypal' }, 'connector'],
        [stripeBody('stripe'), 'gateway_id'],
        [stripeBody('sim'), 'gateway_id'],
        [{ ...stripeBody('s7'), gateway_id: 'Has Spaces' }, 'gateway_id'],
        [
          {
            livemode: true,
            connector: 'adyen',
            gateway_id: 'adyen-live',
            credentials: { api_key: ADYEN.apiKey, hmac_key: ADYEN.hmacKeyHex },
            settings: { merchant_account: 'ShopECOM' },
          },
          'settings.api_url',
        ],
        [
          {
            livemode: false,
            connector: 'adyen',
            gateway_id: 'adyen-bad',
            credentials: { api_key: ADYEN.apiKey, hmac_key: 'not-hex' },
            settings: { merchant_account: 'ShopECOM' },
          },
          'credentials.hmac_key',
        ],
      ];
      for (const [body, field] of cases) {
        const response = await admin('POST', url, body);
        assertFieldProblem(response, field);
        assert.equal(response.body.includes('wrongMode'), false, 'a refused credential is not echoed');
      }
      const unknownMerchant = await admin(
        'POST',
        '/admin/v1/merchants/acct_000000000000000000000000/gateway-accounts',
        stripeBody('s8'),
      );
      assert.equal(unknownMerchant.statusCode, 404);
    });

    it('lists accounts newest first with cursor pagination', async () => {
      const merchant = await svc.createMerchant('Many accounts');
      const ids: string[] = [];
      for (const gatewayId of ['one', 'two', 'three'])
        ids.push((await addAccount(merchant, stripeBody(gatewayId))).id);
      const url = `/admin/v1/merchants/${merchant.id}/gateway-accounts`;
      const first = await admin('GET', `${url}?limit=2`);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().has_more, true);
      const second = await admin('GET', `${url}?limit=2&cursor=${first.json().next_cursor}`);
      const seen = [...first.json().data, ...second.json().data].map((a: AccountJson) => a.id);
      assert.deepEqual(seen, [...ids].reverse());
      assert.equal(second.json().has_more, false);
      assert.equal(second.json().next_cursor, null);
      assert.equal((await admin('GET', `${url}?cursor=nonsense`)).statusCode, 400);
    });

    it("keeps one merchant's accounts out of another's reach", async () => {
      const foreign = `/admin/v1/merchants/${stranger.id}/gateway-accounts/${stripeAccount.id}`;
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['POST', '/disable', undefined],
        ['POST', '/enable', undefined],
        [
          'POST',
          '/rotate-credentials',
          { credentials: { secret_key: 'sk_test_x', webhook_secret: 'whsec_x' } },
        ],
      ] as const) {
        const response = await admin(method, `${foreign}${suffix}`, body);
        assert.equal(response.statusCode, 404, `${method} ${suffix}: ${response.body}`);
        assert.equal(response.json().code, 'resource_not_found');
      }
      const listed = await admin('GET', `/admin/v1/merchants/${stranger.id}/gateway-accounts`);
      assert.deepEqual(listed.json().data, []);
      // The account still works for its owner, and its gateway_id means nothing to the stranger.
      assert.equal(
        (await admin('GET', `/admin/v1/merchants/${shop.id}/gateway-accounts/${stripeAccount.id}`)).json()
          .status,
        'enabled',
      );
      assertFieldProblem(await createIntent(stranger, 'adyen-eu'), 'gateway_id');
      // A test-mode account is not the owner's in live mode either.
      const live = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: shop.secretLive,
        headers: { 'idempotency-key': freshKey('pi') },
        body: { amount_minor: 5_000, currency: 'EUR', gateway_id: 'adyen-eu' },
      });
      assertFieldProblem(live, 'gateway_id');
      // The operator's account API needs the admin token.
      const anonymous = await svc.request({
        method: 'GET',
        url: `/admin/v1/merchants/${shop.id}/gateway-accounts`,
      });
      assert.equal(anonymous.statusCode, 401);
    });

    for (const gateway of [
      { gatewayId: 'stripe', tokens: STRIPE_TEST_PAYMENT_METHODS, fake: () => stripe },
      { gatewayId: 'adyen-eu', tokens: ADYEN_TEST_TOKENS, fake: () => adyen },
    ]) {
      it(`${gateway.gatewayId}: pays and refunds through the merchant's account, settled by the account's notifications`, async () => {
        const id = await intentOn(gateway.gatewayId, 10_000);
        const confirmed = await confirm(id, gateway.tokens.approve);
        assert.equal(confirmed.statusCode, 200, confirmed.body);
        assert.equal(confirmed.json().status, 'SUCCEEDED');
        const refund = await svc.request({
          method: 'POST',
          url: '/v1/refunds',
          key: shop.secretTest,
          headers: { 'idempotency-key': freshKey('re') },
          body: { payment_intent_id: id, amount_minor: 4_000 },
        });
        assert.equal(refund.statusCode, 200, refund.body);
        assert.equal(refund.json().status, 'PENDING');
        gateway.fake().settleRefunds();
        await gateway.fake().idle();
        await waitFor(
          'the refund settled by notification',
          async () => (await statusOf(`/v1/refunds/${refund.json().id}`)) === 'SUCCEEDED',
        );
        assert.ok(
          gateway.fake().delivered.every((d) => d.status === 200),
          JSON.stringify(gateway.fake().delivered),
        );
      });
    }

    it("refuses a notification to an account's address signed with another secret", async () => {
      const response = await svc.request({
        method: 'POST',
        url: `/gateway-notifications/${stripeAccount.id}`,
        headers: { 'stripe-signature': 't=1,v1=00' },
        body: { id: 'evt_x', type: 'payment_intent.succeeded', data: { object: {} } },
      });
      assert.equal(response.statusCode, 401, response.body);
      assert.equal(response.json().code, 'invalid_webhook_signature');
      const unknown = await svc.request({
        method: 'POST',
        url: '/gateway-notifications/gwa_000000000000000000000000',
        body: {},
      });
      assert.equal(unknown.statusCode, 404);
    });

    it("ignores an account's notification about another merchant's payment", async () => {
      const other = await svc.createMerchant('Shop on the same Stripe platform');
      const otherAccount = await addAccount(other, stripeBody('stripe'));
      const created = await createIntent(other, 'stripe');
      assert.equal(created.statusCode, 200, created.body);
      const id: string = created.json().id;
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: other.secretTest,
        body: { payment_method_token: STRIPE_TEST_PAYMENT_METHODS.challenge },
      });
      assert.equal(confirmed.json().status, 'REQUIRES_ACTION', confirmed.body);
      const otherStatus = async () =>
        (await svc.request({ method: 'GET', url: `/v1/payment-intents/${id}`, key: other.secretTest })).json()
          .status;
      // A well-signed event whose payment is the other merchant's.
      const signedEvent = (eventId: string) => {
        const payload = JSON.stringify({
          id: eventId,
          object: 'event',
          livemode: false,
          type: 'payment_intent.succeeded',
          data: {
            object: {
              id: 'pi_fakeStripeIntent',
              object: 'payment_intent',
              status: 'succeeded',
              metadata: { paygate_idempotency_key: `${id}:attempt:1` },
            },
          },
        });
        const t = Math.floor(svc.clock.now().getTime() / 1000);
        const v1 = createHmac('sha256', STRIPE.webhookSecret).update(`${t}.${payload}`).digest('hex');
        return {
          payload,
          headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` },
        };
      };
      const post = (accountId: string, event: ReturnType<typeof signedEvent>) =>
        svc.app.inject({
          method: 'POST',
          url: `/gateway-notifications/${accountId}`,
          headers: event.headers,
          payload: event.payload,
        });
      const toShop = await post(stripeAccount.id, signedEvent('evt_sentToTheWrongAccount'));
      assert.equal(toShop.statusCode, 200, toShop.body);
      assert.equal(await otherStatus(), 'REQUIRES_ACTION', "the shop's account cannot move it");
      const toOwner = await post(otherAccount.id, signedEvent('evt_sentToTheOwnerAccount'));
      assert.equal(toOwner.statusCode, 200, toOwner.body);
      assert.equal(await otherStatus(), 'SUCCEEDED', "its own account's event does");
    });

    it('uses rotated credentials from the next call on', async () => {
      const url = `/admin/v1/merchants/${shop.id}/gateway-accounts/${stripeAccount.id}/rotate-credentials`;
      const wrong = await admin('POST', url, {
        credentials: { secret_key: 'sk_test_revokedKey0001', webhook_secret: STRIPE.webhookSecret },
      });
      assert.equal(wrong.statusCode, 200, wrong.body);
      assert.equal(wrong.json().credentials_hint.secret_key, '…0001');
      const refused = await confirm(await intentOn('stripe'), STRIPE_TEST_PAYMENT_METHODS.approve);
      assert.equal(refused.statusCode, 503, 'the fake refuses the rotated-in key: it was used');
      assertFieldProblem(
        await admin('POST', url, { credentials: { secret_key: 'sk_test_only' } }),
        'credentials.webhook_secret',
      );
      const restored = await admin('POST', url, {
        credentials: { secret_key: STRIPE.secretKey, webhook_secret: STRIPE.webhookSecret },
      });
      assert.equal(restored.statusCode, 200, restored.body);
      const paid = await confirm(await intentOn('stripe'), STRIPE_TEST_PAYMENT_METHODS.approve);
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal(paid.json().status, 'SUCCEEDED');
    });

    it('a disabled account takes no new payment, naming gateway_id, and still refunds earlier ones', async () => {
      const earlier = await intentOn('adyen-eu', 6_000);
      assert.equal((await confirm(earlier, ADYEN_TEST_TOKENS.approve)).json().status, 'SUCCEEDED');
      const waiting = await intentOn('adyen-eu');
      const base = `/admin/v1/merchants/${shop.id}/gateway-accounts/${adyenAccount.id}`;
      const disabled = await admin('POST', `${base}/disable`);
      assert.equal(disabled.json().status, 'disabled');

      assertFieldProblem(await createIntent(shop, 'adyen-eu'), 'gateway_id');
      assertFieldProblem(await confirm(waiting, ADYEN_TEST_TOKENS.approve), 'gateway_id');
      assert.equal(await statusOf(`/v1/payment-intents/${waiting}`), 'CREATED');
      const refund = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: shop.secretTest,
        headers: { 'idempotency-key': freshKey('re') },
        body: { payment_intent_id: earlier },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      assert.equal(refund.json().status, 'PENDING');

      assert.equal((await admin('POST', `${base}/enable`)).json().status, 'enabled');
      const confirmed = await confirm(waiting, ADYEN_TEST_TOKENS.approve);
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(confirmed.json().status, 'SUCCEEDED');
    });

    it('keeps the simulated gateway for every merchant in test mode without an account', async () => {
      const created = await createIntent(stranger, 'sim');
      assert.equal(created.statusCode, 200, created.body);
      assertFieldProblem(await createIntent(stranger, 'stripe'), 'gateway_id');
    });
  });
}
