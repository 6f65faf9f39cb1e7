import { addressProblem, checkFields, type GatewayAccountKind, optional, required } from '../accounts.ts';
import { createStripeConnector } from './connector.ts';

const DEFAULT_API_URL = 'https://api.stripe.com';

/**
 * A merchant's Stripe account: its secret (or restricted) key, whose `sk_test_`/`sk_live_` prefix
 * must match the account's mode, and the signing secret of the webhook endpoint added in Stripe's
 * dashboard for this account's notification address.
 */
export const stripeAccounts: GatewayAccountKind = {
  connector: 'stripe',
  check(fields) {
    const mode = fields.livemode ? 'live' : 'test';
    checkFields(fields, {
      credentials: {
        secret_key: required(
          new RegExp(`^(sk|rk)_${mode}_[0-9A-Za-z]+$`),
          `a Stripe ${mode}-mode secret key (sk_${mode}_... or rk_${mode}_...)`,
        ),
        webhook_secret: required(/^whsec_[0-9A-Za-z]+$/, 'the webhook signing secret (whsec_...)'),
      },
      settings: { api_url: optional(addressProblem), hosted_fields_url: optional(addressProblem) },
    });
  },
  build(account, deps) {
    return createStripeConnector({
      id: account.gatewayId,
      secretKey: account.credentials.secret_key ?? '',
      webhookSecret: account.credentials.webhook_secret ?? '',
      live: account.livemode,
      baseUrl: account.settings.api_url ?? DEFAULT_API_URL,
      hostedFieldsUrl: account.settings.hosted_fields_url ?? null,
      ...deps,
    });
  },
};
