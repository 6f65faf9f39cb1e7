// The crash points of a capture and a void (issue 43, item 3) against the Stripe and Adyen fakes,
// taught the gateways' failure modes, on both databases: a 500 after the gateway did the work, a
// 500 before it did anything, an answer that never came, and a process that died between the
// phases. The repair job sends the very same request again (same key, byte-identical body), the
// gateway captures once, and the intent never reads REQUIRES_CAPTURE while the money may have moved.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS, STRIPE_TEST_PAYMENT_METHODS } from '@paygate/gateway-fakes';
import { waitFor } from '@paygate/testing';
import {
  OPERATION_LEASE_SECONDS,
  repairAuthorizationOperations,
  startAuthorizationOperation,
} from '../src/app/captures/authorization-operations.ts';
import { findPaymentIntent } from '../src/storage/repositories/payment-intents.ts';
import { databaseKinds } from './support/databases.ts';
import {
  FAKE_ADYEN,
  FAKE_STRIPE,
  type ServiceOnFakeGateways,
  startServiceOnFakeGateways,
} from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';

/** Short, so a `timeout` failure costs little; the fakes hold such an answer back twice as long. */
const TIMEOUT_MS = 2_000;

for (const kind of databaseKinds()) {
  describe(`crash points of a capture and a void on Stripe and Adyen (${kind})`, () => {
    let running: ServiceOnFakeGateways;
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: true,
        hostedFields: false,
        defaultReturnUrl: 'http://paygate.test/return',
        requestTimeoutMs: TIMEOUT_MS,
      });
      svc = running.svc;
      merchant = await svc.createMerchant('Shop capturing on real gateways');
      // A fake compiles a description's operation on its first request, which can take longer than
      // the short time-out here: each capture operation is asked once, unhurried, first.
      const warm = (url: string, headers: Record<string, string>) =>
        fetch(url, { method: 'POST', headers, body: '{}' }).then((r) => r.text());
      const stripeAuth = { authorization: `Bearer ${FAKE_STRIPE.secretKey}` };
      await warm(`${running.stripe.url}/v1/payment_intents/pi_warm/capture`, stripeAuth);
      await warm(`${running.stripe.url}/v1/payment_intents/pi_warm/cancel`, stripeAuth);
      const adyenAuth = { 'x-api-key': FAKE_ADYEN.apiKey, 'content-type': 'application/json' };
      await warm(`${running.adyen.url}/payments/WARM/captures`, adyenAuth);
      await warm(`${running.adyen.url}/payments/WARM/cancels`, adyenAuth);
      running.stripe.violations.length = 0;
      running.adyen.violations.length = 0;
    });
    after(() => running?.close());

    const api = (method: 'GET' | 'POST', url: string, body?: unknown, key = freshKey('k')) =>
      svc.request({
        method,
        url,
        key: merchant.secretTest,
        ...(method === 'POST' ? { headers: { 'idempotency-key': key } } : {}),
        body,
      });
    const read = async (id: string) => (await api('GET', `/v1/payment-intents/${id}`)).json();

    async function authorised(gateway: 'stripe' | 'adyen', amountMinor: number): Promise<string> {
      const created = await api('POST', '/v1/payment-intents', {
        amount_minor: amountMinor,
        currency: 'EUR',
        gateway_id: gateway,
        capture_method: 'manual',
      });
      assert.equal(created.statusCode, 200, created.body);
      const token = gateway === 'stripe' ? STRIPE_TEST_PAYMENT_METHODS.approve : ADYEN_TEST_TOKENS.approve;
      const confirmed = await api('POST', `/v1/payment-intents/${created.json().id}/confirm`, {
        payment_method_token: token,
      });
      assert.equal(confirmed.json().status, 'REQUIRES_CAPTURE', confirmed.body);
      await running[gateway].idle();
      return created.json().id;
    }

    /** The repair job once the operation's lease has passed; how many operations it took up. */
    async function repairLater(): Promise<number> {
      svc.clock.advance(OPERATION_LEASE_SECONDS + 1);
      return repairAuthorizationOperations(svc.ctx);
    }

    /** What Stripe's books say of the authorised charge: its status and what it received. */
    async function atStripe(id: string): Promise<{ status: string; amount_received: number }> {
      const { rows } = await svc.ctx.db.query<{ gateway_reference: string }>(
        "SELECT gateway_reference FROM charge_attempts WHERE payment_intent_id = $1 AND status = 'SUCCEEDED'",
        [id],
      );
      const response = await fetch(`${running.stripe.url}/v1/payment_intents/${rows[0]?.gateway_reference}`, {
        headers: { authorization: `Bearer ${FAKE_STRIPE.secretKey}` },
      });
      return (await response.json()) as { status: string; amount_received: number };
    }

    const lastTwo = <T>(list: ReadonlyArray<T>): T[] => list.slice(-2);
    /** The CAPTURE notifications Adyen sent: one per capture it made. */
    const captureNotifications = () =>
      running.adyen.notificationsSent().filter((body) => body.includes('"eventCode":"CAPTURE"')).length;

    for (const failure of ['error-after-work', 'timeout'] as const) {
      it(`stripe: a capture Stripe made but answered with ${failure} reads PROCESSING; the repair job resends it byte for byte and Stripe captured once`, async () => {
        const id = await authorised('stripe', 8_000);
        running.stripe.failCaptures(failure);
        const answered = await api('POST', `/v1/payment-intents/${id}/capture`, { amount_minor: 5_000 });
        assert.equal(answered.statusCode, 200, answered.body);
        assert.equal(answered.json().status, 'PROCESSING', 'the money may have moved: not REQUIRES_CAPTURE');
        assert.equal((await atStripe(id)).amount_received, 5_000, 'Stripe did capture');
        const again = await api('POST', `/v1/payment-intents/${id}/capture`, { amount_minor: 5_000 });
        assert.equal(again.statusCode, 409, 'no second capture while the first is unknown');

        assert.equal(await repairLater(), 1);
        const [first, resent] = lastTwo(running.stripe.captureRequests);
        assert.equal(resent?.idempotencyKey, first?.idempotencyKey);
        assert.equal(resent?.body, first?.body, 'byte-identical, so Stripe replays its answer');
        await running.stripe.idle();
        const intent = await read(id);
        assert.equal(intent.status, 'SUCCEEDED');
        assert.equal(intent.amount_captured_minor, 5_000);
        assert.deepEqual(await atStripe(id), { ...(await atStripe(id)), amount_received: 5_000 });
        assert.equal(await repairLater(), 0, 'nothing left to repair');
        assert.deepEqual(running.stripe.violations, []);
      });
    }

    it('stripe: a capture Stripe answered 500 for without making it is sent again and made once', async () => {
      const id = await authorised('stripe', 6_000);
      running.stripe.failCaptures('error-before-work');
      const answered = await api('POST', `/v1/payment-intents/${id}/capture`, {});
      assert.equal(answered.json().status, 'PROCESSING', answered.body);
      assert.equal((await atStripe(id)).status, 'requires_capture', 'Stripe made nothing');
      assert.equal(await repairLater(), 1);
      await running.stripe.idle();
      const intent = await read(id);
      assert.equal(intent.status, 'SUCCEEDED');
      assert.equal(intent.amount_captured_minor, 6_000);
      assert.equal((await atStripe(id)).amount_received, 6_000);
    });

    it('stripe: a void Stripe made but answered 500 for is finished by the repair job: CANCELED once', async () => {
      const id = await authorised('stripe', 4_000);
      running.stripe.failCaptures('error-after-work');
      const answered = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/cancel`,
        key: merchant.secretTest,
        body: {},
      });
      assert.equal(answered.statusCode, 200, answered.body);
      assert.equal(answered.json().status, 'PROCESSING');
      assert.equal((await atStripe(id)).status, 'canceled');
      assert.equal(await repairLater(), 1);
      await running.stripe.idle();
      const intent = await read(id);
      assert.equal(intent.status, 'CANCELED');
      assert.equal(intent.cancellation_reason, 'requested');
      const [first, resent] = lastTwo(running.stripe.captureRequests);
      assert.equal(resent?.idempotencyKey, first?.idempotencyKey);
    });

    for (const gateway of ['stripe', 'adyen'] as const) {
      it(`${gateway}: a capture whose process died before the gateway call is sent by the repair job, once`, async () => {
        const id = await authorised(gateway, 7_000);
        const sent = running[gateway].captureRequests.length;
        await svc.ctx.db.transaction(async (tx) => {
          const intent = await findPaymentIntent(tx, { merchantId: merchant.id, livemode: false }, id, {
            forUpdate: true,
          });
          assert.ok(intent);
          return startAuthorizationOperation(tx, intent, 'capture', 7_000, null, svc.clock.now());
        });
        // The process dies here: the gateway never heard of it.
        assert.equal((await read(id)).status, 'PROCESSING');
        assert.equal(await repairAuthorizationOperations(svc.ctx), 0, 'not before its lease ends');
        assert.equal(await repairLater(), 1);
        await running[gateway].idle();
        await waitFor('the capture settled', async () => (await read(id)).status === 'SUCCEEDED');
        assert.equal(running[gateway].captureRequests.length, sent + 1, 'sent once');
        assert.equal((await read(id)).amount_captured_minor, 7_000);
      });
    }

    it('adyen: a capture Adyen took but answered 500 for is settled by its CAPTURE notification; the resend is answered received and captures nothing more', async () => {
      const id = await authorised('adyen', 9_000);
      const notified = captureNotifications();
      running.adyen.holdNotifications();
      running.adyen.failCaptures('error-after-work');
      const answered = await api('POST', `/v1/payment-intents/${id}/capture`, { amount_minor: 9_000 });
      assert.equal(answered.json().status, 'PROCESSING', answered.body);
      assert.equal(await repairLater(), 1);
      const [first, resent] = lastTwo(running.adyen.captureRequests);
      assert.equal(resent?.idempotencyKey, first?.idempotencyKey);
      assert.equal(resent?.body, first?.body, 'byte-identical, so Adyen replays its first answer');
      assert.equal((await read(id)).status, 'PROCESSING', 'received, not yet captured');
      running.adyen.releaseNotifications();
      await running.adyen.idle();
      const intent = await read(id);
      assert.equal(intent.status, 'SUCCEEDED');
      assert.equal(intent.amount_captured_minor, 9_000);
      assert.equal(captureNotifications(), notified + 1, 'Adyen captured once');
      assert.deepEqual(running.adyen.violations, []);
    });

    it('adyen: a capture Adyen answered 500 for without taking it is sent again by the repair job and then made', async () => {
      const id = await authorised('adyen', 5_500);
      const notified = captureNotifications();
      running.adyen.failCaptures('error-before-work');
      const answered = await api('POST', `/v1/payment-intents/${id}/capture`, {});
      assert.equal(answered.json().status, 'PROCESSING', answered.body);
      await running.adyen.idle();
      assert.equal(captureNotifications(), notified, 'Adyen took nothing');
      assert.equal(await repairLater(), 1);
      await running.adyen.idle();
      await waitFor('the capture settled', async () => (await read(id)).status === 'SUCCEEDED');
      assert.equal(captureNotifications(), notified + 1);
      assert.equal((await read(id)).amount_captured_minor, 5_500);
    });
  });
}
