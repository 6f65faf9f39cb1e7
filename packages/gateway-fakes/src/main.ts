// `npm run fake:stripe` / `npm run fake:adyen` / `npm run fake:paypal`: a fake gateway on its own port, to watch a flow by
// hand. Credentials and the notification target come from the environment (defaults for local use).
import { startAdyenFake } from './adyen-fake.ts';
import { startPayPalFake } from './paypal-fake.ts';
import { startStripeFake } from './stripe-fake.ts';

const which = process.argv[2];
const env = process.env;
const notificationBase = env.PAYGATE_URL ?? 'http://127.0.0.1:8080';

if (which === 'stripe') {
  const fake = await startStripeFake({
    port: Number(env.FAKE_STRIPE_PORT ?? 12111),
    secretKey: env.FAKE_STRIPE_SECRET_KEY ?? 'sk_test_fake',
    webhookSecret: env.FAKE_STRIPE_WEBHOOK_SECRET ?? 'whsec_fake',
    webhookUrl: `${notificationBase}/gateway-notifications/${env.FAKE_GATEWAY_ID ?? 'stripe'}`,
    slowMs: 30_000,
  });
  console.log(
    `Stripe fake on ${fake.url}; test payment methods pm_card_visa, pm_card_chargeDeclined, pm_card_authenticationRequired, pm_card_slow; ` +
      `stand-in Stripe.js at ${fake.url}/v3/ (cards 4242 4242 4242 4242, 4000 0000 0000 0002, 4000 0027 6000 3184)`,
  );
  process.on('SIGINT', () => void fake.close().then(() => process.exit(0)));
} else if (which === 'adyen') {
  const fake = await startAdyenFake({
    port: Number(env.FAKE_ADYEN_PORT ?? 12112),
    apiKey: env.FAKE_ADYEN_API_KEY ?? 'adyen_fake_api_key',
    merchantAccount: env.FAKE_ADYEN_MERCHANT_ACCOUNT ?? 'PaygateECOM',
    hmacKeyHex: env.FAKE_ADYEN_HMAC_KEY ?? '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
    notificationUrl: `${notificationBase}/gateway-notifications/${env.FAKE_GATEWAY_ID ?? 'adyen'}`,
    slowMs: 30_000,
  });
  console.log(
    `Adyen fake on ${fake.url}; test tokens adyen_test_approve, adyen_test_decline, adyen_test_challenge, adyen_test_slow; ` +
      `stand-in Adyen Web at ${fake.url}/checkoutshopper/sdk/5.68.0/adyen.js (cards 4111 1111 4555 1142, holder REFUSED, 4212 3456 7891 0006)`,
  );
  process.on('SIGINT', () => void fake.close().then(() => process.exit(0)));
} else if (which === 'paypal') {
  const fake = await startPayPalFake({
    port: Number(env.FAKE_PAYPAL_PORT ?? 12113),
    clientId: env.FAKE_PAYPAL_CLIENT_ID ?? 'paypal_fake_client',
    clientSecret: env.FAKE_PAYPAL_CLIENT_SECRET ?? 'paypal_fake_secret',
    webhookId: env.FAKE_PAYPAL_WEBHOOK_ID ?? 'WH_FAKE_PAYPAL',
    notificationUrl: `${notificationBase}/gateway-notifications/${env.FAKE_GATEWAY_ID ?? 'paypal'}`,
  });
  console.log(
    `PayPal fake on ${fake.url}; OAuth2 client paypal_fake_client / paypal_fake_secret, webhook id WH_FAKE_PAYPAL; ` +
      `the payer approves at ${fake.url}/checkoutnow?token=<order id> (pay, pay with a declining source, or cancel)`,
  );
  process.on('SIGINT', () => void fake.close().then(() => process.exit(0)));
} else {
  console.error('usage: main.ts stripe|adyen|paypal');
  process.exit(2);
}
