import { type GatewayConfigurer, requiredTogether } from '../configure.ts';
import { STRIPE_JS_URL } from './account.ts';
import { createStripeConnector } from './connector.ts';

/**
 * Gateway `stripe` from `PAYGATE_STRIPE_SECRET_KEY` and `PAYGATE_STRIPE_WEBHOOK_SECRET`; the
 * key's prefix (`sk_live_`/`sk_test_`) decides the mode. `PAYGATE_STRIPE_API_URL` and
 * `PAYGATE_STRIPE_HOSTED_FIELDS_URL` point it at a fake in development. With
 * `PAYGATE_STRIPE_PUBLISHABLE_KEY` the checkout frame takes cards with Stripe.js, loaded from
 * `PAYGATE_STRIPE_HOSTED_FIELDS_URL` (default https://js.stripe.com/v3/).
 */
export const stripeFromEnvironment: GatewayConfigurer = (env, deps) => {
  const values = requiredTogether(env, 'stripe', [
    'PAYGATE_STRIPE_SECRET_KEY',
    'PAYGATE_STRIPE_WEBHOOK_SECRET',
    'PAYGATE_STRIPE_RETURN_URL',
  ]);
  if (!values) return null;
  const secretKey = values.PAYGATE_STRIPE_SECRET_KEY;
  if (!/^(sk|rk)_(test|live)_/.test(secretKey)) {
    throw new Error('PAYGATE_STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_... or sk_live_...)');
  }
  const publishableKey = env.PAYGATE_STRIPE_PUBLISHABLE_KEY?.trim() || null;
  if (publishableKey && !/^pk_(test|live)_/.test(publishableKey)) {
    throw new Error(
      'PAYGATE_STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_test_... or pk_live_...)',
    );
  }
  return createStripeConnector({
    secretKey,
    webhookSecret: values.PAYGATE_STRIPE_WEBHOOK_SECRET,
    defaultReturnUrl: values.PAYGATE_STRIPE_RETURN_URL,
    live: /^(sk|rk)_live_/.test(secretKey),
    baseUrl: env.PAYGATE_STRIPE_API_URL ?? 'https://api.stripe.com',
    hostedFieldsUrl: env.PAYGATE_STRIPE_HOSTED_FIELDS_URL || (publishableKey ? STRIPE_JS_URL : null),
    publishableKey,
    ...deps,
  });
};
