import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lateCaptureRefundKey } from '../src/app/late-captures/record-late-capture.ts';
import { repairLateCaptures } from '../src/app/late-captures/repair-late-captures.ts';
import { expireDueIntents } from '../src/app/payments/expire-payment-intents.ts';
import { reconcileOpenCharges } from '../src/app/payments/settle-open-charges.ts';
import { reconcilePendingRefunds } from '../src/app/refunds/reconcile-refunds.ts';
import { applyRefundOutcomeByGatewayKey } from '../src/app/refunds/refund-outcome.ts';
import { claimRefundsDueForSync } from '../src/storage/repositories/refunds.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

interface LateCaptureJson {
  id: string;
  object: string;
  payment_intent_id: string;
  attempt_number: number;
  amount_minor: number;
  currency: string;
  intent_status: string;
  detected_by: string;
  repair_status: string;
  refund_reference: string | null;
  failure_message: string | null;
  tries: number;
}

for (const kind of databaseKinds()) {
  describe(`late captures (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Late shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    /** An intent waiting for the payer on the simulator's challenge page; returns the page's address. */
    async function waitingForPayer(
      overrides: Record<string, unknown> = {},
    ): Promise<{ intent: IntentJson; page: string }> {
      const intent = await pay.create(overrides);
      const confirmed = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_challenge' });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const waiting: IntentJson = confirmed.json();
      assert.equal(waiting.status, 'REQUIRES_ACTION');
      assert.ok(waiting.redirect_url);
      return { intent: waiting, page: waiting.redirect_url };
    }

    /** The payer approves on the simulator's page, which notifies the service. */
    async function payerApproves(page: string): Promise<void> {
      const answered = await fetch(page, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ decision: 'approve' }).toString(),
        redirect: 'manual',
      });
      // No return_url on these intents: the simulator shows its own page instead of redirecting.
      assert.equal(answered.status, 200);
      await svc.sim.idle();
    }

    async function cancel(id: string): Promise<void> {
      const canceled = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/cancel`,
        key: merchant.secretTest,
      });
      assert.equal(canceled.json().status, 'CANCELED', canceled.body);
    }

    const admin = (url: string, token: string | null = ADMIN_TOKEN) =>
      svc.request({ method: 'GET', url, headers: token ? { 'x-admin-token': token } : {} });

    async function lateCaptureOf(paymentIntentId: string): Promise<LateCaptureJson> {
      const list = await admin('/admin/v1/late-captures?limit=100');
      assert.equal(list.statusCode, 200, list.body);
      const found = (list.json().data as LateCaptureJson[]).find(
        (c) => c.payment_intent_id === paymentIntentId,
      );
      assert.ok(found, `a late capture of ${paymentIntentId} is listed`);
      return found;
    }

    /** What the simulator's books say was captured and refunded on the intent's (only) charge. */
    async function gatewayCharge(
      paymentIntentId: string,
    ): Promise<{ status: string; amount_refunded_minor: number }> {
      const attempt = (await pay.attempts(paymentIntentId))[0];
      assert.ok(attempt?.gatewayReference);
      const response = await fetch(`${svc.sim.url}/v1/charges/${attempt.gatewayReference}`, {
        headers: { authorization: `Bearer ${svc.simApiSecret}` },
      });
      assert.equal(response.status, 200);
      return (await response.json()) as { status: string; amount_refunded_minor: number };
    }

    /** The repair worker, then the refund reconciliation that finishes the automatic refunds. */
    async function repairAll(): Promise<void> {
      await repairLateCaptures(svc.ctx, 100);
      await reconcilePendingRefunds(svc.ctx, 100);
      await svc.sim.idle();
    }

    interface BookLine {
      type: string;
      status: string;
      amount_minor: number;
      refund_id: string | null;
    }

    /** The intent's lines of the merchant's transaction list, oldest first. */
    async function booksOf(paymentIntentId: string): Promise<BookLine[]> {
      const listed = await svc.request({
        method: 'GET',
        url: '/v1/transactions?limit=100',
        key: merchant.secretTest,
      });
      assert.equal(listed.statusCode, 200, listed.body);
      return (listed.json().data as (BookLine & { payment_intent_id: string })[])
        .filter((t) => t.payment_intent_id === paymentIntentId)
        .reverse()
        .map(({ type, status, amount_minor, refund_id }) => ({ type, status, amount_minor, refund_id }));
    }

    /** The automatic refund of an intent's late capture, as the merchant API shows it. */
    async function automaticRefund(paymentIntentId: string): Promise<Record<string, unknown>> {
      const line = (await booksOf(paymentIntentId)).find((t) => t.type === 'REFUND');
      assert.ok(line?.refund_id, 'the late capture has a REFUND line with its refund');
      const refund = await svc.request({
        method: 'GET',
        url: `/v1/refunds/${line.refund_id}`,
        key: merchant.secretTest,
      });
      assert.equal(refund.statusCode, 200, refund.body);
      return refund.json();
    }

    it('records an approval that arrives after a cancel, refunds it at the gateway and tells the merchant', async () => {
      const { intent, page } = await waitingForPayer({ amount_minor: 2600 });
      await cancel(intent.id);
      await payerApproves(page);

      assert.equal(
        (await pay.retrieve(intent.id)).status,
        'CANCELED',
        'the intent stays as the merchant left it',
      );
      const recorded = await lateCaptureOf(intent.id);
      assert.match(recorded.id, /^lc_[0-9A-Za-z]{24}$/);
      assert.equal(recorded.object, 'late_capture');
      assert.equal(recorded.amount_minor, 2600);
      assert.equal(recorded.currency, 'USD');
      assert.equal(recorded.intent_status, 'CANCELED');
      assert.equal(recorded.detected_by, 'notification');
      assert.equal(recorded.repair_status, 'REFUND_DUE');
      assert.equal((await gatewayCharge(intent.id)).amount_refunded_minor, 0, 'the gateway holds the money');
      // The books show what the gateway's settlement report will: the capture, and its refund under way.
      const before = await booksOf(intent.id);
      assert.deepEqual(
        before.map(({ type, status, amount_minor }) => [type, status, amount_minor]),
        [
          ['PAYMENT', 'APPROVED', 2600],
          ['REFUND', 'PENDING', 2600],
        ],
      );
      const pendingRefund = await automaticRefund(intent.id);
      assert.equal(pendingRefund.status, 'PENDING');
      assert.equal(pendingRefund.amount_minor, 2600);
      assert.deepEqual(pendingRefund.metadata, { paygate_late_capture: recorded.id });

      await repairAll();
      const repaired: LateCaptureJson = (await admin(`/admin/v1/late-captures/${recorded.id}`)).json();
      assert.equal(repaired.repair_status, 'REFUNDED');
      assert.ok(repaired.refund_reference);
      assert.equal(
        (await gatewayCharge(intent.id)).amount_refunded_minor,
        2600,
        'refunded in full at the gateway',
      );
      assert.deepEqual(await pay.eventTypes(intent.id), [
        'payment_intent.requires_action',
        'payment_intent.canceled',
        'payment_intent.late_captured',
        'payment_intent.late_capture_refunded',
      ]);
      const intentAfter = await pay.retrieve(intent.id);
      assert.equal(intentAfter.status, 'CANCELED', 'the merchant canceled; the status says so');
      assert.equal(intentAfter.amount_refunded_minor, 2600, 'what came in went back out');
      const refund = await automaticRefund(intent.id);
      assert.equal(refund.status, 'SUCCEEDED');
      assert.deepEqual(await pay.eventTypes(String(refund.id)), ['refund.succeeded']);
      assert.deepEqual(
        (await booksOf(intent.id)).map(({ type, status, amount_minor }) => [type, status, amount_minor]),
        [
          ['PAYMENT', 'APPROVED', 2600],
          ['REFUND', 'APPROVED', 2600],
        ],
      );

      // The same capture reported again (a redelivery with a new id, a repeated sync) changes nothing.
      await repairAll();
      assert.equal((await gatewayCharge(intent.id)).amount_refunded_minor, 2600);
      assert.equal((await pay.eventTypes(intent.id)).length, 4);
      assert.equal((await booksOf(intent.id)).length, 2, 'one PAYMENT, one REFUND');
    });

    it('records and refunds a success that arrives after the intent expired', async () => {
      const { intent, page } = await waitingForPayer({ amount_minor: 3000, expires_in_seconds: 60 });
      svc.clock.advance(61);
      await expireDueIntents(svc.ctx, 100);
      assert.equal((await pay.retrieve(intent.id)).status, 'EXPIRED');
      await payerApproves(page);
      const recorded = await lateCaptureOf(intent.id);
      assert.equal(recorded.intent_status, 'EXPIRED');
      await repairAll();
      assert.equal((await lateCaptureOf(intent.id)).repair_status, 'REFUNDED');
      assert.equal((await gatewayCharge(intent.id)).amount_refunded_minor, 3000);
      assert.deepEqual((await pay.eventTypes(intent.id)).slice(-3), [
        'payment_intent.expired',
        'payment_intent.late_captured',
        'payment_intent.late_capture_refunded',
      ]);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 3000);
    });

    it('finds an approval after a cancel whose notification was lost, by reconciliation of the abandoned charge', async () => {
      const { intent, page } = await waitingForPayer({ amount_minor: 2900 });
      await cancel(intent.id);
      svc.sim.setNotificationUrl(null);
      try {
        await payerApproves(page);
      } finally {
        svc.sim.setNotificationUrl(`${svc.baseUrl}/gateway-notifications/sim`);
      }
      const none = await admin('/admin/v1/late-captures?limit=100');
      assert.equal(
        (none.json().data as LateCaptureJson[]).some((c) => c.payment_intent_id === intent.id),
        false,
        'nothing told Paygate yet',
      );
      svc.clock.advance(601);
      await reconcileOpenCharges(svc.ctx, 100);
      const recorded = await lateCaptureOf(intent.id);
      assert.equal(recorded.detected_by, 'sync');
      assert.equal(recorded.intent_status, 'CANCELED');
      assert.equal((await pay.attempts(intent.id))[0]?.nextCheckAt, null, 'the watch ends with the answer');
      await repairAll();
      assert.equal((await lateCaptureOf(intent.id)).repair_status, 'REFUNDED');
      assert.equal((await gatewayCharge(intent.id)).amount_refunded_minor, 2900);
    });

    it('finishes an automatic refund a crash interrupted, refunding once', async () => {
      const { intent, page } = await waitingForPayer({ amount_minor: 2700 });
      await cancel(intent.id);
      await payerApproves(page);
      const refund = await automaticRefund(intent.id);

      // A refund worker claims the refund and dies: the lease keeps others away until it runs out.
      const now = svc.clock.now();
      await svc.ctx.db.transaction((tx) =>
        claimRefundsDueForSync(tx, now, new Date(now.getTime() + 60_000), 100),
      );
      await repairAll();
      assert.equal((await automaticRefund(intent.id)).status, 'PENDING');

      // The next one sends the refund and dies before it records the answer.
      const attempt = (await pay.attempts(intent.id))[0];
      assert.ok(attempt?.gatewayReference);
      const connector = svc.ctx.gateways.get('sim');
      assert.ok(connector);
      const sent = await connector.refund({
        idempotencyKey: lateCaptureRefundKey(attempt),
        refundId: String(refund.id),
        paymentIntentId: intent.id,
        chargeReference: attempt.gatewayReference,
        amountMinor: 2700,
        currency: 'USD',
        livemode: false,
      });
      assert.equal(sent.kind, 'succeeded');
      assert.equal((await lateCaptureOf(intent.id)).repair_status, 'REFUND_DUE');

      svc.clock.advance(61);
      await repairAll();
      assert.equal((await lateCaptureOf(intent.id)).repair_status, 'REFUNDED');
      assert.equal((await automaticRefund(intent.id)).status, 'SUCCEEDED');
      assert.equal((await gatewayCharge(intent.id)).amount_refunded_minor, 2700, 'refunded once, not twice');
      assert.equal(
        (await pay.eventTypes(intent.id)).filter((t) => t === 'payment_intent.late_capture_refunded').length,
        1,
      );
    });

    it('enters a capture recorded by an older release in the books when its repair comes due', async () => {
      const { intent, page } = await waitingForPayer({ amount_minor: 2750 });
      await cancel(intent.id);
      await payerApproves(page);
      // As an older release left it: the late capture due for repair, and nothing in the books.
      const refundId = String((await automaticRefund(intent.id)).id);
      await svc.ctx.db.query('DELETE FROM transactions WHERE refund_id = $1', [refundId]);
      await svc.ctx.db.query('DELETE FROM refunds WHERE id = $1', [refundId]);
      await svc.ctx.db.query(
        `UPDATE transactions SET status = 'DECLINED' WHERE payment_intent_id = $1 AND type = 'PAYMENT'`,
        [intent.id],
      );
      await svc.ctx.db.query('UPDATE late_captures SET next_repair_at = $2 WHERE payment_intent_id = $1', [
        intent.id,
        svc.clock.now(),
      ]);
      await repairAll();
      assert.equal((await lateCaptureOf(intent.id)).repair_status, 'REFUNDED');
      assert.deepEqual(
        (await booksOf(intent.id)).map(({ type, status }) => [type, status]),
        [
          ['PAYMENT', 'APPROVED'],
          ['REFUND', 'APPROVED'],
        ],
      );
      assert.equal((await gatewayCharge(intent.id)).amount_refunded_minor, 2750);
    });

    it('a repair refund the gateway settles later is finished by its notification', async () => {
      const { intent, page } = await waitingForPayer({ amount_minor: 2800 });
      await cancel(intent.id);
      await payerApproves(page);
      const recorded = await lateCaptureOf(intent.id);
      const attempt = (await pay.attempts(intent.id))[0];
      assert.ok(attempt);
      // A gateway that takes the refund and settles it later (the simulator settles refunds by
      // amount, and an amount ending in 13 would delay the charge itself).
      await svc.ctx.db.transaction((tx) =>
        applyRefundOutcomeByGatewayKey(svc.ctx, tx, 'sim', lateCaptureRefundKey(attempt), {
          kind: 'pending',
          gatewayReference: 'rf_later',
        }),
      );
      const pending = await lateCaptureOf(intent.id);
      assert.equal(pending.repair_status, 'REFUND_PENDING');
      assert.equal(pending.refund_reference, 'rf_later');
      assert.equal((await pay.eventTypes(intent.id)).includes('payment_intent.late_capture_refunded'), false);

      const notified = await pay.notify(
        JSON.stringify({
          id: `ntf_late_${recorded.id}`,
          object: 'notification',
          subject: 'refund',
          created: 1_767_225_600,
          data: {
            object: 'refund',
            id: 'rf_later',
            idempotency_key: lateCaptureRefundKey(attempt),
            charge: attempt.gatewayReference,
            amount_minor: 2800,
            currency: 'USD',
            status: 'succeeded',
            failure_message: null,
            created: 1_767_225_600,
          },
        }),
      );
      assert.equal(notified.statusCode, 200, notified.body);
      assert.equal((await lateCaptureOf(intent.id)).repair_status, 'REFUNDED');
      assert.equal((await automaticRefund(intent.id)).status, 'SUCCEEDED');
      assert.equal((await pay.eventTypes(intent.id)).at(-1), 'payment_intent.late_capture_refunded');
    });

    it('shows the operator a repair the gateway refused, and stops retrying it', async () => {
      const { intent, page } = await waitingForPayer({ amount_minor: 2599 });
      await cancel(intent.id);
      await payerApproves(page);
      await repairAll();
      const failed = await lateCaptureOf(intent.id);
      assert.equal(failed.repair_status, 'REFUND_FAILED');
      assert.ok(failed.failure_message);
      const listed = (await admin('/admin/v1/late-captures?repair_status=REFUND_FAILED')).json()
        .data as LateCaptureJson[];
      assert.ok(listed.some((c) => c.id === failed.id));
      assert.ok(listed.every((c) => c.repair_status === 'REFUND_FAILED'));
      svc.clock.advance(7200);
      await repairAll();
      assert.equal((await lateCaptureOf(intent.id)).tries, failed.tries, 'no more tries');
      assert.equal((await pay.eventTypes(intent.id)).includes('payment_intent.late_capture_refunded'), false);
      const refund = await automaticRefund(intent.id);
      assert.equal(refund.status, 'FAILED', 'the automatic refund failed as the gateway said');
      assert.deepEqual(await pay.eventTypes(String(refund.id)), ['refund.failed']);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 0);
      assert.deepEqual(
        (await booksOf(intent.id)).map(({ type, status }) => [type, status]),
        [
          ['PAYMENT', 'APPROVED'],
          ['REFUND', 'DECLINED'],
        ],
      );
    });

    it('guards the operator API: 401 without the token, 404 for an unknown id, 400 for a bad filter', async () => {
      assert.equal((await admin('/admin/v1/late-captures', null)).statusCode, 401);
      assert.equal((await admin('/admin/v1/late-captures', 'wrong-token')).statusCode, 401);
      const missing = await admin('/admin/v1/late-captures/lc_000000000000000000000000');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().code, 'resource_not_found');
      const bad = await admin('/admin/v1/late-captures?repair_status=DONE');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'validation_error');
    });
  });
}
