import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpecValidator } from '@paygate/gateway-fakes';
import type { ChargeRequest } from '../connector.ts';
import type { GatewayHttpReply, GatewayHttpRequest } from '../http-executor.ts';
import { fromAdyenValue, toAdyenValue } from './amounts.ts';
import {
  adyenTokenProblem,
  buildDetailsRequest,
  buildPaymentRequest,
  buildRefundRequest,
  encryptedCardOf,
  parsePaymentReply,
  parseRefundReply,
} from './wire.ts';

const ACCOUNT = {
  baseUrl: 'https://checkout-test.adyen.com/v72',
  apiKey: 'AQE_test_api_key',
  merchantAccount: 'ShopECOM',
  defaultReturnUrl: 'https://pay.example/return',
};
const KEY = 'pi_000000000000000000000001:attempt:1';
const charge: ChargeRequest = {
  idempotencyKey: KEY,
  paymentIntentId: 'pi_000000000000000000000001',
  amountMinor: 5000,
  currency: 'EUR',
  paymentMethodToken: '8415718415172204',
  livemode: false,
  returnUrl: null,
};
const checkout = new SpecValidator('adyen-checkout');

function validate(request: GatewayHttpRequest, pathTemplate: string): void {
  assert.deepEqual(checkout.validate(request.method, pathTemplate, JSON.parse(request.body ?? '')), []);
}

// Adyen's own examples from the Checkout v72 description (components.examples).
function answer(status: number, body: unknown, retryAfterSeconds: number | null = null): GatewayHttpReply {
  return {
    kind: 'answer',
    status,
    headers: new Headers(),
    text: typeof body === 'string' ? body : JSON.stringify(body),
    retryAfterSeconds,
    durationMs: 1,
  };
}

