// Every refund finishes without a merchant's action (issue 31, item 1), against the Stripe and
// Adyen fakes taught the gateways' failure modes, on both databases: a 500 after the refund was
// made, a 500 before anything was done, a time-out, and a stored idempotent answer. Paygate reads
// the gateway's books, sends the very same request again where the gateway made nothing, with a
// bounded back-off, and only then fails the refund, releasing its amount.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS, STRIPE_TEST_PAYMENT_METHODS } from '@paygate/gateway-fakes';
import { waitFor } from '@paygate/testing';
import { MAX_REFUND_RESENDS, reconcilePendingRefunds } from '../src/app/refunds/reconcile-refunds.ts';
import { applyRefundNotification } from '../src/app/refunds/refund-outcome.ts';
import { createStripeConnector } from '../src/gateways/stripe/connector.ts';
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
  describe(`refunds finish against the real gateways' failure modes (${kind})`, () => {
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
      merchant = await svc.createMerchant('Shop refunding on real gateways');
      // A fake compiles a gateway's description on the first request of each operation, which can
      // take longer than the short time-out here: each operation is asked once, unhurried, first.
      const warm = (url: string, headers: Record<string, string>) =>
        fetch(url, { method: 'POST', headers, body: '{}' }).then((r) => r.text());
      const stripeAuth = { authorization: `Bearer ${FAKE_STRIPE.secretKey}` };
      await warm(`${running.stripe.url}/v1/payment_intents`, stripeAuth);
      await warm(`${running.stripe.url}/v1/refunds`, stripeAuth);
      const adyenAuth = { 'x-api-key': FAKE_ADYEN.apiKey, 'content-type': 'application/json' };
      await warm(`${running.adyen.url}/payments`, adyenAuth);
      await warm(`${running.adyen.url}/payments/WARM/refunds`, adyenAuth);
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

    async function paidIntent(gatewayId: 'stripe' | 'adyen', amountMinor: number): Promise<string> {
      const created = await api('POST', '/v1/payment-intents', {
        amount_minor: amountMinor,
        currency: 'EUR',
        gateway_id: gatewayId,
      });
      assert.equal(created.statusCode, 200, created.body);
      const token = gatewayId === 'stripe' ? STRIPE_TEST_PAYMENT_METHODS.approve : ADYEN_TEST_TOKENS.approve;
      const confirmed = await api('POST', `/v1/payment-intents/${created.json().id}/confirm`, {
        payment_method_token: token,
      });
      assert.equal(confirmed.json().status, 'SUCCEEDED', confirmed.body);
      return created.json().id;
    }

    async function startRefund(intentId: string, amountMinor: number): Promise<string> {
      const created = await api('POST', '/v1/refunds', {
        payment_intent_id: intentId,
        amount_minor: amountMinor,
      });
      assert.equal(created.statusCode, 200, created.body);
      assert.equal(created.json().status, 'PENDING', 'no readable answer: the outcome is unknown');
      return created.json().id;
    }

    const refundStatus = async (id: string) => (await api('GET', `/v1/refunds/${id}`)).json().status;
    const refundedMinor = async (intentId: string) =>
      (await api('GET', `/v1/payment-intents/${intentId}`)).json().amount_refunded_minor;

    async function eventTypes(refundId: string): Promise<string[]> {
      const { rows } = await svc.ctx.db.query<{ type: string }>(
        'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
        [refundId],
      );
      return rows.map((r) => r.type);
    }

    async function transactionStatuses(refundId: string): Promise<string[]> {
      const { rows } = await svc.ctx.db.query<{ status: string }>(
        "SELECT status FROM transactions WHERE refund_id = $1 AND type = 'REFUND'",
        [refundId],
      );
      return rows.map((r) => r.status);
    }

    /** Reconciliation once its lease (60 s) has passed. */
    async function reconcileLater(seconds = 61): Promise<void> {
      svc.clock.advance(seconds);
      await reconcilePendingRefunds(svc.ctx, 100);
    }

    async function settledAtGateway(gateway: 'stripe' | 'adyen', refundId: string): Promise<void> {
      assert.equal(running[gateway].settleRefunds(), 1);
      await running[gateway].idle();
      await waitFor('refund SUCCEEDED', async () => (await refundStatus(refundId)) === 'SUCCEEDED');
    }

    const lastTwo = <T>(list: ReadonlyArray<T>): T[] => list.slice(-2);

    it('stripe: a refund Stripe made but answered 500 for is found in the intent refund list and not sent again', async () => {
      const intentId = await paidIntent('stripe', 5_000);
      const before = running.stripe.refundRequests.length;
      running.stripe.failRefunds('error-after-work');
      const refundId = await startRefund(intentId, 2_000);
      await reconcileLater();
      assert.equal(running.stripe.refundRequests.length, before + 1, 'read, not sent again');
      await settledAtGateway('stripe', refundId);
      assert.equal(await refundedMinor(intentId), 2_000);
      assert.deepEqual(await eventTypes(refundId), ['refund.succeeded']);
      assert.deepEqual(await transactionStatuses(refundId), ['APPROVED']);
    });

    it('stripe: charge.refunded settles a refund that succeeded at once and whose answer was lost', async () => {
      const intentId = await paidIntent('stripe', 4_000);
      running.stripe.refundsSucceedAtOnce(true);
      try {
        running.stripe.failRefunds('error-after-work');
        const refundId = await startRefund(intentId, 4_000);
        await running.stripe.idle();
        await waitFor('refund SUCCEEDED', async () => (await refundStatus(refundId)) === 'SUCCEEDED');
        assert.equal(await refundedMinor(intentId), 4_000);
        assert.deepEqual(await eventTypes(refundId), ['refund.succeeded']);
        assert.deepEqual(await transactionStatuses(refundId), ['APPROVED']);
      } finally {
        running.stripe.refundsSucceedAtOnce(false);
      }
    });

    it('stripe: a refund with a lost answer that succeeded at once is read back from the list', async () => {
      const intentId = await paidIntent('stripe', 3_000);
      running.stripe.holdNotifications();
      running.stripe.refundsSucceedAtOnce(true);
      try {
        running.stripe.failRefunds('timeout');
        const refundId = await startRefund(intentId, 1_000);
        await reconcileLater();
        assert.equal(await refundStatus(refundId), 'SUCCEEDED');
        assert.equal(await refundedMinor(intentId), 1_000);
      } finally {
        running.stripe.refundsSucceedAtOnce(false);
        running.stripe.releaseNotifications();
        await running.stripe.idle();
      }
    });

    it('stripe: a refund Stripe answered 500 for without making it is sent again with the same key and body', async () => {
      const intentId = await paidIntent('stripe', 5_000);
      running.stripe.failRefunds('error-before-work');
      const made = running.stripe.refundCount();
      const refundId = await startRefund(intentId, 1_500);
      assert.equal(running.stripe.refundCount(), made, 'nothing was made');
      await reconcileLater();
      assert.equal(running.stripe.refundCount(), made + 1, 'made by the resend');
      const [first, resent] = lastTwo(running.stripe.refundRequests);
      assert.ok(first && resent);
      assert.equal(resent.idempotencyKey, first.idempotencyKey);
      assert.equal(resent.body, first.body, 'byte-identical');
      await settledAtGateway('stripe', refundId);
      assert.equal(await refundedMinor(intentId), 1_500);
    });

    it(`stripe: a refund Stripe never takes is sent ${MAX_REFUND_RESENDS} more times with a growing back-off, then FAILED, its amount released`, async () => {
      const intentId = await paidIntent('stripe', 2_500);
      running.stripe.failRefunds('error-before-work', 1 + MAX_REFUND_RESENDS);
      const before = running.stripe.refundRequests.length;
      const made = running.stripe.refundCount();
      const refundId = await startRefund(intentId, 2_500);
      await reconcileLater();
      assert.equal(running.stripe.refundRequests.length, before + 2, 'first resend after the lease');
      await reconcileLater(59);
      assert.equal(running.stripe.refundRequests.length, before + 2, 'the second waits 1 minute');
      await reconcileLater(2);
      assert.equal(running.stripe.refundRequests.length, before + 3);
      await reconcileLater(61);
      assert.equal(running.stripe.refundRequests.length, before + 3, 'the third waits 2 minutes');
      await reconcileLater(60);
      assert.equal(running.stripe.refundRequests.length, before + 4);
      for (let i = 3; i < MAX_REFUND_RESENDS; i += 1) await reconcileLater(31 * 60);
      assert.equal(running.stripe.refundRequests.length, before + 1 + MAX_REFUND_RESENDS);
      assert.equal(await refundStatus(refundId), 'PENDING');
      await reconcileLater(31 * 60);
      assert.equal(running.stripe.refundRequests.length, before + 1 + MAX_REFUND_RESENDS, 'bounded');
      const keys = new Set(
        running.stripe.refundRequests.slice(before).map((r) => `${r.idempotencyKey} ${r.body}`),
      );
      assert.equal(keys.size, 1, 'every send was the same request');
      assert.equal(await refundStatus(refundId), 'FAILED');
      assert.deepEqual(await eventTypes(refundId), ['refund.failed']);
      assert.deepEqual(await transactionStatuses(refundId), ['DECLINED']);
      assert.equal(running.stripe.refundCount(), made, 'Stripe made none');
      const again = await api('POST', '/v1/refunds', { payment_intent_id: intentId, amount_minor: 2_500 });
      assert.equal(again.statusCode, 200, 'the amount was released');
    });

    it("stripe: the same key with the same refund replays Stripe's stored answer; another body is refused", async () => {
      const connector = createStripeConnector({
        ...FAKE_STRIPE,
        baseUrl: running.stripe.url,
        defaultReturnUrl: 'http://paygate.test/return',
        hostedFieldsUrl: null,
        live: false,
        clock: svc.clock,
      });
      const intentId = await paidIntent('stripe', 3_000);
      const { rows } = await svc.ctx.db.query<{ gateway_reference: string }>(
        "SELECT gateway_reference FROM charge_attempts WHERE payment_intent_id = $1 AND status = 'SUCCEEDED'",
        [intentId],
      );
      const request = {
        idempotencyKey: `${intentId}:refund:${freshKey('r')}`.slice(0, 59),
        refundId: 're_first_row',
        paymentIntentId: intentId,
        chargeReference: rows[0]?.gateway_reference ?? '',
        amountMinor: 1_000,
        currency: 'EUR',
        livemode: false,
      };
      const first = await connector.refund(request);
      // A new row for the same refund (the first was not taken) has a new id: the body is the same.
      const retried = await connector.refund({ ...request, refundId: 're_second_row' });
      assert.equal(first.kind, 'pending');
      assert.deepEqual(retried, first, 'the stored answer, not idempotency_error');
      const other = await connector.refund({ ...request, amountMinor: 900 });
      assert.equal(other.kind, 'failed');
      assert.match(other.kind === 'failed' ? other.message : '', /idempotency_error/);
    });

    for (const failure of ['error-after-work', 'timeout'] as const) {
      it(`adyen: a refund Adyen took but answered with ${failure} is sent again and Adyen replays its first answer`, async () => {
        const intentId = await paidIntent('adyen', 6_000);
        running.adyen.failRefunds(failure);
        const made = running.adyen.refundCount();
        const refundId = await startRefund(intentId, 2_200);
        assert.equal(running.adyen.refundCount(), made + 1);
        await reconcileLater();
        assert.equal(running.adyen.refundCount(), made + 1, 'refunded once');
        const [first, resent] = lastTwo(running.adyen.refundRequests);
        assert.equal(resent?.idempotencyKey, first?.idempotencyKey);
        assert.equal(resent?.body, first?.body, 'byte-identical');
        await settledAtGateway('adyen', refundId);
        assert.equal(await refundedMinor(intentId), 2_200);
        assert.deepEqual(await eventTypes(refundId), ['refund.succeeded']);
      });
    }

    it('adyen: a refund Adyen answered 500 for without taking it is sent again and then made', async () => {
      const intentId = await paidIntent('adyen', 6_000);
      running.adyen.failRefunds('error-before-work');
      const made = running.adyen.refundCount();
      const refundId = await startRefund(intentId, 3_100);
      assert.equal(running.adyen.refundCount(), made);
      await reconcileLater();
      assert.equal(running.adyen.refundCount(), made + 1);
      await settledAtGateway('adyen', refundId);
      assert.equal(await refundedMinor(intentId), 3_100);
    });

    it('adyen: a refund Adyen never takes is FAILED after the bounded resends, its amount released', async () => {
      const intentId = await paidIntent('adyen', 2_000);
      running.adyen.failRefunds('error-before-work', 1 + MAX_REFUND_RESENDS);
      const made = running.adyen.refundCount();
      const refundId = await startRefund(intentId, 2_000);
      for (let i = 0; i <= MAX_REFUND_RESENDS; i += 1) await reconcileLater(31 * 60);
      assert.equal(running.adyen.refundCount(), made);
      assert.equal(await refundStatus(refundId), 'FAILED');
      assert.equal(await refundedMinor(intentId), 0);
      const again = await api('POST', '/v1/refunds', { payment_intent_id: intentId, amount_minor: 2_000 });
      assert.equal(again.statusCode, 200, again.body);

      // Had Adyen made it after all, its REFUND notification would tell the operator, not pass silently.
      const { rows } = await svc.ctx.db.query<{ gateway_idempotency_key: string }>(
        'SELECT gateway_idempotency_key FROM refunds WHERE id = $1',
        [refundId],
      );
      const warning = await svc.ctx.db.transaction((tx) =>
        applyRefundNotification(svc.ctx, tx, 'adyen', {
          notificationId: 'late-refund',
          subject: 'refund',
          idempotencyKey: rows[0]?.gateway_idempotency_key ?? '',
          outcome: { kind: 'succeeded', gatewayReference: 'PSP_LATE' },
        }),
      );
      assert.match(
        warning ?? '',
        new RegExp(`refund ${refundId} .* is FAILED, but gateway adyen reports it succeeded`),
      );
      assert.equal(await refundStatus(refundId), 'FAILED');
    });
  });
}
