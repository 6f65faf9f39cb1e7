// The demo shop on a real gateway's fake: which variables point Paygate's Stripe or Adyen
// connector, and the checkout frame's card component, at a fake started with `npm run fake:stripe`
// or `npm run fake:adyen` (their default credentials and ports are the ones below).
export type ShopGateway = 'sim' | 'stripe' | 'adyen';

export const FAKE_DEFAULTS = {
  stripe: {
    url: 'http://127.0.0.1:12111',
    secretKey: 'sk_test_fake',
    webhookSecret: 'whsec_fake',
    publishableKey: 'pk_test_fake',
  },
  adyen: {
    url: 'http://127.0.0.1:12112',
    apiKey: 'adyen_fake_api_key',
    merchantAccount: 'PaygateECOM',
    hmacKeyHex: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
    clientKey: 'test_FAKECLIENTKEY',
  },
} as const;

export function parseShopGateway(value: string | undefined): ShopGateway {
  if (value === undefined || value === 'sim' || value === 'stripe' || value === 'adyen')
    return value ?? 'sim';
  throw new Error(`--gateway must be sim, stripe or adyen (got ${value})`);
}

/**
 * The `PAYGATE_*` variables that configure `gateway` against its fake at `fakeUrl` (none for the
 * simulated gateway, which Paygate starts itself). `returnUrl` is the connector's default return
 * address (every shop intent carries its own).
 */
export function fakeGatewayEnvironment(
  gateway: ShopGateway,
  fakeUrl: string,
  returnUrl: string,
): Record<string, string> {
  if (gateway === 'stripe') {
    const fake = FAKE_DEFAULTS.stripe;
    return {
      PAYGATE_STRIPE_SECRET_KEY: fake.secretKey,
      PAYGATE_STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      PAYGATE_STRIPE_RETURN_URL: returnUrl,
      PAYGATE_STRIPE_API_URL: fakeUrl,
      PAYGATE_STRIPE_HOSTED_FIELDS_URL: `${fakeUrl}/v3/`,
      PAYGATE_STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    };
  }
  if (gateway === 'adyen') {
    const fake = FAKE_DEFAULTS.adyen;
    return {
      PAYGATE_ADYEN_API_KEY: fake.apiKey,
      PAYGATE_ADYEN_MERCHANT_ACCOUNT: fake.merchantAccount,
      PAYGATE_ADYEN_HMAC_KEY: fake.hmacKeyHex,
      PAYGATE_ADYEN_RETURN_URL: returnUrl,
      PAYGATE_ADYEN_API_URL: fakeUrl,
      PAYGATE_ADYEN_HOSTED_FIELDS_URL: `${fakeUrl}/checkoutshopper/sdk/5.68.0/adyen.js`,
      PAYGATE_ADYEN_CLIENT_KEY: fake.clientKey,
    };
  }
  return {};
}
