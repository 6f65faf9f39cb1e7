import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeStripeForm, SpecValidator } from './spec-validator.ts';

describe('spec validator', () => {
  it('decodes Stripe bracket form bodies into nested objects and lists', () => {
    assert.deepEqual(
      decodeStripeForm('amount=1000&metadata[order]=42&payment_method_types[]=card&expand[0]=latest_charge'),
      {
        amount: '1000',
        metadata: { order: '42' },
        payment_method_types: ['card'],
        expand: ['latest_charge'],
      },
    );
  });

  it('accepts a Stripe PaymentIntent creation as Stripe describes it and refuses a wrong one', () => {
    const stripe = new SpecValidator('stripe');
    const good = decodeStripeForm('amount=1000&currency=eur&confirm=true&payment_method=pm_card_visa');
    assert.deepEqual(stripe.validate('POST', '/v1/payment_intents', good), []);
    const missingAmount = decodeStripeForm('currency=eur&confirm=true');
    assert.ok(
      stripe.validate('POST', '/v1/payment_intents', missingAmount).some((v) => /amount/.test(v.message)),
    );
    const badAmount = decodeStripeForm('amount=ten&currency=eur');
    assert.ok(stripe.validate('POST', '/v1/payment_intents', badAmount).some((v) => v.path === '/amount'));
  });

  it('accepts an Adyen /payments request as Adyen describes it and refuses one without merchantAccount', () => {
    const adyen = new SpecValidator('adyen-checkout');
    const good = {
      amount: { currency: 'EUR', value: 1000 },
      merchantAccount: 'ShopECOM',
      reference: 'pi_1:attempt:1',
      returnUrl: 'https://pay.example/return',
      paymentMethod: { type: 'scheme', storedPaymentMethodId: '8415718415172204' },
      shopperReference: 'shopper_1',
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'CardOnFile',
    };
    assert.deepEqual(adyen.validate('POST', '/payments', good), []);
    const { merchantAccount: _dropped, ...withoutAccount } = good;
    assert.ok(
      adyen.validate('POST', '/payments', withoutAccount).some((v) => /merchantAccount/.test(v.message)),
    );
    assert.ok(
      adyen.validate('POST', '/payments', { ...good, amount: { currency: 'EUR', value: '10.00' } }).length >
        0,
    );
  });

  it("accepts a PayPal order as PayPal's Orders v2 describes it and refuses an amount as a number", () => {
    const orders = new SpecValidator('paypal-orders');
    const good = {
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: 'pi_1',
          custom_id: 'pi_1:attempt:1',
          amount: { currency_code: 'EUR', value: '10.00' },
        },
      ],
    };
    assert.deepEqual(orders.validate('POST', '/v2/checkout/orders', good), []);
    assert.deepEqual(orders.validate('POST', '/v2/checkout/orders', { ...good, intent: 'AUTHORIZE' }), []);
    const asNumber = { ...good, purchase_units: [{ amount: { currency_code: 'EUR', value: 10 } }] };
    assert.ok(orders.validate('POST', '/v2/checkout/orders', asNumber).some((v) => /value/.test(v.path)));
    assert.ok(orders.validate('POST', '/v2/checkout/orders', { ...good, intent: 'SALE' }).length > 0);
    const { purchase_units: _dropped, ...withoutUnits } = good;
    assert.ok(
      orders
        .validate('POST', '/v2/checkout/orders', withoutUnits)
        .some((v) => /purchase_units/.test(v.message)),
    );
  });

  it('accepts a PayPal partial refund and a webhook signature check as PayPal describes them', () => {
    const payments = new SpecValidator('paypal-payments');
    assert.deepEqual(
      payments.validate('POST', '/v2/payments/captures/{capture_id}/refund', {
        amount: { currency_code: 'JPY', value: '1000' },
        invoice_id: 're_1',
      }),
      [],
    );
    assert.ok(
      payments.validate('POST', '/v2/payments/captures/{capture_id}/refund', {
        amount: { currency_code: 'euro', value: '1.00' },
      }).length > 0,
    );
    const webhooks = new SpecValidator('paypal-webhooks');
    const check = {
      auth_algo: 'SHA256withRSA',
      cert_url: 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270',
      transmission_id: '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
      transmission_sig:
        'lmI95Jx3Y9nhR5SJWlHVIWpg4AgFk7n9bCHSRxbrd8A9zrhdu2rMyFrmz+Zjh3s3boXB07VXCXUZy/UFzUlnGJn0wDugt7FlSvdKeIJenLRemUxYCPVoEZzg9VFNqOa48gMkvF+XTpxBeUx/kWy6B5cp7GkT2+pOowfRK7OaynuxUoKW3JcMWw272VKjLTtTAShncla7tGF+55rxyt2KNZIIqxNMJ48RDZheGU5w1npu9dZHnPgTXB9iomeVRoD8O/jhRpnKsGrDschyNdkeh81BJJMH4Ctc6lnCCquoP/GzCzz33MMsNdid7vL/NIWaCsekQpW26FpWPi/tfj8nLA==',
      transmission_time: '2016-02-18T20:01:35Z',
      webhook_id: '1JE4291016473214C',
      webhook_event: { id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED' },
    };
    assert.deepEqual(webhooks.validate('POST', '/v1/notifications/verify-webhook-signature', check), []);
    const { webhook_id: _id, ...withoutWebhookId } = check;
    assert.ok(
      webhooks
        .validate('POST', '/v1/notifications/verify-webhook-signature', withoutWebhookId)
        .some((v) => /webhook_id/.test(v.message)),
    );
  });

  it('lists only the operations that were kept from each description', () => {
    assert.deepEqual(new SpecValidator('adyen-checkout').operations().sort(), [
      'POST /payments',
      'POST /payments/details',
      'POST /payments/{paymentPspReference}/cancels',
      'POST /payments/{paymentPspReference}/captures',
      'POST /payments/{paymentPspReference}/refunds',
    ]);
    assert.deepEqual(new SpecValidator('paypal-orders').operations().sort(), [
      'GET /v2/checkout/orders/{id}',
      'POST /v2/checkout/orders',
      'POST /v2/checkout/orders/{id}/authorize',
      'POST /v2/checkout/orders/{id}/capture',
    ]);
    assert.throws(() => new SpecValidator('stripe').validate('POST', '/v1/charges', {}), /no operation/);
  });
});
