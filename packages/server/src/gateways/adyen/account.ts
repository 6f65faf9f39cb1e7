import { addressProblem, checkFields, type GatewayAccountKind, optional, required } from '../accounts.ts';
import { createAdyenConnector } from './connector.ts';

const TEST_API_URL = 'https://checkout-test.adyen.com/v72';

/**
 * A merchant's Adyen account: the API key of its web-service user, the HMAC key (hex) of its
 * standard notification webhook, the merchant account payments are made on, and in live mode the
 * account's own Checkout URL (Adyen gives every live account its own prefix).
 */
export const adyenAccounts: GatewayAccountKind = {
  connector: 'adyen',
  check(fields) {
    checkFields(fields, {
      credentials: {
        api_key: required(/^\S{8,}$/, 'the API key of an Adyen web-service user'),
        hmac_key: required(/^(?:[0-9a-fA-F]{2}){16,}$/, 'the hex HMAC key shown in the Customer Area'),
      },
      settings: {
        merchant_account: required(/^[0-9A-Za-z_.-]{1,80}$/, 'an Adyen merchant account name'),
        api_url: {
          required: (f) => f.livemode,
          problem: addressProblem,
        },
        hosted_fields_url: optional(addressProblem),
      },
    });
  },
  build(account, deps) {
    return createAdyenConnector({
      id: account.gatewayId,
      apiKey: account.credentials.api_key ?? '',
      hmacKeyHex: account.credentials.hmac_key ?? '',
      merchantAccount: account.settings.merchant_account ?? '',
      live: account.livemode,
      baseUrl: account.settings.api_url ?? TEST_API_URL,
      hostedFieldsUrl: account.settings.hosted_fields_url ?? null,
      ...deps,
    });
  },
};
