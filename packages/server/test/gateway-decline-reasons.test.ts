// Decline reasons travel (issue 31, item 2): each gateway's own code reaches last_payment_error as
// one vocabulary (`decline_code`) plus the code unchanged (`gateway_code`), from the confirm's
// answer and from the gateway's notification, on the Stripe and Adyen fakes taught to decline as
// their gateways document, on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS, STRIPE_TEST_PAYMENT_METHODS } from '@paygate/gateway-fakes';
import { databaseKinds } from './support/databases.ts';
import {
  FAKE_STRIPE,
  type ServiceOnFakeGateways,
  startServiceOnFakeGateways,
} from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';
import { adyenRequest, stripeEvent } from './support/signed-notifications.ts';

/** Adyen Web's card data with the holder name Adyen's test environment reads as a refusal. */
function adyenCardOf(holderName: string): string {
  return JSON.stringify({
    type: 'scheme',
    encryptedCardNumber: 'adyenjs_0_1_25$encryptedCardNumber',
    encryptedExpiryMonth: 'adyenjs_0_1_25$encryptedExpiryMonth',
    encryptedExpiryYear: 'adyenjs_0_1_25$encryptedExpiryYear',
    encryptedSecurityCode: 'adyenjs_0_1_25$encryptedSecurityCode',
    holderName,
  });
}

