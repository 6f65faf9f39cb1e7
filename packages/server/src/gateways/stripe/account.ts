import { addressProblem, checkFields, type GatewayAccountKind, optional, required } from '../accounts.ts';
import { createStripeConnector } from './connector.ts';

const DEFAULT_API_URL = 'https://api.stripe.com';
/** Stripe.js, which the checkout frame loads when an account gives a publishable key. */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/**
 * A merchant's Stripe account: its secret (or restricted) key, whose `sk_test_`/`sk_live_` prefix
 * must match the account's mode, and the signing secret of the webhook endpoint added in Stripe's
 * dashboard for this account's notification address. Its publishable key (a setting: it is not
 * secret) lets the embedded checkout take cards with Stripe.js for this merchant.
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
      settings: {
        api_url: optional(addressProblem),
        hosted_fields_url: optional(addressProblem),
        publishable_key: optional((value) =>
          new RegExp(`^pk_${mode}_[0-9A-Za-z]+$`).test(value)
            ? null
            : `must be a Stripe ${mode}-mode publishable key (pk_${mode}_...)`,
        ),
      },
    });
  },
  build(account, deps) {
    return createStripeConnector({
      id: account.gatewayId,
      secretKey: account.credentials.secret_key ?? '',
      webhookSecret: account.credentials.webhook_secret ?? '',
      live: account.livemode,
      baseUrl: account.settings.api_url ?? DEFAULT_API_URL,
      hostedFieldsUrl:
        account.settings.hosted_fields_url ?? (account.settings.publishable_key ? STRIPE_JS_URL : null),
      publishableKey: account.settings.publishable_key ?? null,
      ...deps,
    });
  },
};
