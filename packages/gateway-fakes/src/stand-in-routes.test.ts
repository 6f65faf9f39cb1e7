import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AdyenFake, startAdyenFake } from './adyen-fake.ts';
import { type StripeFake, startStripeFake } from './stripe-fake.ts';

const STRIPE = { secretKey: 'sk_test_standin', webhookSecret: 'whsec_standin', webhookUrl: null };
const ADYEN = {
  apiKey: 'adyen_standin',
  merchantAccount: 'PaygateECOM',
  hmacKeyHex: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  notificationUrl: null,
};

async function tokenise(url: string, key: string, card: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ exp_month: 12, exp_year: 2034, cvc: '123', holder_name: null, ...card }),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
}

describe("the fakes' stand-in card components", () => {
  let stripe: StripeFake;
  let adyen: AdyenFake;
  before(async () => {
    stripe = await startStripeFake(STRIPE);
    adyen = await startAdyenFake(ADYEN);
  });
  after(async () => {
    await stripe.close();
    await adyen.close();
  });

  it('serves the component scripts and their framed fields from the fake origin', async () => {
    const stripeJs = await fetch(`${stripe.url}/v3/`);
    assert.match(stripeJs.headers.get('content-type') ?? '', /javascript/);
    assert.match(await stripeJs.text(), /window\.Stripe = function Stripe/);
    const adyenWeb = await fetch(`${adyen.url}/checkoutshopper/sdk/5.68.0/adyen.js`);
    assert.match(await adyenWeb.text(), /window\.AdyenCheckout = async function AdyenCheckout/);
    const parent = encodeURIComponent('http://127.0.0.1:8080');
    const fields = await fetch(
      `${stripe.url}/v3/elements/card?parent_origin=${parent}&key=pk_test_x&locale=es`,
    );
    const html = await fields.text();
    assert.match(html, /<label for="number">Número de tarjeta<\/label>/);
    assert.match(html, /const parentOrigin = "http:\/\/127\.0\.0\.1:8080";/);
    const refused = await fetch(`${stripe.url}/v3/elements/card?parent_origin=*&key=pk_test_x`);
    assert.equal(refused.status, 400);
    await refused.body?.cancel();
  });

  it('tokenises Stripe test cards into payment methods that charge with their behaviour', async () => {
    const charge = async (paymentMethod: string) => {
      const response = await fetch(`${stripe.url}/v1/payment_intents`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${STRIPE.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          amount: '2500',
          currency: 'usd',
          confirm: 'true',
          payment_method: paymentMethod,
          return_url: 'http://shop.test/return',
        }).toString(),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    const cases: Array<[string, number, string | undefined]> = [
      ['4242424242424242', 200, 'succeeded'],
      ['4000000000000002', 402, undefined],
      ['4000002760003184', 200, 'requires_action'],
    ];
    for (const [number, status, intentStatus] of cases) {
      const token = await tokenise(`${stripe.url}/v3/tokens`, 'pk_test_x', { number });
      assert.equal(token.status, 200, number);
      assert.match(String(token.json.id), /^pm_[0-9A-Z]{24}$/);
      assert.doesNotMatch(token.text, new RegExp(number.slice(-4)), 'no card digits in the answer');
      const charged = await charge(String(token.json.id));
      assert.equal(charged.status, status, number);
      if (intentStatus) assert.equal(charged.json.status, intentStatus, number);
    }
    const unknown = await tokenise(`${stripe.url}/v3/tokens`, 'pk_test_x', { number: '4111111111111111' });
    assert.equal(unknown.status, 402);
    assert.equal((unknown.json.error as { code: string }).code, 'card_declined');
    const wrongKey = await tokenise(`${stripe.url}/v3/tokens`, 'sk_test_x', { number: '4242424242424242' });
    assert.equal(wrongKey.status, 401);
    assert.deepEqual(stripe.violations, []);
  });

  it("encrypts Adyen test cards into Adyen Web's paymentMethod, which only the fake reads back", async () => {
    const pay = async (paymentMethod: Record<string, unknown>) => {
      const response = await fetch(`${adyen.url}/payments`, {
        method: 'POST',
        headers: { 'x-api-key': ADYEN.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          amount: { currency: 'EUR', value: 2500 },
          merchantAccount: ADYEN.merchantAccount,
          reference: `standin-encrypted-${Object.keys(paymentMethod).length}-${String(paymentMethod.holderName)}`,
          returnUrl: 'http://shop.test/return',
          paymentMethod,
          shopperInteraction: 'Ecommerce',
          channel: 'Web',
        }),
      });
      return (await response.json()) as { resultCode?: string; errorCode?: string };
    };
    const cases: Array<[string, string, string]> = [
      ['4111111145551142', 'Ada Lovelace', 'Authorised'],
      ['4111111145551142', 'REFUSED', 'Refused'],
      ['4212345678910006', 'Ada Lovelace', 'RedirectShopper'],
    ];
    let first: Record<string, string> | null = null;
    for (const [number, holder, resultCode] of cases) {
      const token = await tokenise(`${adyen.url}/checkoutshopper/tokens`, 'test_KEY', {
        number,
        holder_name: holder,
      });
      const encrypted = token.json.encrypted as Record<string, string>;
      for (const name of [
        'encryptedCardNumber',
        'encryptedExpiryMonth',
        'encryptedExpiryYear',
        'encryptedSecurityCode',
      ]) {
        assert.match(String(encrypted[name]), /^adyenjs_0_1_25\$[0-9A-Za-z]+$/, name);
      }
      assert.equal(token.text.includes(number), false, 'the card number never comes back');
      assert.equal(
        (await pay({ type: 'scheme', ...encrypted })).resultCode,
        resultCode,
        `${number} ${holder}`,
      );
      first ??= encrypted;
    }
    // Fields of two different cards do not make a card.
    const mixed = { type: 'scheme', ...first, encryptedSecurityCode: 'adyenjs_0_1_25$forged' };
    assert.equal((await pay(mixed)).resultCode, undefined);
    assert.deepEqual(adyen.violations, []);
  });

  it('tokenises Adyen test cards (and the REFUSED holder name) into stored payment methods', async () => {
    const pay = async (storedPaymentMethodId: string) => {
      const response = await fetch(`${adyen.url}/payments`, {
        method: 'POST',
        headers: { 'x-api-key': ADYEN.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          amount: { currency: 'EUR', value: 2500 },
          merchantAccount: ADYEN.merchantAccount,
          reference: `standin-${storedPaymentMethodId}`,
          returnUrl: 'http://shop.test/return',
          paymentMethod: { type: 'scheme', storedPaymentMethodId },
          shopperReference: 'shopper',
          shopperInteraction: 'ContAuth',
          recurringProcessingModel: 'CardOnFile',
        }),
      });
      return (await response.json()) as { resultCode?: string };
    };
    const cases: Array<[string, string | null, string]> = [
      ['4111111145551142', 'Ada Lovelace', 'Authorised'],
      ['4111111145551142', 'REFUSED', 'Refused'],
      ['4212345678910006', 'Ada Lovelace', 'RedirectShopper'],
    ];
    for (const [number, holder, resultCode] of cases) {
      const token = await tokenise(`${adyen.url}/checkoutshopper/tokens`, 'test_KEY', {
        number,
        holder_name: holder,
      });
      assert.equal(token.status, 200, number);
      assert.match(String(token.json.id), /^adyen_pm_[0-9A-Z]{24}$/);
      assert.equal((await pay(String(token.json.id))).resultCode, resultCode, `${number} ${holder}`);
    }
    assert.deepEqual(adyen.violations, []);
  });
});
