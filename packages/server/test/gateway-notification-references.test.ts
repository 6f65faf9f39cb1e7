// Payment notifications are matched by the gateway's own reference (issue 31, item 4): Stripe's
// PaymentIntent id and Adyen's pspReference that Paygate stored for the attempt; our key in the
// notification (Stripe's metadata, Adyen's merchantReference) only cross-checks it. Missing, the
// notification still applies; naming another charge, it is refused and logged, on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS, STRIPE_TEST_PAYMENT_METHODS } from '@paygate/gateway-fakes';
import { receiveGatewayNotification } from '../src/app/gateways/notifications.ts';
import { databaseKinds } from './support/databases.ts';
import {
  FAKE_STRIPE,
  type ServiceOnFakeGateways,
  startServiceOnFakeGateways,
} from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';
import { adyenRequest, stripeEvent } from './support/signed-notifications.ts';

for (const kind of databaseKinds()) {
  describe(`payment notifications are matched by the gateway's reference (${kind})`, () => {
    let running: ServiceOnFakeGateways;
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: false,
        hostedFields: false,
        defaultReturnUrl: 'http://paygate.test/return',
      });
      svc = running.svc;
      merchant = await svc.createMerchant('Shop whose gateway forgets our references');
    });
    after(() => running?.close());

    /** An intent waiting for the payer's challenge at the gateway, with its attempt's key and reference. */
    async function challenged(gatewayId: 'stripe' | 'adyen') {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: { amount_minor: 4_200, currency: 'EUR', gateway_id: gatewayId },
      });
      assert.equal(created.statusCode, 200, created.body);
      const id: string = created.json().id;
      const token =
        gatewayId === 'stripe' ? STRIPE_TEST_PAYMENT_METHODS.challenge : ADYEN_TEST_TOKENS.challenge;
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: token },
      });
      assert.equal(confirmed.json().status, 'REQUIRES_ACTION', confirmed.body);
      const { rows } = await svc.ctx.db.query<{ idempotency_key: string; gateway_reference: string }>(
        'SELECT idempotency_key, gateway_reference FROM charge_attempts WHERE payment_intent_id = $1',
        [id],
      );
      assert.ok(rows[0]?.gateway_reference, 'the gateway reference is stored from the answer');
      return { id, key: rows[0].idempotency_key, reference: rows[0].gateway_reference };
    }

    async function statusOf(id: string): Promise<string> {
      const read = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${id}`,
        key: merchant.secretTest,
      });
      return read.json().status;
    }

    function adyenAuthorisation(pspReference: string, merchantReference: string | undefined) {
      return Buffer.from(
        adyenRequest([
          {
            eventCode: 'AUTHORISATION',
            success: 'true',
            pspReference,
            ...(merchantReference === undefined ? {} : { merchantReference }),
            amount: { value: 4_200, currency: 'EUR' },
          },
        ]),
      );
    }

    function stripeSucceeded(reference: string, metadata: Record<string, string>) {
      const event = stripeEvent(FAKE_STRIPE.webhookSecret, new Date(), 'payment_intent.succeeded', {
        id: reference,
        status: 'succeeded',
        amount: 4_200,
        amount_received: 4_200,
        currency: 'eur',
        metadata,
      });
      return { body: Buffer.from(event.payload), headers: event.headers };
    }

    it('adyen: an AUTHORISATION without merchantReference applies to the payment its pspReference names', async () => {
      const payment = await challenged('adyen');
      const received = await receiveGatewayNotification(
        svc.ctx,
        'adyen',
        adyenAuthorisation(payment.reference, undefined),
        { 'content-type': 'application/json' },
      );
      assert.equal(received.warning, null);
      assert.equal(await statusOf(payment.id), 'SUCCEEDED');
    });

    it('adyen: an AUTHORISATION whose merchantReference names another payment is refused, logged, and moves neither', async () => {
      const other = await challenged('adyen');
      for (const merchantReference of [other.key, 'not-a-reference-of-ours']) {
        const payment = await challenged('adyen');
        const body = adyenAuthorisation(payment.reference, merchantReference);
        const headers = { 'content-type': 'application/json' };
        const received = await receiveGatewayNotification(svc.ctx, 'adyen', body, headers);
        assert.match(received.warning ?? '', /contradict/);
        assert.match(received.warning ?? '', new RegExp(payment.reference));
        assert.match(received.warning ?? '', new RegExp(merchantReference));
        assert.equal(await statusOf(payment.id), 'REQUIRES_ACTION');
        // Recorded as received: Adyen's redelivery of it changes nothing either.
        assert.equal((await receiveGatewayNotification(svc.ctx, 'adyen', body, headers)).duplicate, true);
        assert.equal(await statusOf(payment.id), 'REQUIRES_ACTION');
      }
      assert.equal(await statusOf(other.id), 'REQUIRES_ACTION');
    });

    it('stripe: payment_intent.succeeded without our metadata applies to the attempt of that PaymentIntent id', async () => {
      const payment = await challenged('stripe');
      const { body, headers } = stripeSucceeded(payment.reference, {});
      const received = await receiveGatewayNotification(svc.ctx, 'stripe', body, headers);
      assert.equal(received.warning, null);
      assert.equal(await statusOf(payment.id), 'SUCCEEDED');
    });

    it('stripe: payment_intent.succeeded whose metadata key names another payment is refused, logged, and moves neither', async () => {
      const payment = await challenged('stripe');
      const other = await challenged('stripe');
      const { body, headers } = stripeSucceeded(payment.reference, { paygate_idempotency_key: other.key });
      const received = await receiveGatewayNotification(svc.ctx, 'stripe', body, headers);
      assert.match(received.warning ?? '', /contradict/);
      assert.equal(await statusOf(payment.id), 'REQUIRES_ACTION');
      assert.equal(await statusOf(other.id), 'REQUIRES_ACTION');
      // The refused event was recorded: its redelivery changes nothing either.
      const again = await receiveGatewayNotification(svc.ctx, 'stripe', body, headers);
      assert.equal(again.duplicate, true);
      assert.equal(await statusOf(payment.id), 'REQUIRES_ACTION');
    });

    it('a PaymentIntent Paygate never made (no stored reference, no key of ours) is acknowledged and changes nothing', async () => {
      const { body, headers } = stripeSucceeded('pi_madeInStripesDashboard', {});
      const received = await receiveGatewayNotification(svc.ctx, 'stripe', body, headers);
      assert.equal(received.duplicate, false);
      assert.ok(received.warning, 'logged for the operator');
    });
  });
}
