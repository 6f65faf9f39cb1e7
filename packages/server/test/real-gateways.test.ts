// The service with the Stripe and Adyen connectors against their fakes: a payment, a 3-D Secure
// challenge completed by the gateway's notification, and refunds settled later by signed
// notifications (Adyen's in one batch, acknowledged with `[accepted]`), on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADYEN_TEST_TOKENS,
  type AdyenFake,
  STRIPE_TEST_PAYMENT_METHODS,
  type StripeFake,
} from '@paygate/gateway-fakes';
import { waitFor } from '@paygate/testing';
import { answerChallengePage } from '../src/gateways/challenge-client.ts';
import { databaseKinds } from './support/databases.ts';
import { type ServiceOnFakeGateways, startServiceOnFakeGateways } from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`real gateways through the service (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let stripe: StripeFake;
    let adyen: AdyenFake;
    let running: ServiceOnFakeGateways;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: true,
        hostedFields: true,
        defaultReturnUrl: 'http://paygate.test/return',
      });
      ({ svc, stripe, adyen } = running);
      merchant = await svc.createMerchant('Shop on real gateways');
    });
    after(() => running?.close());

    async function intentOn(gatewayId: string, amountMinor: number) {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: {
          amount_minor: amountMinor,
          currency: 'EUR',
          gateway_id: gatewayId,
          return_url: 'http://shop.test/done',
        },
      });
      assert.equal(created.statusCode, 200, created.body);
      return created.json() as { id: string };
    }

    async function confirm(id: string, token: string) {
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: token },
      });
      return confirmed;
    }

    async function statusOf(url: string): Promise<string> {
      const response = await svc.request({ method: 'GET', url, key: merchant.secretTest });
      return (response.json() as { status: string }).status;
    }

    async function refund(paymentIntentId: string, amountMinor: number) {
      const response = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('re') },
        body: { payment_intent_id: paymentIntentId, amount_minor: amountMinor },
      });
      assert.ok([200, 201].includes(response.statusCode), response.body);
      return response.json() as { id: string; status: string };
    }

    const gateways = [
      { id: 'stripe', tokens: STRIPE_TEST_PAYMENT_METHODS, fake: () => stripe },
      { id: 'adyen', tokens: ADYEN_TEST_TOKENS, fake: () => adyen },
    ];

    for (const gateway of gateways) {
      it(`${gateway.id}: a payment succeeds, then two refunds settle later by notification`, async () => {
        const intent = await intentOn(gateway.id, 10_000);
        const confirmed = await confirm(intent.id, gateway.tokens.approve);
        assert.equal(confirmed.statusCode, 200, confirmed.body);
        assert.equal(confirmed.json().status, 'SUCCEEDED');
        const first = await refund(intent.id, 2_500);
        const second = await refund(intent.id, 7_500);
        assert.equal(first.status, 'PENDING');
        assert.equal(second.status, 'PENDING');
        // Adyen's fake reports both in one notification request of two items (a batch).
        assert.equal(gateway.fake().settleRefunds(), 2);
        await gateway.fake().idle();
        for (const { id } of [first, second]) {
          await waitFor(
            `refund ${id} SUCCEEDED`,
            async () => (await statusOf(`/v1/refunds/${id}`)) === 'SUCCEEDED',
          );
        }
      });

      it(`${gateway.id}: a 3-D Secure challenge the payer passes makes the intent SUCCEEDED`, async () => {
        const intent = await intentOn(gateway.id, 4_000);
        const confirmed = await confirm(intent.id, gateway.tokens.challenge);
        assert.equal(confirmed.statusCode, 200, confirmed.body);
        assert.equal(confirmed.json().status, 'REQUIRES_ACTION');
        const redirectUrl = confirmed.json().redirect_url as string;
        assert.ok(redirectUrl.startsWith(gateway.fake().url), redirectUrl);
        await answerChallengePage(redirectUrl, 'approve');
        await gateway.fake().idle();
        await waitFor(
          'intent SUCCEEDED',
          async () => (await statusOf(`/v1/payment-intents/${intent.id}`)) === 'SUCCEEDED',
        );
      });

      it(`${gateway.id}: a decline is 402 card_declined`, async () => {
        const intent = await intentOn(gateway.id, 3_000);
        const confirmed = await confirm(intent.id, gateway.tokens.decline);
        assert.equal(confirmed.statusCode, 402, confirmed.body);
        assert.equal(confirmed.json().code, 'card_declined');
      });
    }

    // The Adyen fake settles the two refunds of the first test in one request of two items.
    it('adyen: every notification request was answered [accepted]', async () => {
      await adyen.idle();
      assert.ok(adyen.delivered.length > 0);
      for (const delivery of adyen.delivered) assert.deepEqual(delivery, { status: 200, body: '[accepted]' });
    });

    it('refuses a notification with a bad signature at the route (401), for both gateways', async () => {
      for (const gatewayId of ['stripe', 'adyen']) {
        const response = await svc.request({
          method: 'POST',
          url: `/gateway-notifications/${gatewayId}`,
          headers: { 'stripe-signature': 't=1,v1=00' },
          body: { live: 'false', notificationItems: [{ NotificationRequestItem: { additionalData: {} } }] },
        });
        assert.equal(response.statusCode, 401, `${gatewayId}: ${response.body}`);
        assert.equal(response.json().code, 'invalid_webhook_signature');
      }
    });
  });
}
