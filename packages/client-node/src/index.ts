export { Paygate, webhooks } from './client.ts';
export type { PaygateOptions } from './config.ts';
export {
  AmountError,
  AuthenticationError,
  CardError,
  GatewayUnavailableError,
  IdempotencyError,
  InternalServerError,
  InvalidPayloadError,
  InvalidRequestError,
  InvalidStateError,
  NotFoundError,
  PaygateApiError,
  PaygateConfigurationError,
  PaygateConnectionError,
  PaygateError,
  PermissionError,
  RateLimitError,
  WebhookSignatureError,
  type WebhookSignatureFailure,
} from './errors.ts';
export type { IdempotentRequestOptions } from './resources/payment-intents.ts';
export type * from './types.ts';
export { CLIENT_VERSION } from './version.ts';
export {
  type ConstructEventOptions,
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  type EventType,
  generateTestHeader,
  isKnownEvent,
  type KnownWebhookEvent,
  type RawBody,
  type TestHeaderParams,
  type UnknownWebhookEvent,
  type WebhookEvent,
} from './webhooks.ts';
