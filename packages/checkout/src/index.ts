// The ES module for bundlers. In a bundle, give the service's checkout address:
// `Paygate('pk_test_...', { checkoutUrl: 'https://pay.example.com/checkout' })`.
export {
  CHECKOUT_VERSION,
  type CheckoutError,
  type CheckoutHandle,
  type CheckoutOptions,
  type CheckoutRetry,
  type CheckoutSuccess,
  Paygate,
  type PaygateCheckout,
  PaygateConfigurationError,
  type PaygateOptions,
} from './component.ts';
export { type CheckoutErrorCode, checkoutErrorCodes } from './protocol.ts';
