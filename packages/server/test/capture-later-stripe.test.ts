// Authorise now, capture later on Stripe (issue 43, item 2), through the Stripe fake, which checks
// every request against Stripe's official OpenAPI description: capture_method manual, the capture
// with amount_to_capture, the cancel, and the events that report each. Both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRIPE_TEST_PAYMENT_METHODS } from '@paygate/gateway-fakes';
import { reconcileWithGateways } from '../src/app/gateways/reconcile-with-gateway.ts';
import { databaseKinds } from './support/databases.ts';
import {
  FAKE_STRIPE,
  type ServiceOnFakeGateways,
  startServiceOnFakeGateways,
} from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';
import { stripeEvent } from './support/signed-notifications.ts';

for (const kind of databaseKinds()) {
  describe(`capture later on Stripe (${kind})`, () => {
    let running: ServiceOnFakeGateways;
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: true,
        hostedFields: false,
        defaultReturnUrl: 'http://paygate.test/return',
      });
      svc = running.svc;
      merchant = await svc.createMerchant('Shop that captures on Stripe');
    });
    after(() => running?.close());

    const post = (url: string, body: unknown) =>
      svc.request({
        method: 'POST',
        url,
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('k') },
        body,
      });
    const eventTypes = async (id: string) =>
      (
        await svc.ctx.db.query<{ type: string }>(
          'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
          [id],
        )
      ).rows.map((r) => r.type);

    async function authorised(amountMinor: number, token: string = STRIPE_TEST_PAYMENT_METHODS.approve) {
      const created = await post('/v1/payment-intents', {
        amount_minor: amountMinor,
        currency: 'EUR',
        gateway_id: 'stripe',
        capture_method: 'manual',
      });
      assert.equal(created.statusCode, 200, created.body);
      const confirmed = await post(`/v1/payment-intents/${created.json().id}/confirm`, {
        payment_method_token: token,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      await running.stripe.idle();
      return confirmed.json() as {
        id: string;
        status: string;
        capture_before: string;
        amount_capturable_minor: number;
      };
    }

    it('authorises with capture_method manual, then captures part with amount_to_capture', async () => {
      const intent = await authorised(10_000);
      assert.equal(intent.status, 'REQUIRES_CAPTURE');
      assert.equal(intent.amount_capturable_minor, 10_000);
      const days = (Date.parse(intent.capture_before) - svc.clock.now().getTime()) / 86_400_000;
      assert.ok(days > 6.9 && days <= 7, `capture_before in ${days} days`);
      const captured = await post(`/v1/payment-intents/${intent.id}/capture`, { amount_minor: 7_500 });
      assert.equal(captured.statusCode, 200, captured.body);
      assert.equal(captured.json().status, 'SUCCEEDED');
      assert.equal(captured.json().amount_captured_minor, 7_500);
      await running.stripe.idle();
      assert.deepEqual(await eventTypes(intent.id), [
        'payment_intent.requires_capture',
        'payment_intent.succeeded',
      ]);
      const refund = await post('/v1/refunds', { payment_intent_id: intent.id });
      assert.equal(refund.statusCode, 200, refund.body);
      assert.equal(refund.json().amount_minor, 7_500, 'refunds take what was captured');
      assert.deepEqual(running.stripe.violations, []);
    });

    it('authorises through a challenge too, and cancel voids it at Stripe', async () => {
      const created = await post('/v1/payment-intents', {
        amount_minor: 6_000,
        currency: 'EUR',
        gateway_id: 'stripe',
        capture_method: 'manual',
      });
      const challenged = await post(`/v1/payment-intents/${created.json().id}/confirm`, {
        payment_method_token: STRIPE_TEST_PAYMENT_METHODS.challenge,
      });
      assert.equal(challenged.json().status, 'REQUIRES_ACTION', challenged.body);
      const page = await fetch(challenged.json().redirect_url);
      assert.equal(page.status, 200);
      await fetch(challenged.json().redirect_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      await running.stripe.idle();
      const read = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${created.json().id}`,
        key: merchant.secretTest,
      });
      assert.equal(
        read.json().status,
        'REQUIRES_CAPTURE',
        'the amount_capturable_updated event authorised it',
      );
      const canceled = await post(`/v1/payment-intents/${created.json().id}/cancel`, {});
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.equal(canceled.json().status, 'CANCELED');
      assert.equal(canceled.json().cancellation_reason, 'requested');
      await running.stripe.idle();
      assert.deepEqual(await eventTypes(created.json().id), [
        'payment_intent.requires_action',
        'payment_intent.requires_capture',
        'payment_intent.canceled',
      ]);
      assert.deepEqual(running.stripe.violations, []);
    });

    it('a capture Stripe refuses (the authorisation canceled at Stripe) is a 402, and the intent stays REQUIRES_CAPTURE', async () => {
      const intent = await authorised(5_000);
      const over = await post(`/v1/payment-intents/${intent.id}/capture`, { amount_minor: 5_001 });
      assert.equal(over.statusCode, 422, over.body);
      const { rows } = await svc.ctx.db.query<{ gateway_reference: string }>(
        "SELECT gateway_reference FROM charge_attempts WHERE payment_intent_id = $1 AND status = 'SUCCEEDED'",
        [intent.id],
      );
      const atStripe = await fetch(
        `${running.stripe.url}/v1/payment_intents/${rows[0]?.gateway_reference}/cancel`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${FAKE_STRIPE.secretKey}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: '',
        },
      );
      assert.equal(atStripe.status, 200, await atStripe.text());
      const refused = await post(`/v1/payment-intents/${intent.id}/capture`, {});
      assert.equal(refused.statusCode, 402, refused.body);
      assert.equal(refused.json().code, 'gateway_rejected');
      assert.equal(refused.json().payment_intent.status, 'REQUIRES_CAPTURE');
      assert.match(
        refused.json().payment_intent.last_payment_error.message,
        /payment_intent_unexpected_state/,
      );
      assert.deepEqual(running.stripe.violations, []);
    });

    async function stripeReference(id: string): Promise<string> {
      const { rows } = await svc.ctx.db.query<{ gateway_reference: string }>(
        "SELECT gateway_reference FROM charge_attempts WHERE payment_intent_id = $1 AND status = 'SUCCEEDED'",
        [id],
      );
      return rows[0]?.gateway_reference ?? '';
    }

    it("reconciliation reads Stripe's list: held, captured in part and voided agree; an authorisation Stripe dropped early is reported", async () => {
      const held = await authorised(3_300);
      const partial = await authorised(4_400);
      assert.equal(
        (await post(`/v1/payment-intents/${partial.id}/capture`, { amount_minor: 1_100 })).json().status,
        'SUCCEEDED',
      );
      const voided = await authorised(5_500);
      assert.equal((await post(`/v1/payment-intents/${voided.id}/cancel`, {})).json().status, 'CANCELED');
      const dropped = await authorised(6_600);
      // Stripe releases it before capture_before, and its event never arrives.
      running.stripe.holdNotifications();
      const atStripe = await fetch(
        `${running.stripe.url}/v1/payment_intents/${await stripeReference(dropped.id)}/cancel`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${FAKE_STRIPE.secretKey}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: '',
        },
      );
      assert.equal(atStripe.status, 200, await atStripe.text());
      await running.stripe.idle();
      const report = await reconcileWithGateways(svc.ctx, {
        from: new Date(svc.clock.now().getTime() - 3_600_000),
        to: new Date(svc.clock.now().getTime() + 1000),
        repair: false,
      });
      running.stripe.releaseNotifications();
      await running.stripe.idle();
      const ids = [held.id, partial.id, voided.id, dropped.id];
      const mine = report.differences.filter((d) => ids.includes(d.paygateId ?? ''));
      assert.deepEqual(
        mine.map((d) => d.paygateId),
        [dropped.id],
        JSON.stringify(mine),
      );
      assert.match(mine[0]?.detail ?? '', /dropped the authorisation before capture_before/);
    });

    it("a capture made in Stripe's own dashboard makes the intent SUCCEEDED with what Stripe captured", async () => {
      const intent = await authorised(9_000);
      const reference = await stripeReference(intent.id);
      const atStripe = await fetch(`${running.stripe.url}/v1/payment_intents/${reference}/capture`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${FAKE_STRIPE.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'amount_to_capture=4000',
      });
      assert.equal(atStripe.status, 200, await atStripe.text());
      await running.stripe.idle();
      const read = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${intent.id}`,
        key: merchant.secretTest,
      });
      assert.equal(read.json().status, 'SUCCEEDED');
      assert.equal(read.json().amount_captured_minor, 4_000);
      const { rows } = await svc.ctx.db.query<{ status: string; amount_minor: string }>(
        "SELECT status, amount_minor FROM transactions WHERE payment_intent_id = $1 AND type = 'PAYMENT'",
        [intent.id],
      );
      assert.deepEqual(
        rows.map((r) => [r.status, Number(r.amount_minor)]),
        [['APPROVED', 4_000]],
      );
    });

    it('a capture Stripe reports after the void is a late capture: in the books, and refunded', async () => {
      const intent = await authorised(8_000);
      const reference = await stripeReference(intent.id);
      const canceled = await post(`/v1/payment-intents/${intent.id}/cancel`, {});
      assert.equal(canceled.json().status, 'CANCELED', canceled.body);
      await running.stripe.idle();
      const event = stripeEvent(FAKE_STRIPE.webhookSecret, svc.clock.now(), 'payment_intent.succeeded', {
        id: reference,
        status: 'succeeded',
        amount: 8_000,
        amount_received: 8_000,
        currency: 'eur',
        capture_method: 'manual',
        metadata: { paygate_idempotency_key: `${intent.id}:attempt:1` },
      });
      const sent = await svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/stripe',
        headers: event.headers,
        payload: event.payload,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const late = await svc.ctx.db.query<{ amount_minor: string }>(
        'SELECT amount_minor FROM late_captures WHERE payment_intent_id = $1',
        [intent.id],
      );
      assert.deepEqual(
        late.rows.map((r) => Number(r.amount_minor)),
        [8_000],
      );
      assert.ok((await eventTypes(intent.id)).includes('payment_intent.late_captured'));
      const read = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${intent.id}`,
        key: merchant.secretTest,
      });
      assert.equal(read.json().status, 'CANCELED', 'the intent keeps its status');
    });
  });
}
