import { addressProblem, checkFields, type GatewayAccountKind, optional, required } from '../accounts.ts';
import { createAdyenConnector } from './connector.ts';
import type { AdyenReportAccess } from './report-download.ts';
import { adyenTokenProblem } from './wire.ts';

const TEST_API_URL = 'https://checkout-test.adyen.com/v72';

/** Adyen Web from Adyen's CDN for the mode, which the checkout frame loads with a client key. */
export function adyenWebUrl(live: boolean): string {
  return `https://checkoutshopper-${live ? 'live' : 'test'}.adyen.com/checkoutshopper/sdk/5.68.0/adyen.js`;
}

/** The settlement reports' address and report user, when the account has all three. */
function reportAccessOf(account: {
  settings: Record<string, string>;
  credentials: Record<string, string>;
}): AdyenReportAccess | null {
  const { report_url: reportUrl } = account.settings;
  const { report_username: username, report_password: password } = account.credentials;
  return reportUrl && username && password ? { reportUrl, username, password } : null;
}

/**
 * A merchant's Adyen account: the API key of its web-service user, the HMAC key (hex) of its
 * standard notification webhook, the merchant account payments are made on, and in live mode the
 * account's own Checkout URL (Adyen gives every live account its own prefix). With `report_url`
 * (the account's report download address) and the report user's `report_username` and
 * `report_password`, reconciliation reads its settlement details reports as Adyen's books. Its client key (a
 * setting: it is public) lets the embedded checkout take cards with Adyen Web for this merchant.
 */
export const adyenAccounts: GatewayAccountKind = {
  connector: 'adyen',
  check(fields) {
    checkFields(fields, {
      credentials: {
        api_key: required(/^\S{8,}$/, 'the API key of an Adyen web-service user'),
        hmac_key: required(/^(?:[0-9a-fA-F]{2}){16,}$/, 'the hex HMAC key shown in the Customer Area'),
        report_username: optional(),
        report_password: optional(),
      },
      settings: {
        merchant_account: required(/^[0-9A-Za-z_.-]{1,80}$/, 'an Adyen merchant account name'),
        api_url: {
          required: (f) => f.livemode,
          problem: addressProblem,
        },
        hosted_fields_url: optional(addressProblem),
        report_url: optional(addressProblem),
        client_key: optional((value, f) => {
          const mode = f.livemode ? 'live' : 'test';
          return new RegExp(`^${mode}_[0-9A-Za-z]+$`).test(value)
            ? null
            : `must be an Adyen ${mode}-mode client key (${mode}_...)`;
        }),
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
      hostedFieldsUrl:
        account.settings.hosted_fields_url ??
        (account.settings.client_key ? adyenWebUrl(account.livemode) : null),
      clientKey: account.settings.client_key ?? null,
      report: reportAccessOf(account),
      ...deps,
    });
  },
  tokenProblem: adyenTokenProblem,
};
