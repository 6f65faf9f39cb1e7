import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { reconcileWithGateways } from '../src/app/gateways/reconcile-with-gateway.ts';
import { databaseKinds } from './support/databases.ts';
import { readJson } from './support/eventually.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`reconciliation against the gateway's books (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let windowStart: Date;
    // Not listening: the simulator's notifications are lost, as when every process was down.
    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Reconciled');
    });
    after(() => svc.close());
    beforeEach(() => {
      // Each test gets a window of its own, a day after the last one.
      svc.clock.advance(86_400);
      windowStart = svc.clock.now();
    });

    const post = (url: string, body: unknown) =>
      svc.request({
        method: 'POST',
        url,
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('rec') },
        body,
      });
    const get = async (url: string) =>
      (await svc.request({ method: 'GET', url, key: merchant.secretTest })).json();
    const confirmed = async (token: string, amountMinor = 5000) => {
      const created = await post('/v1/payment-intents', {
        amount_minor: amountMinor,
        currency: 'USD',
        gateway_id: 'sim',
      });
      return (
        await post(`/v1/payment-intents/${created.json().id}/confirm`, { payment_method_token: token })
      ).json();
    };
    const reconcile = (repair = true) =>
      reconcileWithGateways(svc.ctx, {
        from: windowStart,
        to: new Date(svc.clock.now().getTime() + 1000),
        repair,
      });
    const gatewayApi = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${svc.sim.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${svc.simApiSecret}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return readJson(response);
    };

    it('finds nothing when both books agree, in every outcome', async () => {
      const paid = await confirmed('tok_sim_approve');
      await confirmed('tok_sim_decline');
      await confirmed('tok_sim_reject');
      await confirmed('tok_sim_challenge');
      await confirmed('tok_sim_unavailable');
      await post('/v1/refunds', { payment_intent_id: paid.id, amount_minor: 1000 });
      await post('/v1/refunds', { payment_intent_id: paid.id, amount_minor: 1099 });
      await post('/v1/refunds', { payment_intent_id: paid.id, amount_minor: 1013 });
      const report = await reconcile();
      assert.deepEqual(report.differences, []);
      assert.equal(report.unrepaired, 0);
      const sim = report.gateways.find((g) => g.gatewayId === 'sim');
      assert.deepEqual(sim, {
        gatewayId: 'sim',
        livemode: false,
        gatewayAccountId: null,
        merchantId: null,
        charges: 5,
        refunds: 3,
      });
    });

    it('settles an intent whose challenge the gateway decided while its notification was lost', async () => {
      const intent = await confirmed('tok_sim_challenge');
      await fetch(intent.redirect_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      assert.equal((await get(`/v1/payment-intents/${intent.id}`)).status, 'REQUIRES_ACTION');

      const dryRun = await reconcile(false);
      assert.deepEqual(
        dryRun.differences.map((d) => [
          d.object,
          d.kind,
          d.paygateId,
          d.paygateStatus,
          d.gatewayStatus,
          d.repaired,
        ]),
        [['charge', 'status_differs', intent.id, 'REQUIRES_ACTION', 'succeeded', false]],
      );
      assert.equal(dryRun.unrepaired, 1);
      assert.equal((await get(`/v1/payment-intents/${intent.id}`)).status, 'REQUIRES_ACTION');

      const report = await reconcile();
      assert.equal(report.differences.length, 1);
      assert.equal(report.differences[0]?.repaired, true);
      assert.equal(report.unrepaired, 0);
      assert.equal((await get(`/v1/payment-intents/${intent.id}`)).status, 'SUCCEEDED');
      assert.deepEqual((await reconcile()).differences, []);
    });

    it('turns a capture Paygate never heard of, after a cancel, into a refunded late capture', async () => {
      const intent = await confirmed('tok_sim_challenge');
      const canceled = await post(`/v1/payment-intents/${intent.id}/cancel`, {});
      assert.equal(canceled.json().status, 'CANCELED');
      await fetch(intent.redirect_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      const report = await reconcile();
      assert.deepEqual(
        report.differences.map((d) => [
          d.object,
          d.kind,
          d.paygateId,
          d.paygateStatus,
          d.gatewayStatus,
          d.repaired,
        ]),
        [['charge', 'status_differs', intent.id, 'ABANDONED', 'succeeded', true]],
      );
      const { rows } = await svc.ctx.db.query<{ repair_status: string }>(
        'SELECT repair_status FROM late_captures WHERE payment_intent_id = $1',
        [intent.id],
      );
      assert.deepEqual(rows, [{ repair_status: 'REFUNDED' }]);
      assert.deepEqual((await reconcile()).differences, []);
    });

    it('settles a PENDING refund that the gateway settled while its notification was lost', async () => {
      const paid = await confirmed('tok_sim_approve');
      const refund = (await post('/v1/refunds', { payment_intent_id: paid.id, amount_minor: 2013 })).json();
      assert.equal(refund.status, 'PENDING');
      const books = await gatewayApi(
        'GET',
        `/v1/reports/refunds?created_gte=${Math.floor(windowStart.getTime() / 1000)}&created_lt=${Math.ceil(svc.clock.now().getTime() / 1000) + 1}`,
      );
      const gatewayRefund = books.data[0];
      assert.ok(gatewayRefund, 'the gateway has the refund');
      svc.sim.settlePendingRefund(gatewayRefund.id, 'succeeded');

      const report = await reconcile();
      assert.deepEqual(
        report.differences.map((d) => [
          d.object,
          d.kind,
          d.paygateId,
          d.paygateStatus,
          d.gatewayStatus,
          d.repaired,
        ]),
        [['refund', 'status_differs', refund.id, 'PENDING', 'succeeded', true]],
      );
      assert.equal((await get(`/v1/refunds/${refund.id}`)).status, 'SUCCEEDED');
    });

    it('reports, without repairing, a charge and a refund Paygate never made', async () => {
      const paid = await confirmed('tok_sim_approve');
      const attempt = (
        await svc.ctx.db.query<{ gateway_reference: string }>(
          'SELECT gateway_reference FROM charge_attempts WHERE payment_intent_id = $1',
          [paid.id],
        )
      ).rows[0];
      const stray = await gatewayApi('POST', '/v1/charges', {
        idempotency_key: 'made-outside-paygate',
        reference: 'pi_unknown',
        amount_minor: 777,
        currency: 'USD',
        token: 'tok_sim_approve',
      });
      const strayRefund = await gatewayApi('POST', '/v1/refunds', {
        idempotency_key: 'refund-outside-paygate',
        charge: attempt?.gateway_reference,
        amount_minor: 300,
        currency: 'USD',
      });
      const report = await reconcile();
      assert.deepEqual(
        report.differences.map((d) => [d.object, d.kind, d.gatewayReference, d.gatewayStatus, d.repaired]),
        [
          ['charge', 'unknown_to_paygate', stray.id, 'succeeded', false],
          ['refund', 'unknown_to_paygate', strayRefund.id, 'succeeded', false],
        ],
      );
      assert.equal(report.unrepaired, 2);
    });
  });
}
