// A capture the gateway reverses after reporting it (issue 29, item 3): Adyen's CAPTURE_FAILED,
// sent by the Adyen fake, on both databases. The contract has no way back from SUCCEEDED, so the
// intent keeps its status; the reversal must neither win silently nor be dropped: it is recorded
// for the operator, the merchant gets payment_intent.capture_reversed, and it is logged with its
// evidence.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS } from '@paygate/gateway-fakes';
import type { AppLogger } from '../src/app/context.ts';
import { knownCharges } from '../src/storage/repositories/reconciliation.ts';
import { databaseKinds } from './support/databases.ts';
import { type ServiceOnFakeGateways, startServiceOnFakeGateways } from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`a capture reversed after success (${kind})`, () => {
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
      merchant = await svc.createMerchant('Shop with a reversed capture');
    });
    after(() => running?.close());

    async function paidIntent(amountMinor: number): Promise<string> {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('k') },
        body: { amount_minor: amountMinor, currency: 'EUR', gateway_id: 'adyen' },
      });
      assert.equal(created.statusCode, 200, created.body);
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.json().id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: ADYEN_TEST_TOKENS.approve },
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(confirmed.json().status, 'SUCCEEDED');
      return confirmed.json().id;
    }

    it('CAPTURE_FAILED after SUCCEEDED: recorded for the operator, capture_reversed sent, logged; the intent stays SUCCEEDED', async () => {
      const intentId = await paidIntent(7_300);
      const attempt = await svc.ctx.db.query<{ gateway_reference: string }>(
        'SELECT gateway_reference FROM charge_attempts WHERE payment_intent_id = $1',
        [intentId],
      );
      const chargeReference = attempt.rows[0]?.gateway_reference;
      assert.ok(chargeReference);

      const warnings: { fields: Record<string, unknown>; message: string }[] = [];
      const original: AppLogger = svc.ctx.log;
      svc.ctx.log = { warn: (fields, message) => warnings.push({ fields, message }) };
      try {
        assert.equal(running.adyen.failCapture(chargeReference), true);
        await running.adyen.idle();
      } finally {
        svc.ctx.log = original;
      }

      const intent = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${intentId}`,
        key: merchant.secretTest,
      });
      assert.equal(intent.json().status, 'SUCCEEDED', 'the contract has no way back from SUCCEEDED');

      const recorded = await svc.ctx.db.query<{
        charge_reference: string;
        reversal_reference: string;
        amount_minor: string | number;
        currency: string;
        intent_status: string;
        message: string;
      }>(
        `SELECT charge_reference, reversal_reference, amount_minor, currency, intent_status, message
           FROM capture_reversals WHERE payment_intent_id = $1`,
        [intentId],
      );
      assert.equal(recorded.rows.length, 1, 'recorded for the operator');
      const row = recorded.rows[0];
      assert.ok(row);
      assert.equal(row.charge_reference, chargeReference);
      assert.equal(Number(row.amount_minor), 7_300);
      assert.equal(row.currency, 'EUR');
      assert.equal(row.intent_status, 'SUCCEEDED');
      assert.match(row.message, /CAPTURE_FAILED/);

      const events = await svc.ctx.db.query<{ type: string }>(
        "SELECT type FROM events WHERE object_id = $1 AND type = 'payment_intent.capture_reversed'",
        [intentId],
      );
      assert.equal(events.rows.length, 1, 'the merchant is told where the money went');

      // Reconciliation's view of the charge names the reversal (its rule reports it, never repairs it).
      const reconciled = await knownCharges(
        svc.ctx.db,
        'adyen',
        false,
        new Date(0),
        new Date(svc.ctx.clock.now().getTime() + 86_400_000),
      );
      const charge = reconciled.find((c) => c.paymentIntentId === intentId);
      assert.equal(charge?.captureReversal, row.reversal_reference);

      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      const [warning] = warnings;
      assert.ok(warning);
      assert.equal(warning.fields.paymentIntent, intentId);
      assert.equal(warning.fields.chargeReference, chargeReference);
      assert.equal(warning.fields.reversalReference, row.reversal_reference);
      assert.equal(warning.fields.reversedMinor, 7_300);
      assert.match(warning.message, /stays SUCCEEDED/);
      assert.doesNotMatch(warning.message, /notificationItems|hmacSignature/, 'never the body');
    });
  });
}
