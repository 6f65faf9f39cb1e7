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

  it('lists only the operations that were kept from each description', () => {
    assert.deepEqual(new SpecValidator('adyen-checkout').operations().sort(), [
      'POST /payments',
      'POST /payments/details',
      'POST /payments/{paymentPspReference}/cancels',
      'POST /payments/{paymentPspReference}/captures',
      'POST /payments/{paymentPspReference}/refunds',
    ]);
    assert.throws(() => new SpecValidator('stripe').validate('POST', '/v1/charges', {}), /no operation/);
  });
});
