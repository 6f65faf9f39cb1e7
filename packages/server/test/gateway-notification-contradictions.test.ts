// Gateway notifications that contradict Paygate's books (issue 29, findings 4 and 6), against the
// Stripe and Adyen fakes on both databases: a refund the gateway reports failed after it
// succeeded, and a notification to the operator-default address about a payment made through a
// merchant's own account.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS, STRIPE_TEST_PAYMENT_METHODS } from '@paygate/gateway-fakes';
import { waitFor } from '@paygate/testing';
import type { AppLogger } from '../src/app/context.ts';
import { applyRefundOutcomeByGatewayKey } from '../src/app/refunds/refund-outcome.ts';
import { databaseKinds } from './support/databases.ts';
import {
  FAKE_ADYEN,
  FAKE_STRIPE,
  type ServiceOnFakeGateways,
  startServiceOnFakeGateways,
} from './support/fake-gateways.ts';
import { ADMIN_TOKEN, freshKey, type MerchantKeys, type TestService } from './support/service.ts';
import { adyenItem, stripeEvent } from './support/signed-notifications.ts';

for (const kind of databaseKinds()) {
  describe(`gateway notifications that contradict the books (${kind})`, () => {
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
      merchant = await svc.createMerchant('Shop on the operator accounts');
    });
    after(() => running?.close());

    const api = (method: 'GET' | 'POST', url: string, body?: unknown, who: MerchantKeys = merchant) =>
      svc.request({
        method,
        url,
        key: who.secretTest,
        ...(method === 'POST' ? { headers: { 'idempotency-key': freshKey('k') } } : {}),
        body,
      });

    async function paidIntent(gatewayId: string, token: string, amountMinor: number, who = merchant) {
      const created = await api(
        'POST',
        '/v1/payment-intents',
        { amount_minor: amountMinor, currency: 'EUR', gateway_id: gatewayId },
        who,
      );
      assert.equal(created.statusCode, 200, created.body);
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.json().id}/confirm`,
        key: who.secretTest,
        body: { payment_method_token: token },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      return confirmed.json() as { id: string; status: string };
    }

    for (const eventCode of ['REFUND_FAILED', 'REFUNDED_REVERSED']) {
      it(`adyen ${eventCode} after a succeeded refund: FAILED, amount refundable again, refund.failed, DECLINED`, async () => {
        const intent = await paidIntent('adyen', ADYEN_TEST_TOKENS.approve, 10_000);
        assert.equal(intent.status, 'SUCCEEDED');
        const created = await api('POST', '/v1/refunds', {
          payment_intent_id: intent.id,
          amount_minor: 4_000,
        });
        assert.equal(created.statusCode, 200, created.body);
        const refundId: string = created.json().id;
        running.adyen.settleRefunds();
        await running.adyen.idle();
        await waitFor(
          'refund SUCCEEDED',
          async () => (await api('GET', `/v1/refunds/${refundId}`)).json().status === 'SUCCEEDED',
        );
        assert.equal(
          (await api('GET', `/v1/payment-intents/${intent.id}`)).json().amount_refunded_minor,
          4_000,
        );

        const { rows } = await svc.ctx.db.query<{
          gateway_idempotency_key: string;
          gateway_reference: string;
        }>('SELECT gateway_idempotency_key, gateway_reference FROM refunds WHERE id = $1', [refundId]);
        const row = rows[0];
        assert.ok(row);
        const body = JSON.stringify({
          live: 'false',
          notificationItems: [
            adyenItem(
              {
                eventCode,
                success: 'true',
                pspReference: `${row.gateway_reference}X`,
                originalReference: row.gateway_reference,
                merchantReference: row.gateway_idempotency_key,
                amount: { value: 4_000, currency: 'EUR' },
                reason: 'Refund declined by the card scheme',
              },
              FAKE_ADYEN.hmacKeyHex,
            ),
          ],
        });
        const sent = await svc.app.inject({
          method: 'POST',
          url: '/gateway-notifications/adyen',
          headers: { 'content-type': 'application/json' },
          payload: body,
        });
        assert.equal(sent.statusCode, 200, sent.body);
        assert.equal(sent.body, '[accepted]');

        const refund = (await api('GET', `/v1/refunds/${refundId}`)).json();
        assert.equal(refund.status, 'FAILED', 'the gateway has the last word: no money went back');
        assert.equal((await api('GET', `/v1/payment-intents/${intent.id}`)).json().amount_refunded_minor, 0);
        const events = await svc.ctx.db.query<{ type: string }>(
          'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
          [refundId],
        );
        assert.deepEqual(
          events.rows.map((e) => e.type),
          ['refund.succeeded', 'refund.failed'],
        );
        const transactions = await svc.ctx.db.query<{ status: string }>(
          "SELECT status FROM transactions WHERE refund_id = $1 AND type = 'REFUND'",
          [refundId],
        );
        assert.deepEqual(
          transactions.rows.map((t) => t.status),
          ['DECLINED'],
        );
        // A redelivery changes nothing more; and the whole amount can be refunded again.
        await svc.app.inject({
          method: 'POST',
          url: '/gateway-notifications/adyen',
          headers: { 'content-type': 'application/json' },
          payload: body,
        });
        const again = await svc.ctx.db.query('SELECT 1 FROM events WHERE object_id = $1', [refundId]);
        assert.equal(again.rows.length, 2);
        const whole = await api('POST', '/v1/refunds', {
          payment_intent_id: intent.id,
          amount_minor: 10_000,
        });
        assert.equal(whole.statusCode, 200, whole.body);
      });
    }

    it("the operator-default address does not move a payment made through a merchant's own account", async () => {
      const own = await svc.createMerchant('Shop with its own Stripe account');
      const ownSecret = 'whsec_merchantsOwnAccount01';
      const added = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${own.id}/gateway-accounts`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: {
          livemode: false,
          connector: 'stripe',
          gateway_id: 'stripe',
          credentials: { secret_key: FAKE_STRIPE.secretKey, webhook_secret: ownSecret },
          settings: { api_url: running.stripe.url },
        },
      });
      assert.equal(added.statusCode, 201, added.body);
      const intent = await paidIntent('stripe', STRIPE_TEST_PAYMENT_METHODS.challenge, 5_000, own);
      assert.equal(intent.status, 'REQUIRES_ACTION');
      const statusNow = async () =>
        (await api('GET', `/v1/payment-intents/${intent.id}`, undefined, own)).json().status;
      const succeeded = (secret: string) =>
        stripeEvent(secret, svc.clock.now(), 'payment_intent.succeeded', {
          id: 'pi_fromTheGateway',
          status: 'succeeded',
          amount: 5_000,
          amount_received: 5_000,
          currency: 'eur',
          metadata: { paygate_idempotency_key: `${intent.id}:attempt:1` },
        });
      const post = (address: string, event: ReturnType<typeof stripeEvent>) =>
        svc.app.inject({
          method: 'POST',
          url: `/gateway-notifications/${address}`,
          headers: event.headers,
          payload: event.payload,
        });

      const toDefault = await post('stripe', succeeded(FAKE_STRIPE.webhookSecret));
      assert.equal(toDefault.statusCode, 200, toDefault.body);
      assert.equal(await statusNow(), 'REQUIRES_ACTION', "the operator's account did not take this payment");
      const toOwn = await post(added.json().id, succeeded(ownSecret));
      assert.equal(toOwn.statusCode, 200, toOwn.body);
      assert.equal(await statusNow(), 'SUCCEEDED', "the merchant's own account did");

      // The operator-default address still moves the payments made through it.
      const onDefault = await paidIntent('stripe', STRIPE_TEST_PAYMENT_METHODS.challenge, 5_000);
      assert.equal(onDefault.status, 'REQUIRES_ACTION');
      const event = stripeEvent(FAKE_STRIPE.webhookSecret, svc.clock.now(), 'payment_intent.succeeded', {
        id: 'pi_fromTheGateway2',
        status: 'succeeded',
        amount: 5_000,
        amount_received: 5_000,
        currency: 'eur',
        metadata: { paygate_idempotency_key: `${onDefault.id}:attempt:1` },
      });
      assert.equal((await post('stripe', event)).statusCode, 200);
      assert.equal((await api('GET', `/v1/payment-intents/${onDefault.id}`)).json().status, 'SUCCEEDED');
    });
    /** The first attempt's key and gateway reference of an intent. */
    async function attemptOf(intentId: string) {
      const { rows } = await svc.ctx.db.query<{ idempotency_key: string; gateway_reference: string }>(
        'SELECT idempotency_key, gateway_reference FROM charge_attempts WHERE payment_intent_id = $1',
        [intentId],
      );
      assert.ok(rows[0], `no attempt of ${intentId}`);
      return rows[0];
    }

    async function expectRefusedCapture(
      intentId: string,
      captured: { amount_minor: number; currency: string },
    ) {
      const intent = (await api('GET', `/v1/payment-intents/${intentId}`)).json();
      assert.equal(intent.status, 'FAILED', "another amount is never the intent's success");
      assert.equal(intent.last_payment_error?.code, 'gateway_rejected');
      assert.match(
        intent.last_payment_error?.message,
        new RegExp(`captured ${captured.amount_minor} ${captured.currency}`),
      );
      const { rows } = await svc.ctx.db.query<{ amount_minor: string; currency: string }>(
        'SELECT amount_minor, currency FROM late_captures WHERE payment_intent_id = $1',
        [intentId],
      );
      assert.deepEqual(
        rows.map((r) => ({ amount_minor: Number(r.amount_minor), currency: r.currency })),
        [captured],
        'what the gateway captured is recorded for the operator and refunded',
      );
      const events = await svc.ctx.db.query<{ type: string }>(
        'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
        [intentId],
      );
      assert.ok(events.rows.some((e) => e.type === 'payment_intent.failed'));
      assert.ok(!events.rows.some((e) => e.type === 'payment_intent.succeeded'));
      assert.ok(events.rows.some((e) => e.type === 'payment_intent.late_captured'));
      // In the books as the gateway's report shows it: the PAYMENT of what was captured, APPROVED,
      // and its automatic refund of the same, PENDING until the gateway settles it.
      const ledger = await svc.ctx.db.query<{
        type: string;
        status: string;
        amount_minor: string;
        currency: string;
      }>('SELECT type, status, amount_minor, currency FROM transactions WHERE payment_intent_id = $1', [
        intentId,
      ]);
      const books = ledger.rows
        .map((t) => `${t.type} ${t.status} ${Number(t.amount_minor)} ${t.currency}`)
        .sort();
      assert.deepEqual(books, [
        `PAYMENT APPROVED ${captured.amount_minor} ${captured.currency}`,
        `REFUND PENDING ${captured.amount_minor} ${captured.currency}`,
      ]);
      const refunds = await svc.ctx.db.query<{ amount_minor: string; currency: string; metadata: unknown }>(
        'SELECT amount_minor, currency, metadata FROM refunds WHERE payment_intent_id = $1',
        [intentId],
      );
      assert.equal(refunds.rows.length, 1, 'one automatic refund');
      assert.equal(Number(refunds.rows[0]?.amount_minor), captured.amount_minor);
      assert.equal(refunds.rows[0]?.currency, captured.currency);
    }

    /**
     * Settles an intent's automatic late-capture refund as the gateway's answer would: the refund
     * SUCCEEDED, its REFUND APPROVED, and the intent's refunded amount counts it only when it is in
     * the intent's currency and within its amount.
     */
    async function settleAutomaticRefund(intentId: string, gatewayId: string, countsOnIntent: number) {
      const { rows } = await svc.ctx.db.query<{
        id: string;
        gateway_idempotency_key: string;
        amount_minor: string;
        currency: string;
      }>(
        'SELECT id, gateway_idempotency_key, amount_minor, currency FROM refunds WHERE payment_intent_id = $1',
        [intentId],
      );
      const refund = rows[0];
      assert.ok(refund);
      await svc.ctx.db.transaction((tx) =>
        applyRefundOutcomeByGatewayKey(svc.ctx, tx, gatewayId, refund.gateway_idempotency_key, {
          kind: 'succeeded',
          gatewayReference: `ref_${refund.id}`,
          refunded: { amountMinor: Number(refund.amount_minor), currency: refund.currency },
        }),
      );
      assert.equal((await api('GET', `/v1/refunds/${refund.id}`)).json().status, 'SUCCEEDED');
      const intent = (await api('GET', `/v1/payment-intents/${intentId}`)).json();
      assert.equal(intent.status, 'FAILED');
      assert.equal(intent.amount_refunded_minor, countsOnIntent);
    }

    it('adyen: an authorisation of 1 JPY for a 5,000 EUR intent does not make it SUCCEEDED', async () => {
      const intent = await paidIntent('adyen', ADYEN_TEST_TOKENS.challenge, 500_000);
      assert.equal(intent.status, 'REQUIRES_ACTION');
      const attempt = await attemptOf(intent.id);
      const sent = await svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/adyen',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          live: 'false',
          notificationItems: [
            adyenItem(
              {
                eventCode: 'AUTHORISATION',
                success: 'true',
                pspReference: attempt.gateway_reference,
                merchantReference: attempt.idempotency_key,
                amount: { value: 1, currency: 'JPY' },
              },
              FAKE_ADYEN.hmacKeyHex,
            ),
          ],
        }),
      });
      assert.equal(sent.statusCode, 200, sent.body);
      await expectRefusedCapture(intent.id, { amount_minor: 1, currency: 'JPY' });
      await settleAutomaticRefund(intent.id, 'adyen', 0);
    });

    // Adyen notifies as it answers: the AUTHORISATION notification may settle the charge before
    // the /payments answer is applied, or after. The confirm answers the same either way.
    for (const order of ['answer first', 'notification first'] as const) {
      const arrange = () => {
        if (order === 'answer first') running.adyen.holdNotifications();
        else running.adyen.notificationsOutrunAnswers(true);
      };
      const restore = async () => {
        running.adyen.notificationsOutrunAnswers(false);
        running.adyen.releaseNotifications();
        await running.adyen.idle();
      };

      it(`adyen, ${order}: a /payments answer that authorised another amount (a partial authorisation) does not make it SUCCEEDED`, async () => {
        const created = await api('POST', '/v1/payment-intents', {
          amount_minor: 5_000,
          currency: 'EUR',
          gateway_id: 'adyen',
        });
        assert.equal(created.statusCode, 200, created.body);
        arrange();
        const confirmed = await api('POST', `/v1/payment-intents/${created.json().id}/confirm`, {
          payment_method_token: ADYEN_TEST_TOKENS.partial,
        }).finally(restore);
        assert.equal(confirmed.statusCode, 402, 'the answer authorised 2,500 of 5,000');
        assert.equal(confirmed.json().code, 'gateway_rejected');
        assert.equal(confirmed.json().payment_intent.status, 'FAILED');
        await expectRefusedCapture(created.json().id, { amount_minor: 2_500, currency: 'EUR' });
        await settleAutomaticRefund(created.json().id, 'adyen', 2_500);
      });

      it(`adyen, ${order}: a refusal answers 402 card_declined with the failed intent`, async () => {
        const created = await api('POST', '/v1/payment-intents', {
          amount_minor: 4_000,
          currency: 'EUR',
          gateway_id: 'adyen',
        });
        assert.equal(created.statusCode, 200, created.body);
        arrange();
        const confirmed = await api('POST', `/v1/payment-intents/${created.json().id}/confirm`, {
          payment_method_token: ADYEN_TEST_TOKENS.decline,
        }).finally(restore);
        assert.equal(confirmed.statusCode, 402, confirmed.body);
        assert.equal(confirmed.json().code, 'card_declined');
        assert.equal(confirmed.json().payment_intent.status, 'FAILED');
        assert.equal(confirmed.json().payment_intent.last_payment_error.code, 'card_declined');
      });
    }

    it('stripe: a partial amount_received does not read as the full payment', async () => {
      const intent = await paidIntent('stripe', STRIPE_TEST_PAYMENT_METHODS.challenge, 5_000);
      assert.equal(intent.status, 'REQUIRES_ACTION');
      const attempt = await attemptOf(intent.id);
      const event = stripeEvent(FAKE_STRIPE.webhookSecret, svc.clock.now(), 'payment_intent.succeeded', {
        id: attempt.gateway_reference,
        status: 'succeeded',
        amount: 5_000,
        amount_received: 2_500,
        currency: 'eur',
        metadata: { paygate_idempotency_key: attempt.idempotency_key },
      });
      const sent = await svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/stripe',
        headers: event.headers,
        payload: event.payload,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      await expectRefusedCapture(intent.id, { amount_minor: 2_500, currency: 'EUR' });
    });
    /** Runs `work` with the context's log captured: the warnings it logged, with their fields. */
    async function warningsOf(work: () => Promise<unknown>) {
      const warnings: { fields: Record<string, unknown>; message: string }[] = [];
      const original: AppLogger = svc.ctx.log;
      svc.ctx.log = { warn: (fields, message) => warnings.push({ fields, message }) };
      try {
        await work();
      } finally {
        svc.ctx.log = original;
      }
      return warnings;
    }

    async function pendingAdyenRefund(amountMinor: number) {
      const intent = await paidIntent('adyen', ADYEN_TEST_TOKENS.approve, 10_000);
      const created = await api('POST', '/v1/refunds', {
        payment_intent_id: intent.id,
        amount_minor: amountMinor,
      });
      assert.equal(created.statusCode, 200, created.body);
      const refundId: string = created.json().id;
      const { rows } = await svc.ctx.db.query<{ gateway_idempotency_key: string; gateway_reference: string }>(
        'SELECT gateway_idempotency_key, gateway_reference FROM refunds WHERE id = $1',
        [refundId],
      );
      assert.ok(rows[0]);
      return { intentId: intent.id, refundId, row: rows[0] };
    }

    it('a refund answer or reconciliation read for another amount is held PENDING and logged with evidence', async () => {
      const { intentId, refundId, row } = await pendingAdyenRefund(4_000);
      // What the refund's own answer and reconciliation's sync hand to the same settling step.
      const warnings = await warningsOf(() =>
        svc.ctx.db.transaction((tx) =>
          applyRefundOutcomeByGatewayKey(svc.ctx, tx, 'adyen', row.gateway_idempotency_key, {
            kind: 'succeeded',
            gatewayReference: row.gateway_reference,
            refunded: { amountMinor: 3_500, currency: 'EUR' },
          }),
        ),
      );
      assert.equal((await api('GET', `/v1/refunds/${refundId}`)).json().status, 'PENDING');
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      const [warning] = warnings;
      assert.ok(warning);
      assert.deepEqual(warning.fields, {
        refund: refundId,
        paymentIntent: intentId,
        gateway: 'adyen',
        gatewayReference: row.gateway_reference,
        amountMinor: 4_000,
        currency: 'EUR',
        refundedMinor: 3_500,
        refundedCurrency: 'EUR',
      });
      assert.match(warning.message, /stays PENDING/);
      assert.match(warning.message, /3500 EUR/);
    });

    it('adyen: a refund reported settled for another amount stays PENDING, never SUCCEEDED', async () => {
      const intent = await paidIntent('adyen', ADYEN_TEST_TOKENS.approve, 10_000);
      const created = await api('POST', '/v1/refunds', { payment_intent_id: intent.id, amount_minor: 4_000 });
      assert.equal(created.statusCode, 200, created.body);
      const refundId: string = created.json().id;
      const { rows } = await svc.ctx.db.query<{ gateway_idempotency_key: string; gateway_reference: string }>(
        'SELECT gateway_idempotency_key, gateway_reference FROM refunds WHERE id = $1',
        [refundId],
      );
      const row = rows[0];
      assert.ok(row);
      let sent: Awaited<ReturnType<typeof svc.app.inject>> | undefined;
      const warnings = await warningsOf(async () => {
        sent = await svc.app.inject({
          method: 'POST',
          url: '/gateway-notifications/adyen',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({
            live: 'false',
            notificationItems: [
              adyenItem(
                {
                  eventCode: 'REFUND',
                  success: 'true',
                  pspReference: row.gateway_reference,
                  merchantReference: row.gateway_idempotency_key,
                  amount: { value: 3_000, currency: 'EUR' },
                },
                FAKE_ADYEN.hmacKeyHex,
              ),
            ],
          }),
        });
      });
      assert.equal(sent?.statusCode, 200, sent?.body);
      assert.equal(warnings.length, 1, 'logged once, with evidence');
      assert.equal(warnings[0]?.fields.refund, refundId);
      assert.equal((await api('GET', `/v1/refunds/${refundId}`)).json().status, 'PENDING');
      assert.equal((await api('GET', `/v1/payment-intents/${intent.id}`)).json().amount_refunded_minor, 0);
      const held = await svc.ctx.db.query<{ next_sync_at: Date | null }>(
        'SELECT next_sync_at FROM refunds WHERE id = $1',
        [refundId],
      );
      assert.equal(held.rows[0]?.next_sync_at, null, 'no longer synced: it waits for the operator');
      const events = await svc.ctx.db.query('SELECT 1 FROM events WHERE object_id = $1', [refundId]);
      assert.equal(events.rows.length, 0, 'no refund.succeeded');
    });

    it("adyen: a REFUND notification is matched by the refund's pspReference; the merchantReference of another refund is not applied", async () => {
      const intent = await paidIntent('adyen', ADYEN_TEST_TOKENS.approve, 10_000);
      const refundIds: string[] = [];
      for (const amount of [4_000, 3_000]) {
        const created = await api('POST', '/v1/refunds', {
          payment_intent_id: intent.id,
          amount_minor: amount,
        });
        assert.equal(created.statusCode, 200, created.body);
        refundIds.push(created.json().id);
      }
      const { rows } = await svc.ctx.db.query<{
        id: string;
        gateway_idempotency_key: string;
        gateway_reference: string;
      }>('SELECT id, gateway_idempotency_key, gateway_reference FROM refunds WHERE id = ANY($1)', [
        refundIds,
      ]);
      const first = rows.find((r) => r.id === refundIds[0]);
      const second = rows.find((r) => r.id === refundIds[1]);
      assert.ok(first?.gateway_reference && second?.gateway_reference);
      // The second refund's pspReference with the first one's merchantReference: they disagree.
      const sent = await svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/adyen',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          live: 'false',
          notificationItems: [
            adyenItem(
              {
                eventCode: 'REFUND',
                success: 'true',
                pspReference: second.gateway_reference,
                merchantReference: first.gateway_idempotency_key,
                amount: { value: 4_000, currency: 'EUR' },
              },
              FAKE_ADYEN.hmacKeyHex,
            ),
          ],
        }),
      });
      assert.equal(sent.statusCode, 200, sent.body);
      for (const id of refundIds) {
        assert.equal((await api('GET', `/v1/refunds/${id}`)).json().status, 'PENDING', id);
      }
      assert.equal((await api('GET', `/v1/payment-intents/${intent.id}`)).json().amount_refunded_minor, 0);
    });
  });
}
