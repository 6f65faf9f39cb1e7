import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemClock } from '../clock.ts';
import { configuredConnectors } from './registry.ts';

const deps = { clock: systemClock };
const STRIPE = {
  PAYGATE_STRIPE_SECRET_KEY: 'sk_test_abc',
  PAYGATE_STRIPE_WEBHOOK_SECRET: 'whsec_abc',
  PAYGATE_STRIPE_RETURN_URL: 'https://pay.example/return',
};
const ADYEN = {
  PAYGATE_ADYEN_API_KEY: 'AQE_key',
  PAYGATE_ADYEN_MERCHANT_ACCOUNT: 'ShopECOM',
  PAYGATE_ADYEN_HMAC_KEY: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
  PAYGATE_ADYEN_RETURN_URL: 'https://pay.example/return',
};

describe('gateways configured from the environment', () => {
  it('configures none when no gateway variable is set', () => {
    assert.deepEqual(configuredConnectors({}, deps), []);
  });

  it('configures stripe and adyen in test mode, without hosted card entry unless given', () => {
    const connectors = configuredConnectors({ ...STRIPE, ...ADYEN }, deps);
    assert.deepEqual(
      connectors.map((c) => [c.id, c.allowsLivemode, c.hostedFields()]),
      [
        ['stripe', false, null],
        ['adyen', false, null],
      ],
    );
  });

  it("loads each gateway's card component from its CDN with the component's public key, or from a configured origin", () => {
    const keys = { PAYGATE_STRIPE_PUBLISHABLE_KEY: 'pk_test_abc', PAYGATE_ADYEN_CLIENT_KEY: 'test_ABC123' };
    assert.deepEqual(
      configuredConnectors({ ...STRIPE, ...ADYEN, ...keys }, deps).map((c) => c.hostedFields()),
      [
        {
          url: 'https://js.stripe.com/v3/',
          origin: 'https://js.stripe.com',
          kind: 'script',
          publicKey: 'pk_test_abc',
          component: 'stripe',
        },
        {
          url: 'https://checkoutshopper-test.adyen.com/checkoutshopper/sdk/5.68.0/adyen.js',
          origin: 'https://checkoutshopper-test.adyen.com',
          kind: 'script',
          publicKey: 'test_ABC123',
          component: 'adyen',
        },
      ],
    );
    const [stripe] = configuredConnectors(
      { ...STRIPE, ...keys, PAYGATE_STRIPE_HOSTED_FIELDS_URL: 'http://127.0.0.1:12111/v3/' },
      deps,
    );
    assert.equal(stripe?.hostedFields()?.origin, 'http://127.0.0.1:12111');
    assert.throws(
      () => configuredConnectors({ ...STRIPE, PAYGATE_STRIPE_PUBLISHABLE_KEY: 'sk_test_abc' }, deps),
      /PAYGATE_STRIPE_PUBLISHABLE_KEY/,
    );
    assert.throws(
      () => configuredConnectors({ ...ADYEN, PAYGATE_ADYEN_CLIENT_KEY: 'AQE1secret' }, deps),
      /PAYGATE_ADYEN_CLIENT_KEY/,
    );
  });

  it('takes the mode from a live Stripe key, and a live Adyen account only with its URL prefix', () => {
    const [stripe] = configuredConnectors({ ...STRIPE, PAYGATE_STRIPE_SECRET_KEY: 'sk_live_abc' }, deps);
    assert.equal(stripe?.allowsLivemode, true);
    assert.throws(
      () => configuredConnectors({ ...ADYEN, PAYGATE_ADYEN_LIVE: 'true' }, deps),
      /PAYGATE_ADYEN_API_URL/,
    );
    const [adyen] = configuredConnectors(
      {
        ...ADYEN,
        PAYGATE_ADYEN_LIVE: 'true',
        PAYGATE_ADYEN_API_URL: 'https://1797a841fbb37ca7-Shop-checkout-live.adyenpayments.com/checkout/v72',
      },
      deps,
    );
    assert.equal(adyen?.allowsLivemode, true);
  });

  it('refuses a partial configuration, naming the missing variable', () => {
    assert.throws(
      () => configuredConnectors({ PAYGATE_STRIPE_SECRET_KEY: 'sk_test_abc' }, deps),
      /PAYGATE_STRIPE_WEBHOOK_SECRET/,
    );
    assert.throws(
      () => configuredConnectors({ ...ADYEN, PAYGATE_ADYEN_API_KEY: ' ' }, deps),
      /PAYGATE_ADYEN_API_KEY/,
    );
  });

  it('refuses a value of the wrong kind', () => {
    assert.throws(
      () => configuredConnectors({ ...STRIPE, PAYGATE_STRIPE_SECRET_KEY: 'pk_test_abc' }, deps),
      /secret key/,
    );
    assert.throws(() => configuredConnectors({ ...ADYEN, PAYGATE_ADYEN_HMAC_KEY: 'not-hex' }, deps), /hex/);
  });
});