describe('Adyen wire format', () => {
  it('builds /payments as the description requires, with the key as header and reference', () => {
    const request = buildPaymentRequest(ACCOUNT, charge);
    validate(request, '/payments');
    assert.equal(request.url, 'https://checkout-test.adyen.com/v72/payments');
    assert.equal(request.headers['x-api-key'], 'AQE_test_api_key');
    assert.equal(request.headers['idempotency-key'], KEY);
    const body = JSON.parse(request.body ?? '');
    assert.equal(body.reference, KEY);
    assert.deepEqual(body.amount, { currency: 'EUR', value: 5000 });
    assert.equal(body.returnUrl, ACCOUNT.defaultReturnUrl);
  });

  // The shape of Adyen Web's card `state.data.paymentMethod` (Adyen's documented example, the
  // encrypted values shortened): client-side encrypted fields, never a card number.
  const ADYEN_WEB_CARD = {
    type: 'scheme',
    encryptedCardNumber: 'adyenjs_0_1_25$XdVFaM8sqTzGvfRiLmvhFrzWwDG6PyaomN3q4kFKWXJLKXLsmoGDHbGY2wzhTSA6',
    encryptedExpiryMonth: 'adyenjs_0_1_25$LxhrZEgM3b3MfKFBkTI7yNkcjp9lHw0HPfSx9jb9',
    encryptedExpiryYear: 'adyenjs_0_1_25$K4nOi0UsU3vdUcB1RaWxQjrQ7t2A5Hj9dGH0zFy0',
    encryptedSecurityCode: 'adyenjs_0_1_25$Pkf3Wd9J8RvGSKyJQ9T4Fx5fGcEt9Q0iRK5wA9xG',
    holderName: 'Ada Lovelace',
    brand: 'visa',
    checkoutAttemptId: 'do-not-forward',
  };

  it("forwards Adyen Web's encrypted card as the paymentMethod /payments expects, and nothing else it sent", () => {
    const request = buildPaymentRequest(ACCOUNT, {
      ...charge,
      paymentMethodToken: JSON.stringify(ADYEN_WEB_CARD),
    });
    validate(request, '/payments');
    const body = JSON.parse(request.body ?? '');
    const { brand: _brand, checkoutAttemptId: _attempt, ...forwarded } = ADYEN_WEB_CARD;
    assert.deepEqual(body.paymentMethod, forwarded);
    assert.equal(body.shopperInteraction, 'Ecommerce');
    assert.equal(body.channel, 'Web');
    assert.equal(
      body.recurringProcessingModel,
      undefined,
      'a payment the payer makes now is not card on file',
    );
    assert.equal(body.shopperReference, undefined);
  });

  it('takes a token that is not a complete encrypted card as a stored payment method', () => {
    const { encryptedSecurityCode: _missing, ...partial } = ADYEN_WEB_CARD;
    for (const token of [
      '8415718415172204',
      '{not json',
      JSON.stringify(partial),
      JSON.stringify({ ...ADYEN_WEB_CARD, type: 'ideal' }),
    ]) {
      assert.equal(encryptedCardOf(token), null, token);
    }
    const body = JSON.parse(buildPaymentRequest(ACCOUNT, charge).body ?? '');
    assert.deepEqual(body.paymentMethod, { type: 'scheme', storedPaymentMethodId: '8415718415172204' });
    assert.equal(body.shopperInteraction, 'ContAuth');
  });

  it('says why a JSON token is not Adyen Web card data, and leaves other tokens alone', () => {
    assert.equal(adyenTokenProblem(JSON.stringify(ADYEN_WEB_CARD)), null);
    assert.equal(adyenTokenProblem('8415718415172204'), null, 'a stored payment method id');
    assert.match(adyenTokenProblem('{not json') ?? '', /not JSON/);
    assert.match(
      adyenTokenProblem('[1]') ?? '',
      /^$/,
      'not an object and not starting with {: tried as an id',
    );
    assert.match(
      adyenTokenProblem('{"type":"scheme"}') ?? '',
      /without encryptedCardNumber, encryptedExpiryMonth/,
    );
    assert.match(adyenTokenProblem('{"type":"paypal"}') ?? '', /type "paypal"/);
  });

  it('builds refunds and details as the description requires', () => {
    const refund = buildRefundRequest(ACCOUNT, {
      idempotencyKey: 'pi_000000000000000000000001:refund:0123456789abcdef01234567',
      refundId: 're_1',
      paymentIntentId: 'pi_000000000000000000000001',
      chargeReference: '993617895204576J',
      amountMinor: 2500,
      currency: 'EUR',
      livemode: false,
    });
    validate(refund, '/payments/{paymentPspReference}/refunds');
    assert.equal(refund.url, 'https://checkout-test.adyen.com/v72/payments/993617895204576J/refunds');
    const details = buildDetailsRequest(ACCOUNT, {
      idempotencyKey: KEY,
      gatewayReference: 'JLCMPCQ8HXSKGK82',
      connectorData: null,
      returnParameters: { redirectResult: 'X6XtfGC3!Y...' },
    });
    validate(details, '/payments/details');
    assert.deepEqual(JSON.parse(details.body ?? ''), { details: { redirectResult: 'X6XtfGC3!Y...' } });
    // A details request is keyed by what the payer brought back: the same return again is the
    // same request; another one (an altered redirectResult first) is not answered from the first.
    const again = (redirectResult: string) =>
      buildDetailsRequest(ACCOUNT, {
        idempotencyKey: KEY,
        gatewayReference: 'JLCMPCQ8HXSKGK82',
        connectorData: null,
        returnParameters: { redirectResult },
      }).headers['idempotency-key'];
    assert.equal(again('X6XtfGC3!Y...'), details.headers['idempotency-key']);
    assert.notEqual(again('altered'), details.headers['idempotency-key']);
    assert.ok((details.headers['idempotency-key'] ?? '').length <= 64);
    assert.throws(
      () =>
        buildDetailsRequest(ACCOUNT, {
          idempotencyKey: KEY,
          gatewayReference: 'x',
          connectorData: null,
          returnParameters: {},
        }),
      RangeError,
    );
  });

  it('refuses an idempotency key longer than 64 characters before building anything', () => {
    assert.throws(
      () => buildPaymentRequest(ACCOUNT, { ...charge, idempotencyKey: 'k'.repeat(65) }),
      RangeError,
    );
  });

  it("sends CLP and ISK in Adyen's two decimals and reads them back", () => {
    assert.equal(toAdyenValue(5000, 'CLP'), 500000);
    assert.equal(toAdyenValue(2790, 'ISK'), 279000);
    assert.equal(toAdyenValue(1000, 'JPY'), 1000);
    assert.equal(toAdyenValue(1500, 'KWD'), 1500);
    assert.equal(fromAdyenValue(500000, 'CLP'), 5000);
    assert.equal(fromAdyenValue(500050, 'CLP'), null);
    assert.throws(() => toAdyenValue(100, 'XXX'), RangeError);
    const clp = JSON.parse(buildPaymentRequest(ACCOUNT, { ...charge, currency: 'CLP' }).body ?? '');
    assert.deepEqual(clp.amount, { currency: 'CLP', value: 500000 });
  });

  it("maps Adyen's recorded answers: Authorised, RedirectShopper, details, refund received", () => {
    assert.deepEqual(
      parsePaymentReply(
        answer(200, {
          pspReference: '993617895204576J',
          resultCode: 'Authorised',
          merchantReference: 'string',
        }),
        KEY,
      ),
      { kind: 'succeeded', gatewayReference: '993617895204576J', authorizationOnly: true },
    );
    const redirect = parsePaymentReply(
      answer(200, {
        pspReference: 'JLCMPCQ8HXSKGK82',
        resultCode: 'RedirectShopper',
        action: {
          paymentMethodType: 'scheme',
          url: 'https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect...',
          method: 'GET',
          type: 'redirect',
        },
      }),
      KEY,
    );
    assert.deepEqual(redirect, {
      kind: 'requires_action',
      gatewayReference: 'JLCMPCQ8HXSKGK82',
      redirectUrl: 'https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect...',
    });
    assert.deepEqual(
      parseRefundReply(
        answer(201, {
          merchantAccount: 'YOUR_MERCHANT_ACCOUNT',
          paymentPspReference: '993617894903480A',
          reference: 'YOUR_UNIQUE_REFERENCE',
          pspReference: '993617894906488A',
          status: 'received',
          amount: { currency: 'EUR', value: 2500 },
        }),
      ),
      { kind: 'pending', gatewayReference: '993617894906488A' },
    );
  });

  it("reads what an Authorised answer says was authorised, in ISO minor units, so another amount is never the intent's", () => {
    const reply = (amount: unknown) =>
      parsePaymentReply(answer(200, { pspReference: 'PSP1', resultCode: 'Authorised', amount }), KEY);
    assert.deepEqual(reply({ currency: 'EUR', value: 2500 }), {
      kind: 'succeeded',
      gatewayReference: 'PSP1',
      authorizationOnly: true,
      captured: { amountMinor: 2500, currency: 'EUR' },
    });
    assert.deepEqual(reply({ currency: 'CLP', value: 500000 }), {
      kind: 'succeeded',
      gatewayReference: 'PSP1',
      authorizationOnly: true,
      captured: { amountMinor: 5000, currency: 'CLP' },
    });
    const unreadable = reply({ currency: 'CLP', value: 550 });
    assert.ok(unreadable.kind === 'succeeded' && Number.isNaN(unreadable.captured?.amountMinor));
    assert.deepEqual(reply(undefined), {
      kind: 'succeeded',
      gatewayReference: 'PSP1',
      authorizationOnly: true,
    });
  });

  it('maps every resultCode of the issue', () => {
    const outcome = (resultCode: string, extra: object = {}) =>
      parsePaymentReply(answer(200, { pspReference: 'PSP1', resultCode, ...extra }), KEY);
    const action = { action: { type: 'redirect', url: 'https://acs.example/challenge', method: 'GET' } };
    const balance = outcome('Refused', { refusalReason: 'Not enough balance', refusalReasonCode: '12' });
    assert.equal(balance.kind, 'failed');
    assert.deepEqual(balance.kind === 'failed' && [balance.declineCode, balance.gatewayCode], [
      'insufficient_funds',
      '12',
    ]);
    const refused = outcome('Refused');
    assert.equal(refused.kind === 'failed' && refused.failureCode, 'card_declined');
    assert.deepEqual(refused.kind === 'failed' && [refused.declineCode, refused.gatewayCode], [null, null]);
    const acquirer = outcome('Error', { refusalReason: 'Acquirer Error', refusalReasonCode: '4' });
    assert.deepEqual(acquirer.kind === 'failed' && [acquirer.failureCode, acquirer.declineCode], [
      'gateway_rejected',
      'processing_error',
    ]);
    for (const code of ['Error', 'Cancelled']) {
      const failed = outcome(code);
      assert.equal(failed.kind === 'failed' && failed.failureCode, 'gateway_rejected', code);
    }
    for (const code of ['RedirectShopper', 'ChallengeShopper', 'IdentifyShopper']) {
      assert.equal(outcome(code, action).kind, 'requires_action', code);
      assert.equal(outcome(code).kind, 'indeterminate', `${code} without a url`);
    }
    assert.equal(outcome('Pending').kind, 'pending');
    assert.equal(outcome('Received').kind, 'pending');
    assert.equal(outcome('PresentToShopper').kind, 'indeterminate');
    assert.equal(parsePaymentReply(answer(200, { resultCode: 'Authorised' }), KEY).kind, 'indeterminate');
    assert.equal(outcome('Authorised', { action: { url: 'javascript:alert(1)' } }).kind, 'succeeded');
    assert.equal(
      outcome('RedirectShopper', { action: { url: 'javascript:alert(1)' } }).kind,
      'indeterminate',
    );
  });

  it('reads refusals: 422 rejected, 704 in progress unknown, 401 and 429 unavailable, 500 and no answer unknown', () => {
    const rejected = parsePaymentReply(
      answer(422, { status: 422, errorCode: '14_012', message: 'bad' }),
      KEY,
    );
    assert.equal(rejected.kind === 'failed' && rejected.failureCode, 'gateway_rejected');
    assert.equal(
      parsePaymentReply(answer(422, { errorCode: '704', message: 'in progress' }), KEY).kind,
      'indeterminate',
    );
    assert.equal(parsePaymentReply(answer(401, {}), KEY).kind, 'unavailable');
    const busy = parsePaymentReply(answer(429, {}, 9), KEY);
    assert.equal(busy.kind === 'unavailable' && busy.retryAfterSeconds, 9);
    assert.equal(parsePaymentReply(answer(500, {}), KEY).kind, 'indeterminate');
    assert.equal(
      parsePaymentReply({ kind: 'none', detail: 'time-out', durationMs: 1 }, KEY).kind,
      'indeterminate',
    );
    assert.equal(parsePaymentReply(answer(200, '<html>'), KEY).kind, 'indeterminate');
    assert.equal(parseRefundReply(answer(201, { status: 'weird' })).kind, 'indeterminate');
    assert.equal(
      parseRefundReply(answer(422, { errorCode: '167', message: 'Original pspReference required' })).kind,
      'failed',
    );
  });
});
