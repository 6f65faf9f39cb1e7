// Disputes (issue 31, item 7) against the Stripe and Adyen fakes, on both databases: each fake
// opens and closes a dispute as its gateway documents (signed charge.dispute.* events; Adyen's
// NOTIFICATION_OF_CHARGEBACK, CHARGEBACK, CHARGEBACK_REVERSED, SECOND_CHARGEBACK). The books follow
// the gateway: DISPUTE when the amount is taken, DISPUTE_REVERSAL when it is returned; redelivered
// and out-of-order notifications change nothing; the merchant receives dispute.* events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS, STRIPE_TEST_PAYMENT_METHODS } from '@paygate/gateway-fakes';
import { createDeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { dashboardRequest, firstOwner } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import {
  FAKE_STRIPE,
  type ServiceOnFakeGateways,
  startServiceOnFakeGateways,
} from './support/fake-gateways.ts';
import { ADMIN_TOKEN, freshKey, type MerchantKeys, type TestService } from './support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

type Gateway = 'stripe' | 'adyen';

for (const kind of databaseKinds()) {
  describe(`disputes reported by Stripe and Adyen (${kind})`, () => {
    let running: ServiceOnFakeGateways;
    let svc: TestService;
    let merchant: MerchantKeys;
    let receiver: WebhookReceiver;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: true,
        hostedFields: false,
        defaultReturnUrl: 'http://paygate.test/return',
      });
      svc = running.svc;
      merchant = await svc.createMerchant('Shop with chargebacks');
      receiver = await startWebhookReceiver();
      const endpoint = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: {
          url: receiver.url,
          livemode: false,
          enabled_events: ['dispute.created', 'dispute.updated', 'dispute.closed'],
        },
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
    });
    after(async () => {
      await running?.close();
      await receiver?.close();
    });

    /** A payment that succeeded at the gateway: its intent id and the gateway's reference of it. */
    async function paid(
      gateway: Gateway,
      amountMinor: number,
    ): Promise<{ intentId: string; reference: string }> {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('k') },
        body: { amount_minor: amountMinor, currency: 'EUR', gateway_id: gateway },
      });
      assert.equal(created.statusCode, 200, created.body);
      const token = gateway === 'stripe' ? STRIPE_TEST_PAYMENT_METHODS.approve : ADYEN_TEST_TOKENS.approve;
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.json().id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: token },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(confirmed.json().status, 'SUCCEEDED');
      await running[gateway].idle();
      const { rows } = await svc.ctx.db.query<{ gateway_reference: string }>(
        'SELECT gateway_reference FROM charge_attempts WHERE payment_intent_id = $1',
        [confirmed.json().id],
      );
      const reference = rows[0]?.gateway_reference;
      assert.ok(reference);
      return { intentId: confirmed.json().id, reference };
    }

    async function disputeOf(intentId: string): Promise<Record<string, unknown>> {
      const { rows } = await svc.ctx.db.query<{ id: string }>(
        'SELECT id FROM disputes WHERE payment_intent_id = $1',
        [intentId],
      );
      assert.equal(rows.length, 1, `one dispute for ${intentId}`);
      const read = await svc.request({
        method: 'GET',
        url: `/v1/disputes/${rows[0]?.id}`,
        key: merchant.secretTest,
      });
      assert.equal(read.statusCode, 200, read.body);
      return read.json();
    }

    /** The intent's dispute rows in the transaction list, oldest first, read through the type filter. */
    async function disputeRows(intentId: string): Promise<string[]> {
      const rows: Array<{ type: string; created_at: string; amount_minor: number; status: string }> = [];
      for (const type of ['DISPUTE', 'DISPUTE_REVERSAL']) {
        const list = await svc.request({
          method: 'GET',
          url: `/v1/transactions?type=${type}&limit=100`,
          key: merchant.secretTest,
        });
        assert.equal(list.statusCode, 200, list.body);
        for (const row of list.json().data) {
          assert.equal(row.type, type, 'the filter returns only its type');
          if (row.payment_intent_id !== intentId) continue;
          assert.equal(row.status, 'APPROVED');
          assert.equal(row.refund_id, null);
          rows.push(row);
        }
      }
      return rows
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || (a.type === 'DISPUTE' ? -1 : 1))
        .map((row) => `${row.type} ${row.amount_minor}`);
    }

    async function eventTypes(disputeId: unknown): Promise<string[]> {
      const { rows } = await svc.ctx.db.query<{ type: string }>(
        'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
        [disputeId],
      );
      return rows.map((row) => row.type).sort();
    }

    it('Stripe: opened, evidence submitted, won: DISPUTE then DISPUTE_REVERSAL, and the events are delivered', async () => {
      const { intentId, reference } = await paid('stripe', 4_200);
      const stripeDispute = running.stripe.openDispute(reference, 'product_not_received');
      assert.ok(stripeDispute);
      await running.stripe.idle();
      const opened = await disputeOf(intentId);
      assert.equal(opened.status, 'NEEDS_RESPONSE');
      assert.equal(opened.reason, 'product_not_received');
      assert.equal(opened.amount_minor, 4_200);
      assert.equal(opened.currency, 'EUR');
      assert.equal(opened.gateway_id, 'stripe');
      assert.match(String(opened.id), /^dp_[0-9A-Za-z]{24}$/);
      assert.ok(opened.evidence_due_by, 'Stripe gives an evidence due date');
      assert.equal(opened.version, 1, 'funds_withdrawn repeated what created said: no change');
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 4200']);

      assert.equal(running.stripe.submitDisputeEvidence(stripeDispute), true);
      await running.stripe.idle();
      assert.equal((await disputeOf(intentId)).status, 'UNDER_REVIEW');

      assert.equal(running.stripe.closeDispute(stripeDispute, 'won'), true);
      await running.stripe.idle();
      const won = await disputeOf(intentId);
      assert.equal(won.status, 'WON');
      assert.equal(won.version, 3);
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 4200', 'DISPUTE_REVERSAL 4200']);
      assert.deepEqual(await eventTypes(won.id), ['dispute.closed', 'dispute.created', 'dispute.updated']);
      assert.ok(
        running.stripe.delivered.every((d) => d.status === 200),
        JSON.stringify(running.stripe.delivered),
      );

      const worker = createDeliveryWorker(svc.ctx, { timeoutMs: 2000 });
      try {
        await worker.runOnce();
      } finally {
        await worker.stop();
      }
      const delivered = receiver.received
        .map((d) => JSON.parse(d.rawBody.toString('utf8')))
        .filter((event) => event.data.object.id === won.id);
      assert.deepEqual(
        delivered.map((event) => [event.type, event.data.object.status, event.data.object.version]).sort(),
        [
          ['dispute.closed', 'WON', 3],
          ['dispute.created', 'NEEDS_RESPONSE', 1],
          ['dispute.updated', 'UNDER_REVIEW', 2],
        ],
      );
    });

    it('Stripe: opened then lost: one DISPUTE, nothing returned', async () => {
      const { intentId, reference } = await paid('stripe', 1_500);
      const stripeDispute = running.stripe.openDispute(reference);
      assert.ok(stripeDispute);
      assert.equal(running.stripe.closeDispute(stripeDispute, 'lost'), true);
      await running.stripe.idle();
      const lost = await disputeOf(intentId);
      assert.equal(lost.status, 'LOST');
      assert.equal(lost.reason, 'fraudulent');
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 1500']);

      // The payment's page in the dashboard lists it, and its API carries it.
      const owner = await firstOwner(svc, merchant.id, `owner-${kind}@disputes.example`);
      const page = await dashboardRequest(svc, owner, 'GET', `/dashboard/test/payments/${intentId}?lang=en`);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h2>Disputes \(chargebacks\)<\/h2>/);
      assert.match(
        page.body,
        new RegExp(
          `<code>${lost.id}</code></td><td><span class="badge bad" data-status="LOST">Lost</span></td>`,
        ),
      );
      const api = await dashboardRequest(svc, owner, 'GET', `/dashboard/api/v1/test/payments/${intentId}`);
      assert.equal(api.statusCode, 200, api.body);
      assert.deepEqual(api.json().disputes, [lost]);
      assert.ok(api.json().events.some((e: { type: string }) => e.type === 'dispute.closed'));
    });

    it('Stripe: every event delivered again changes nothing and writes no second row', async () => {
      const { intentId, reference } = await paid('stripe', 2_000);
      const stripeDispute = running.stripe.openDispute(reference);
      assert.ok(stripeDispute);
      assert.equal(running.stripe.closeDispute(stripeDispute, 'won'), true);
      await running.stripe.idle();
      const before = await disputeOf(intentId);
      const eventsBefore = await eventTypes(before.id);
      assert.equal(running.stripe.resendNotifications(5), 5);
      await running.stripe.idle();
      assert.deepEqual(await disputeOf(intentId), before);
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 2000', 'DISPUTE_REVERSAL 2000']);
      assert.deepEqual(await eventTypes(before.id), eventsBefore);
    });

    it('Stripe: events that arrive last first never move a closed dispute back', async () => {
      const { intentId, reference } = await paid('stripe', 2_500);
      running.stripe.holdNotifications();
      const stripeDispute = running.stripe.openDispute(reference);
      assert.ok(stripeDispute);
      assert.equal(running.stripe.submitDisputeEvidence(stripeDispute), true);
      assert.equal(running.stripe.closeDispute(stripeDispute, 'lost'), true);
      assert.equal(running.stripe.releaseNotifications('last_first'), 4);
      await running.stripe.idle();
      const lost = await disputeOf(intentId);
      assert.equal(lost.status, 'LOST');
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 2500']);
      const events = await eventTypes(lost.id);
      assert.equal(events.filter((type) => type === 'dispute.created').length, 1);
      assert.equal(events.filter((type) => type === 'dispute.closed').length, 1);
    });

    it('Stripe: a dispute of a payment Paygate never made is acknowledged and logged, nothing recorded', async () => {
      // A payment made at Stripe directly (its dashboard, another integration): no key of Paygate's.
      const made = await fetch(`${running.stripe.url}/v1/payment_intents`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${FAKE_STRIPE.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          amount: '900',
          currency: 'eur',
          payment_method: STRIPE_TEST_PAYMENT_METHODS.approve,
          confirm: 'true',
        }).toString(),
      });
      assert.equal(made.status, 200);
      const foreign = (await made.json()) as { id: string };
      await running.stripe.idle();
      const answered = running.stripe.delivered.length;
      assert.ok(running.stripe.openDispute(foreign.id));
      await running.stripe.idle();
      const answers = running.stripe.delivered.slice(answered);
      assert.equal(answers.length, 2);
      assert.ok(
        answers.every((d) => d.status === 200),
        JSON.stringify(answers),
      );
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM disputes WHERE gateway_id = 'stripe' AND amount_minor = 900",
      );
      assert.equal(rows[0]?.n, 0);
    });

    it('Adyen: announced, charged back, reversed: DISPUTE then DISPUTE_REVERSAL', async () => {
      const { intentId, reference } = await paid('adyen', 3_300);
      const adyenDispute = running.adyen.openDispute(reference, '13.1');
      assert.ok(adyenDispute);
      await running.adyen.idle();
      const opened = await disputeOf(intentId);
      assert.equal(opened.status, 'NEEDS_RESPONSE');
      assert.equal(opened.reason, 'product_not_received');
      assert.equal(opened.amount_minor, 3_300);
      assert.ok(opened.evidence_due_by, 'defensePeriodEndsAt');
      assert.deepEqual(
        await disputeRows(intentId),
        ['DISPUTE 3300'],
        'the CHARGEBACK debits; the announcement did not',
      );

      assert.equal(running.adyen.closeDispute(adyenDispute, 'won'), true);
      await running.adyen.idle();
      assert.equal((await disputeOf(intentId)).status, 'WON');
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 3300', 'DISPUTE_REVERSAL 3300']);
      assert.ok(running.adyen.delivered.every((d) => d.status === 200 && d.body === '[accepted]'));
    });

    it('Adyen: charged back then lost: one DISPUTE; redelivered notifications change nothing', async () => {
      const { intentId, reference } = await paid('adyen', 1_800);
      const adyenDispute = running.adyen.openDispute(reference, '4837');
      assert.ok(adyenDispute);
      assert.equal(running.adyen.closeDispute(adyenDispute, 'lost'), true);
      await running.adyen.idle();
      const lost = await disputeOf(intentId);
      assert.equal(lost.status, 'LOST');
      assert.equal(lost.reason, 'fraudulent');
      assert.equal(running.adyen.resendNotifications(3), 3);
      await running.adyen.idle();
      assert.deepEqual(await disputeOf(intentId), lost);
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 1800']);
    });

    it('Adyen: a second chargeback after a win takes the amount again and ends LOST', async () => {
      const { intentId, reference } = await paid('adyen', 2_200);
      const adyenDispute = running.adyen.openDispute(reference);
      assert.ok(adyenDispute);
      assert.equal(running.adyen.closeDispute(adyenDispute, 'won'), true);
      await running.adyen.idle();
      assert.equal(running.adyen.secondChargeback(adyenDispute), true);
      await running.adyen.idle();
      assert.equal((await disputeOf(intentId)).status, 'LOST');
      assert.deepEqual(await disputeRows(intentId), [
        'DISPUTE 2200',
        'DISPUTE_REVERSAL 2200',
        'DISPUTE 2200',
      ]);
    });

    it('Adyen: a reversal that is not final (Pending) returns the amount and stays open; a second chargeback ends LOST and takes it again', async () => {
      const { intentId, reference } = await paid('adyen', 2_700);
      const adyenDispute = running.adyen.openDispute(reference);
      assert.ok(adyenDispute);
      assert.equal(running.adyen.reverseChargeback(adyenDispute), true);
      await running.adyen.idle();
      const reversed = await disputeOf(intentId);
      assert.equal(reversed.status, 'UNDER_REVIEW', 'CHARGEBACK_REVERSED Pending is not final');
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 2700', 'DISPUTE_REVERSAL 2700']);
      // The fake posts its three notifications at once, and Adyen promises no order: a CHARGEBACK
      // that lands before its NOTIFICATION_OF_CHARGEBACK opens the dispute itself, and the late
      // announcement then changes nothing. So one dispute.created, and one dispute.updated or two.
      const opened = await eventTypes(reversed.id);
      assert.equal(opened.filter((type) => type === 'dispute.created').length, 1, String(opened));
      assert.ok(
        opened.length >= 2 && opened.slice(1).every((type) => type === 'dispute.updated'),
        String(opened),
      );
      assert.equal(running.adyen.resendNotifications(3), 3);
      await running.adyen.idle();
      assert.deepEqual(await disputeOf(intentId), reversed, 'redelivered notifications change nothing');

      assert.equal(running.adyen.secondChargeback(adyenDispute), true);
      await running.adyen.idle();
      const lost = await disputeOf(intentId);
      assert.equal(lost.status, 'LOST');
      assert.deepEqual(await disputeRows(intentId), [
        'DISPUTE 2700',
        'DISPUTE_REVERSAL 2700',
        'DISPUTE 2700',
      ]);
      assert.deepEqual(await eventTypes(lost.id), ['dispute.closed', ...opened], 'closed once, nothing else');
    });

    it('Adyen: a reversal that is not final, then won: the amount returned once, closed WON', async () => {
      const { intentId, reference } = await paid('adyen', 2_900);
      const adyenDispute = running.adyen.openDispute(reference);
      assert.ok(adyenDispute);
      assert.equal(running.adyen.reverseChargeback(adyenDispute), true);
      assert.equal(running.adyen.closeDispute(adyenDispute, 'won'), true);
      await running.adyen.idle();
      assert.equal((await disputeOf(intentId)).status, 'WON');
      assert.deepEqual(await disputeRows(intentId), ['DISPUTE 2900', 'DISPUTE_REVERSAL 2900']);
    });
  });
}
