// A capture the gateway reverses after reporting it (issue 29, item 3): Adyen's CAPTURE_FAILED,
// sent by the Adyen fake, on both databases. The contract has no way back from SUCCEEDED, so the
// intent keeps its status; the reversal must neither win silently nor be dropped: it is recorded
// for the operator, the merchant gets payment_intent.capture_reversed, and it is logged with its
// evidence.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS } from '@paygate/gateway-fakes';
import type { AppLogger } from '../src/app/context.ts';
import { receiveGatewayNotification } from '../src/app/gateways/notifications.ts';
import { knownCharges } from '../src/storage/repositories/reconciliation.ts';
import { databaseKinds } from './support/databases.ts';
import { type ServiceOnFakeGateways, startServiceOnFakeGateways } from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';
import { adyenRequest } from './support/signed-notifications.ts';

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

    // Issue 31, item 4: a reversal names its charge by Adyen's originalReference (the pspReference
    // Paygate stored for the attempt); our merchantReference only cross-checks it.
    async function attemptOf(intentId: string) {
      const { rows } = await svc.ctx.db.query<{ idempotency_key: string; gateway_reference: string }>(
        'SELECT idempotency_key, gateway_reference FROM charge_attempts WHERE payment_intent_id = $1',
        [intentId],
      );
      assert.ok(rows[0]?.gateway_reference, 'the gateway reference is stored from the answer');
      return { key: rows[0].idempotency_key, reference: rows[0].gateway_reference };
    }
    const reversalsOf = async (intentId: string) =>
      (
        await svc.ctx.db.query<{ reversal_reference: string }>(
          'SELECT reversal_reference FROM capture_reversals WHERE payment_intent_id = $1',
          [intentId],
        )
      ).rows.map((r) => r.reversal_reference);
    const reversedEvents = async (intentId: string) =>
      (
        await svc.ctx.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM events WHERE object_id = $1 AND type = 'payment_intent.capture_reversed'",
          [intentId],
        )
      ).rows[0]?.n;
    const captureFailed = (originalReference: string, merchantReference: string | undefined) =>
      Buffer.from(
        adyenRequest([
          {
            eventCode: 'CAPTURE_FAILED',
            success: 'true',
            pspReference: `CRV${freshKey('r')
              .replace(/[^A-Za-z0-9]/g, '')
              .slice(-12)}`,
            originalReference,
            ...(merchantReference === undefined ? {} : { merchantReference }),
            amount: { value: 6_100, currency: 'EUR' },
            reason: 'Capture Failed',
          },
        ]),
      );
    const json = { 'content-type': 'application/json' };

    it('adyen: a CAPTURE_FAILED without merchantReference applies to the charge its originalReference names', async () => {
      const intentId = await paidIntent(6_100);
      const { reference } = await attemptOf(intentId);
      const original: AppLogger = svc.ctx.log;
      svc.ctx.log = { warn: () => {} };
      try {
        const received = await receiveGatewayNotification(
          svc.ctx,
          'adyen',
          captureFailed(reference, undefined),
          json,
        );
        assert.equal(received.warning, null);
      } finally {
        svc.ctx.log = original;
      }
      assert.equal((await reversalsOf(intentId)).length, 1, 'recorded for the operator');
      assert.equal(await reversedEvents(intentId), 1);
    });

    it('adyen: a CAPTURE_FAILED whose merchantReference names another charge is refused, logged, and records neither', async () => {
      const other = await paidIntent(6_100);
      const otherKey = (await attemptOf(other)).key;
      for (const merchantReference of [otherKey, 'not-a-reference-of-ours']) {
        const intentId = await paidIntent(6_100);
        const { reference } = await attemptOf(intentId);
        const body = captureFailed(reference, merchantReference);
        const received = await receiveGatewayNotification(svc.ctx, 'adyen', body, json);
        assert.match(received.warning ?? '', /contradict/);
        assert.match(received.warning ?? '', new RegExp(reference));
        assert.match(received.warning ?? '', new RegExp(merchantReference));
        assert.deepEqual(await reversalsOf(intentId), []);
        assert.equal(await reversedEvents(intentId), 0);
        // Recorded as received: Adyen's redelivery of it changes nothing either.
        assert.equal((await receiveGatewayNotification(svc.ctx, 'adyen', body, json)).duplicate, true);
        assert.deepEqual(await reversalsOf(intentId), []);
      }
      assert.deepEqual(await reversalsOf(other), []);
      assert.equal(await reversedEvents(other), 0);
    });
  });
}
