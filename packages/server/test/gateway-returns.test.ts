// The payer's return from a gateway's 3-D Secure page (`GET /gateway-returns/<return id>`), on
// both databases, against the Stripe and Adyen fakes with their notifications switched off: the
// outcome comes from the connector's completion step alone (Adyen `/payments/details`, Stripe
// reading the PaymentIntent back), the payer is sent on to the intent's return_url, a reload
// changes nothing, and a forged or altered return changes nothing either.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADYEN_TEST_TOKENS,
  type AdyenFake,
  STRIPE_TEST_PAYMENT_METHODS,
  type StripeFake,
} from '@paygate/gateway-fakes';
import { answerChallengePageAt } from '../src/gateways/challenge-client.ts';
import { databaseKinds } from './support/databases.ts';
import { type ServiceOnFakeGateways, startServiceOnFakeGateways } from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';

const SHOP_RETURN = 'http://shop.test/orders/7/done?step=paid';

for (const kind of databaseKinds()) {
  describe(`the payer's return from a gateway (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let stripe: StripeFake;
    let adyen: AdyenFake;
    let running: ServiceOnFakeGateways;

    before(async () => {
      // No notifications: whatever settles an intent here is the return route's completion.
      running = await startServiceOnFakeGateways(kind, {
        notifications: false,
        hostedFields: false,
        defaultReturnUrl: 'http://paygate.test/unused',
      });
      ({ svc, stripe, adyen } = running);
      merchant = await svc.createMerchant('Shop with 3-D Secure');
    });
    after(() => running?.close());

    async function challenged(gatewayId: string, token: string, returnUrl: string | null = SHOP_RETURN) {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: {
          amount_minor: 4_200,
          currency: 'EUR',
          gateway_id: gatewayId,
          ...(returnUrl ? { return_url: returnUrl } : {}),
        },
      });
      assert.equal(created.statusCode, 200, created.body);
      const id: string = created.json().id;
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: token },
      });
      assert.equal(confirmed.json().status, 'REQUIRES_ACTION', confirmed.body);
      return { id, redirectUrl: confirmed.json().redirect_url as string };
    }

    /** The payer answers the gateway's page; the gateway sends them to Paygate's return route. */
    async function answer(redirectUrl: string, decision: 'approve' | 'decline'): Promise<URL> {
      const back = await answerChallengePageAt(redirectUrl, decision);
      assert.ok(back, 'the gateway sent the payer back');
      const url = new URL(back);
      assert.equal(url.origin, 'http://localhost:8080', 'to the service public address');
      assert.match(url.pathname, /^\/gateway-returns\/pi_[0-9A-Za-z]{24}\.1\.[0-9A-Za-z]{22}$/);
      return url;
    }

    const follow = (url: URL | string) =>
      svc.request({ method: 'GET', url: typeof url === 'string' ? url : `${url.pathname}${url.search}` });

    async function intent(id: string) {
      return (
        await svc.request({ method: 'GET', url: `/v1/payment-intents/${id}`, key: merchant.secretTest })
      ).json();
    }

    async function eventTypes(id: string): Promise<string[]> {
      const { rows } = await svc.ctx.db.query<{ type: string }>(
        'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
        [id],
      );
      return rows.map((r) => r.type);
    }

    it('adyen: a token that is broken Adyen Web card data is a 400 naming payment_method_token, and nothing is written', async () => {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: { amount_minor: 4_200, currency: 'EUR', gateway_id: 'adyen' },
      });
      const id: string = created.json().id;
      for (const [token, detail] of [
        ['{"type":"scheme","encryptedCardNumber":"adyenjs_x"', /is not JSON/],
        [
          '{"type":"scheme","encryptedCardNumber":"adyenjs_x"}',
          /without encryptedExpiryMonth, encryptedExpiryYear, encryptedSecurityCode/,
        ],
        ['{"type":"ideal"}', /type "ideal"/],
      ] as const) {
        const confirmed = await svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${id}/confirm`,
          key: merchant.secretTest,
          body: { payment_method_token: token },
        });
        assert.equal(confirmed.statusCode, 400, confirmed.body);
        const problem = confirmed.json();
        assert.equal(problem.code, 'validation_error');
        assert.equal(problem.errors[0].field, 'payment_method_token');
        assert.match(problem.errors[0].message ?? problem.detail, detail);
      }
      assert.equal((await intent(id)).status, 'CREATED');
      const written = await svc.ctx.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM charge_attempts WHERE payment_intent_id = $1)::int
              + (SELECT count(*) FROM transactions WHERE payment_intent_id = $1)::int AS n`,
        [id],
      );
      assert.equal(written.rows[0]?.n, 0, 'no attempt and no transaction row');
    });

    for (const gateway of [
      { id: 'stripe', tokens: STRIPE_TEST_PAYMENT_METHODS },
      { id: 'adyen', tokens: ADYEN_TEST_TOKENS },
    ]) {
      it(`${gateway.id}: completes an approved challenge and sends the payer on to return_url; a reload changes nothing`, async () => {
        const { id, redirectUrl } = await challenged(gateway.id, gateway.tokens.challenge);
        const back = await answer(redirectUrl, 'approve');
        const returned = await follow(back);
        assert.equal(returned.statusCode, 303, returned.body);
        const onward = new URL(String(returned.headers.location));
        assert.equal(`${onward.origin}${onward.pathname}`, 'http://shop.test/orders/7/done');
        assert.equal(onward.searchParams.get('step'), 'paid', "the shop's own parameters stay");
        assert.equal(onward.searchParams.get('payment_intent'), id);
        assert.equal((await intent(id)).status, 'SUCCEEDED');

        const reloaded = await follow(back);
        assert.equal(reloaded.statusCode, 303);
        assert.equal(reloaded.headers.location, returned.headers.location);
        const succeededEvents = (await eventTypes(id)).filter((t) => t === 'payment_intent.succeeded');
        assert.equal(succeededEvents.length, 1, 'one success, whatever the reloads');
      });

      it(`${gateway.id}: a return posted as a form (redirectMethod POST) completes the payment the same way`, async () => {
        const { id, redirectUrl } = await challenged(gateway.id, gateway.tokens.challenge);
        const back = await answer(redirectUrl, 'approve');
        const posted = await svc.app.inject({
          method: 'POST',
          url: back.pathname,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: back.searchParams.toString(),
        });
        assert.equal(posted.statusCode, 303, posted.body);
        const onward = new URL(String(posted.headers.location));
        assert.equal(`${onward.origin}${onward.pathname}`, 'http://shop.test/orders/7/done');
        assert.equal((await intent(id)).status, 'SUCCEEDED');
        const forged = await svc.app.inject({
          method: 'POST',
          url: `${back.pathname.slice(0, -1)}${back.pathname.endsWith('A') ? 'B' : 'A'}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: back.searchParams.toString(),
        });
        assert.equal(forged.statusCode, 404, 'an altered MAC is refused, posted or not');
      });

      it(`${gateway.id}: a challenge the payer fails makes the intent FAILED`, async () => {
        const { id, redirectUrl } = await challenged(gateway.id, gateway.tokens.challenge);
        const returned = await follow(await answer(redirectUrl, 'decline'));
        assert.equal(returned.statusCode, 303, returned.body);
        assert.equal((await intent(id)).status, 'FAILED');
      });

      it(`${gateway.id}: a forged or altered return address is 404 and changes nothing`, async () => {
        const { id, redirectUrl } = await challenged(gateway.id, gateway.tokens.challenge);
        const back = await answer(redirectUrl, 'approve');
        const [intentId, number, mac] = back.pathname.split('/').at(-1)!.split('.') as [
          string,
          string,
          string,
        ];
        const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
        for (const forged of [
          `/gateway-returns/${intentId}.${number}.${flipped}`,
          `/gateway-returns/${intentId}.2.${mac}`,
          `/gateway-returns/${intentId}.${number}`,
          '/gateway-returns/pi_000000000000000000000000.1.0000000000000000000000',
        ]) {
          const response = await follow(`${forged}${back.search}`);
          assert.equal(response.statusCode, 404, `${forged}: ${response.body}`);
          assert.equal(response.json().code, 'resource_not_found');
        }
        assert.equal((await intent(id)).status, 'REQUIRES_ACTION', 'nothing was completed');
        // The real address still completes it afterwards.
        assert.equal((await follow(back)).statusCode, 303);
        assert.equal((await intent(id)).status, 'SUCCEEDED');
      });
    }

    it('adyen: a redirectResult altered on the way back is refused by Adyen and leaves the intent waiting', async () => {
      const { id, redirectUrl } = await challenged('adyen', ADYEN_TEST_TOKENS.challenge);
      const back = await answer(redirectUrl, 'approve');
      const altered = new URL(back);
      altered.searchParams.set('redirectResult', 'rr_altered');
      const returned = await follow(altered);
      assert.equal(returned.statusCode, 303, 'the payer is still sent on');
      assert.equal((await intent(id)).status, 'REQUIRES_ACTION');
      assert.equal((await follow(back)).statusCode, 303);
      assert.equal((await intent(id)).status, 'SUCCEEDED');
    });

    it('shows a page of its own when the intent has no return_url', async () => {
      const { id, redirectUrl } = await challenged('stripe', STRIPE_TEST_PAYMENT_METHODS.challenge, null);
      const returned = await follow(await answer(redirectUrl, 'approve'));
      assert.equal(returned.statusCode, 200, returned.body);
      assert.match(String(returned.headers['content-type']), /^text\/html/);
      assert.match(returned.body, /Your payment went through/);
      assert.equal((await intent(id)).status, 'SUCCEEDED');
    });

    it('sent the fakes only requests that match their descriptions', () => {
      assert.deepEqual(stripe.violations, []);
      assert.deepEqual(adyen.violations, []);
    });
  });
}
