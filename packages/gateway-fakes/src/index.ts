export {
  ADYEN_FAKE_REPORT_USER,
  ADYEN_TEST_TOKENS,
  type AdyenFake,
  type AdyenFakeOptions,
  startAdyenFake,
} from './adyen-fake.ts';
export type { GatewayFake } from './fake-server.ts';
export {
  PAYPAL_APPROVAL_CHOICES,
  type PayPalFake,
  type PayPalFakeOptions,
  startPayPalFake,
} from './paypal-fake.ts';
export {
  decodeStripeForm,
  type SpecName,
  SpecValidator,
  type SpecViolation,
  stripeFixture,
} from './spec-validator.ts';
export {
  STRIPE_TEST_PAYMENT_METHODS,
  type StripeFake,
  type StripeFakeOptions,
  startStripeFake,
} from './stripe-fake.ts';
