import { readText, required } from '../../config-values.ts';
import { type GatewayConfigurer, requiredTogether } from '../configure.ts';
import { adyenWebUrl } from './account.ts';
import { createAdyenConnector } from './connector.ts';

/**
 * Gateway `adyen` from `PAYGATE_ADYEN_API_KEY`, `PAYGATE_ADYEN_MERCHANT_ACCOUNT`,
 * `PAYGATE_ADYEN_HMAC_KEY` (hex) and `PAYGATE_ADYEN_RETURN_URL`. Test mode unless
 * `PAYGATE_ADYEN_LIVE=true`, which also requires `PAYGATE_ADYEN_API_URL` (Adyen assigns every live
 * account its own URL prefix). With `PAYGATE_ADYEN_CLIENT_KEY` the checkout frame takes cards with
 * Adyen Web's card component, loaded from `PAYGATE_ADYEN_HOSTED_FIELDS_URL` (default: Adyen's
 * checkoutshopper CDN of the account's mode).
 */
export const adyenFromEnvironment: GatewayConfigurer = (env, deps) => {
  const values = requiredTogether(env, 'adyen', [
    'PAYGATE_ADYEN_API_KEY',
    'PAYGATE_ADYEN_MERCHANT_ACCOUNT',
    'PAYGATE_ADYEN_HMAC_KEY',
    'PAYGATE_ADYEN_RETURN_URL',
  ]);
  if (!values) return null;
  const live = readText(env, 'PAYGATE_ADYEN_LIVE') === 'true';
  if (live && !env.PAYGATE_ADYEN_API_URL) {
    throw required('PAYGATE_ADYEN_API_URL', 'with PAYGATE_ADYEN_LIVE=true', 'your live URL prefix');
  }
  if (!/^(?:[0-9a-fA-F]{2}){16,}$/.test(values.PAYGATE_ADYEN_HMAC_KEY)) {
    throw new Error('PAYGATE_ADYEN_HMAC_KEY must be the hex HMAC key from the Customer Area');
  }
  const clientKey = env.PAYGATE_ADYEN_CLIENT_KEY?.trim() || null;
  if (clientKey && !/^(test|live)_[0-9A-Za-z]+$/.test(clientKey)) {
    throw new Error('PAYGATE_ADYEN_CLIENT_KEY must be an Adyen client key (test_... or live_...)');
  }
  return createAdyenConnector({
    apiKey: values.PAYGATE_ADYEN_API_KEY,
    merchantAccount: values.PAYGATE_ADYEN_MERCHANT_ACCOUNT,
    hmacKeyHex: values.PAYGATE_ADYEN_HMAC_KEY,
    defaultReturnUrl: values.PAYGATE_ADYEN_RETURN_URL,
    live,
    baseUrl: env.PAYGATE_ADYEN_API_URL ?? 'https://checkout-test.adyen.com/v72',
    hostedFieldsUrl: env.PAYGATE_ADYEN_HOSTED_FIELDS_URL || (clientKey ? adyenWebUrl(live) : null),
    clientKey,
    ...deps,
  });
};