for (const kind of databaseKinds()) {
  describe(`decline reasons travel from the gateway to last_payment_error (${kind})`, () => {
    let running: ServiceOnFakeGateways;
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: false,
        hostedFields: false,
        defaultReturnUrl: 'http://paygate.test/return',
      });
      svc = running.svc;
      merchant = await svc.createMerchant('Shop whose payers get declined');
    });
    after(() => running?.close());

    async function confirmOn(gatewayId: string, token: string) {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: { amount_minor: 5_000, currency: 'EUR', gateway_id: gatewayId },
      });
      assert.equal(created.statusCode, 200, created.body);
      const id: string = created.json().id;
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: token },
      });
      return { id, confirmed };
    }

    async function lastErrorOf(id: string) {
      const read = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${id}`,
        key: merchant.secretTest,
      });
      return read.json().last_payment_error;
    }

    async function failedEventError(id: string) {
      const { rows } = await svc.ctx.db.query<{ payload: string }>(
        "SELECT payload FROM events WHERE object_id = $1 AND type = 'payment_intent.failed'",
        [id],
      );
      assert.equal(rows.length, 1);
      return JSON.parse(rows[0]!.payload).data.object.last_payment_error;
    }

    async function attemptOf(intentId: string) {
      const { rows } = await svc.ctx.db.query<{ idempotency_key: string; gateway_reference: string }>(
        'SELECT idempotency_key, gateway_reference FROM charge_attempts WHERE payment_intent_id = $1',
        [intentId],
      );
      assert.ok(rows[0], `no attempt of ${intentId}`);
      return rows[0];
    }

    const stripeCases = [
      ['pm_card_chargeDeclined', 'generic_decline', 'generic_decline'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'insufficient_funds'],
      ['pm_card_chargeDeclinedLostCard', 'lost_or_stolen', 'lost_card'],
      ['pm_card_chargeDeclinedStolenCard', 'lost_or_stolen', 'stolen_card'],
      ['pm_card_chargeDeclinedVelocityLimitExceeded', 'insufficient_funds', 'card_velocity_exceeded'],
      ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'expired_card'],
      ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', 'incorrect_cvc'],
      ['pm_card_chargeDeclinedProcessingError', 'processing_error', 'processing_error'],
    ] as const;
    for (const [paymentMethod, declineCode, gatewayCode] of stripeCases) {
      it(`stripe ${paymentMethod}: 402 card_declined with decline_code ${declineCode}, gateway_code ${gatewayCode}`, async () => {
        const { id, confirmed } = await confirmOn('stripe', paymentMethod);
        assert.equal(confirmed.statusCode, 402, confirmed.body);
        assert.equal(confirmed.json().code, 'card_declined');
        const expected = { code: 'card_declined', decline_code: declineCode, gateway_code: gatewayCode };
        const inProblem = confirmed.json().payment_intent.last_payment_error;
        assert.deepEqual({ ...inProblem, message: undefined }, { ...expected, message: undefined });
        assert.ok(inProblem.message.length > 0);
        assert.deepEqual(await lastErrorOf(id), inProblem);
        assert.deepEqual(await failedEventError(id), inProblem);
      });
    }

    const adyenCases = [
      ['NOT_ENOUGH_BALANCE', 'card_declined', 'insufficient_funds', '12'],
      ['CARD_EXPIRED', 'card_declined', 'expired_card', '6'],
      ['CVC_DECLINED', 'card_declined', 'incorrect_cvc', '24'],
      ['INVALID_CARD_NUMBER', 'card_declined', 'incorrect_number', '8'],
      ['BLOCK_CARD', 'card_declined', 'lost_or_stolen', '5'],
      ['FRAUD', 'card_declined', 'fraudulent', '20'],
      ['DECLINED_NON_GENERIC', 'card_declined', 'do_not_honor', '27'],
      ['RESTRICTED_CARD', 'card_declined', 'card_not_supported', '25'],
      ['NOT_3D_AUTHENTICATED', 'card_declined', 'authentication_required', '11'],
      ['DECLINED', 'card_declined', 'generic_decline', '2'],
      ['ERROR', 'gateway_rejected', 'processing_error', '4'],
      ['FRAUD_CANCELLED', 'gateway_rejected', 'fraudulent', '22'],
    ] as const;
    for (const [holderName, code, declineCode, gatewayCode] of adyenCases) {
      it(`adyen holderName ${holderName}: 402 ${code} with decline_code ${declineCode}, gateway_code ${gatewayCode}`, async () => {
        const { id, confirmed } = await confirmOn('adyen', adyenCardOf(holderName));
        assert.equal(confirmed.statusCode, 402, confirmed.body);
        assert.equal(confirmed.json().code, code);
        const inProblem = confirmed.json().payment_intent.last_payment_error;
        assert.equal(inProblem.code, code);
        assert.equal(inProblem.decline_code, declineCode);
        assert.equal(inProblem.gateway_code, gatewayCode);
        assert.deepEqual(await lastErrorOf(id), inProblem);
        assert.deepEqual(await failedEventError(id), inProblem);
      });
    }

    it("stripe: a payment_intent.payment_failed event carries Stripe's decline_code to the intent", async () => {
      const { id, confirmed } = await confirmOn('stripe', STRIPE_TEST_PAYMENT_METHODS.challenge);
      assert.equal(confirmed.json().status, 'REQUIRES_ACTION');
      const attempt = await attemptOf(id);
      const event = stripeEvent(FAKE_STRIPE.webhookSecret, svc.clock.now(), 'payment_intent.payment_failed', {
        id: attempt.gateway_reference,
        status: 'requires_payment_method',
        amount: 5_000,
        currency: 'eur',
        last_payment_error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'do_not_honor',
          message: 'Your card was declined.',
        },
        metadata: { paygate_idempotency_key: attempt.idempotency_key },
      });
      const sent = await svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/stripe',
        headers: event.headers,
        payload: event.payload,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const error = await lastErrorOf(id);
      assert.deepEqual(
        { code: error.code, decline_code: error.decline_code, gateway_code: error.gateway_code },
        { code: 'card_declined', decline_code: 'do_not_honor', gateway_code: 'do_not_honor' },
      );
      assert.deepEqual(await failedEventError(id), error);
    });

    it("adyen: an AUTHORISATION notification's refusal reason reaches the intent (the text is the gateway_code)", async () => {
      const { id, confirmed } = await confirmOn('adyen', ADYEN_TEST_TOKENS.challenge);
      assert.equal(confirmed.json().status, 'REQUIRES_ACTION');
      const attempt = await attemptOf(id);
      const sent = await svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/adyen',
        headers: { 'content-type': 'application/json' },
        payload: adyenRequest([
          {
            eventCode: 'AUTHORISATION',
            success: 'false',
            pspReference: attempt.gateway_reference,
            merchantReference: attempt.idempotency_key,
            amount: { value: 5_000, currency: 'EUR' },
            reason: 'Not enough balance',
          },
        ]),
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const error = await lastErrorOf(id);
      assert.deepEqual(
        { code: error.code, decline_code: error.decline_code, gateway_code: error.gateway_code },
        { code: 'card_declined', decline_code: 'insufficient_funds', gateway_code: 'Not enough balance' },
      );
      assert.deepEqual(await failedEventError(id), error);
    });
  });
}
