// Gateways sign their notifications with their own wall time: Paygate checks Stripe's signed
// timestamps against wall time, never against the test clock, so moving the test clock does not
// refuse genuine events (and an old signature stays refused). Adyen's HMAC carries no timestamp.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRIPE_TEST_PAYMENT_METHODS, type StripeFake } from '@paygate/gateway-fakes';
import { waitFor } from '@paygate/testing';
import { answerChallengePage } from '../src/gateways/challenge-client.ts';
import { timestampedSignatureHeader } from '../src/gateways/timestamped-signature.ts';
import { databaseKinds } from './support/databases.ts';
import {
  FAKE_STRIPE,
  type ServiceOnFakeGateways,
  startServiceOnFakeGateways,
} from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';

/** Far past Stripe's 300 s tolerance. */
const TEST_CLOCK_ADVANCE_SECONDS = 3600;

for (const kind of databaseKinds()) {
  describe(`incoming gateway signatures on wall time (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let stripe: StripeFake;
    let running: ServiceOnFakeGateways;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: true,
        hostedFields: true,
        defaultReturnUrl: 'http://paygate.test/return',
      });
      ({ svc, stripe } = running);
      merchant = await svc.createMerchant('Shop with a moved test clock');
      svc.clock.advance(TEST_CLOCK_ADVANCE_SECONDS);
    });
    after(() => running?.close());

    const postEvent = (body: string, timestampSeconds: number) =>
      fetch(`${svc.baseUrl}/gateway-notifications/stripe`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': timestampedSignatureHeader(body, FAKE_STRIPE.webhookSecret, timestampSeconds),
        },
        body,
      });
    const unknownIntentEvent = () =>
      JSON.stringify({
        id: `evt_${freshKey('wall')}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        livemode: false,
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: 'pi_unknown_to_paygate', object: 'payment_intent', status: 'succeeded' } },
      });

    it('accepts a genuine Stripe event after the test clock moved past the tolerance: the challenge settles', async () => {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: {
          amount_minor: 4_000,
          currency: 'EUR',
          gateway_id: 'stripe',
          return_url: 'http://shop.test/done',
        },
      });
      assert.equal(created.statusCode, 200, created.body);
      const id = (created.json() as { id: string }).id;
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: STRIPE_TEST_PAYMENT_METHODS.challenge },
      });
      assert.equal(confirmed.json().status, 'REQUIRES_ACTION', confirmed.body);
      await answerChallengePage(confirmed.json().redirect_url as string, 'approve');
      await stripe.idle();
      await waitFor('intent SUCCEEDED by the signed event', async () => {
        const read = await svc.request({
          method: 'GET',
          url: `/v1/payment-intents/${id}`,
          key: merchant.secretTest,
        });
        return (read.json() as { status: string }).status === 'SUCCEEDED';
      });
    });

    it('accepts an event signed now on the wall clock, refuses one signed 400 s ago and one signed on the test clock', async () => {
      const wallNow = Math.floor(Date.now() / 1000);
      const testClockNow = Math.floor(svc.clock.now().getTime() / 1000);
      assert.ok(testClockNow - wallNow >= TEST_CLOCK_ADVANCE_SECONDS - 5);
      assert.equal((await postEvent(unknownIntentEvent(), wallNow)).status, 200);
      const old = await postEvent(unknownIntentEvent(), wallNow - 400);
      assert.equal(old.status, 401);
      assert.equal(((await old.json()) as { code: string }).code, 'invalid_webhook_signature');
      assert.equal((await postEvent(unknownIntentEvent(), testClockNow)).status, 401);
    });
  });
}
