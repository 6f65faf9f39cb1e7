import { type TSchema, Type } from 'typebox';
import { ApiKey, CreateApiKeyBody, CreateMerchantBody, MerchantIdParams, MerchantWithKeys } from './admin.ts';
import { CreateEmbedDomainBody, EmbedDomain, EmbedDomainList } from './embed-domains.ts';
import { LateCapture, LateCaptureIdParams, LateCaptureList, ListLateCapturesQuery } from './late-captures.ts';
import {
  CancelPaymentIntentBody,
  ConfirmPaymentIntentBody,
  CreatePaymentIntentBody,
  PaymentIntent,
  PaymentIntentIdParams,
} from './payment-intent.ts';
import { CreateRefundBody, Refund, RefundIdParams } from './refund.ts';
import { ListTransactionsQuery, TransactionList } from './transaction.ts';
import {
  CreateWebhookEndpointBody,
  ListWebhookDeliveriesQuery,
  ResendFailedBody,
  ResendFailedResult,
  SendTestEventBody,
  SendTestEventResult,
  WebhookDelivery,
  WebhookDeliveryIdParams,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointIdParams,
} from './webhooks.ts';

export type Credential = 'secret' | 'secret_or_client' | 'admin' | 'none';

/** One API operation: the single description that routes validate with and OpenAPI is built from. */
export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  credential: Credential;
  idempotencyKeyRequired?: boolean;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response: TSchema;
  tag: string;
}

const NoQuery = Type.Object({}, { additionalProperties: false });

export const operations = {
  createPaymentIntent: {
    method: 'POST',
    path: '/v1/payment-intents',
    summary: 'Create a payment intent',
    credential: 'secret',
    idempotencyKeyRequired: true,
    querystring: NoQuery,
    body: CreatePaymentIntentBody,
    response: PaymentIntent,
    tag: 'Payment intents',
  },
  retrievePaymentIntent: {
    method: 'GET',
    path: '/v1/payment-intents/{id}',
    summary: 'Retrieve a payment intent (secret key, or publishable key plus X-Client-Secret)',
    credential: 'secret_or_client',
    params: PaymentIntentIdParams,
    querystring: NoQuery,
    response: PaymentIntent,
    tag: 'Payment intents',
  },
  confirmPaymentIntent: {
    method: 'POST',
    path: '/v1/payment-intents/{id}/confirm',
    summary: 'Confirm a payment intent with a payment-method token',
    credential: 'secret_or_client',
    params: PaymentIntentIdParams,
    querystring: NoQuery,
    body: ConfirmPaymentIntentBody,
    response: PaymentIntent,
    tag: 'Payment intents',
  },
  cancelPaymentIntent: {
    method: 'POST',
    path: '/v1/payment-intents/{id}/cancel',
    summary: 'Cancel a payment intent that is CREATED or REQUIRES_ACTION',
    credential: 'secret',
    params: PaymentIntentIdParams,
    querystring: NoQuery,
    body: CancelPaymentIntentBody,
    response: PaymentIntent,
    tag: 'Payment intents',
  },
  createRefund: {
    method: 'POST',
    path: '/v1/refunds',
    summary: 'Refund all or part of a SUCCEEDED payment intent',
    credential: 'secret',
    idempotencyKeyRequired: true,
    querystring: NoQuery,
    body: CreateRefundBody,
    response: Refund,
    tag: 'Refunds',
  },
  retrieveRefund: {
    method: 'GET',
    path: '/v1/refunds/{id}',
    summary: 'Retrieve a refund',
    credential: 'secret',
    params: RefundIdParams,
    querystring: NoQuery,
    response: Refund,
    tag: 'Refunds',
  },
  listTransactions: {
    method: 'GET',
    path: '/v1/transactions',
    summary: 'List transactions, newest first, with filters and cursor pagination',
    credential: 'secret',
    querystring: ListTransactionsQuery,
    response: TransactionList,
    tag: 'Transactions',
  },
  adminCreateMerchant: {
    method: 'POST',
    path: '/admin/v1/merchants',
    summary: 'Create a merchant with one secret and one publishable key per mode',
    credential: 'admin',
    body: CreateMerchantBody,
    response: MerchantWithKeys,
    tag: 'Operator',
  },
  adminCreateApiKey: {
    method: 'POST',
    path: '/admin/v1/merchants/{id}/api-keys',
    summary: 'Create an API key for a merchant (shown in full once)',
    credential: 'admin',
    params: MerchantIdParams,
    body: CreateApiKeyBody,
    response: ApiKey,
    tag: 'Operator',
  },
  adminAdvanceTestClock: {
    method: 'POST',
    path: '/admin/v1/test-clock/advance',
    summary: 'Move the test clock forward (only with PAYGATE_TEST_CLOCK=1)',
    credential: 'admin',
    body: Type.Object(
      { seconds: Type.Integer({ minimum: 1, maximum: 31_536_000 }) },
      { additionalProperties: false },
    ),
    response: Type.Object({ now: Type.String({ format: 'date-time' }) }),
    tag: 'Operator',
  },
  adminCreateEmbedDomain: {
    method: 'POST',
    path: '/admin/v1/merchants/{id}/embed-domains',
    summary: 'Allow a web origin to embed the checkout frame (201 when added, 200 when already there)',
    credential: 'admin',
    params: MerchantIdParams,
    body: CreateEmbedDomainBody,
    response: EmbedDomain,
    tag: 'Operator',
  },
  adminListEmbedDomains: {
    method: 'GET',
    path: '/admin/v1/merchants/{id}/embed-domains',
    summary: "List the origins allowed to embed a merchant's checkout frame",
    credential: 'admin',
    params: MerchantIdParams,
    response: EmbedDomainList,
    tag: 'Operator',
  },
  adminCreateWebhookEndpoint: {
    method: 'POST',
    path: '/admin/v1/merchants/{id}/webhook-endpoints',
    summary: 'Register a webhook endpoint; its whsec_ secret is shown in full only in this response',
    credential: 'admin',
    params: MerchantIdParams,
    body: CreateWebhookEndpointBody,
    response: WebhookEndpoint,
    tag: 'Operator',
  },
  adminRetrieveWebhookEndpoint: {
    method: 'GET',
    path: '/admin/v1/webhook-endpoints/{id}',
    summary: 'Retrieve a webhook endpoint (without its secret)',
    credential: 'admin',
    params: WebhookEndpointIdParams,
    response: WebhookEndpoint,
    tag: 'Operator',
  },
  adminRotateWebhookSecret: {
    method: 'POST',
    path: '/admin/v1/webhook-endpoints/{id}/rotate-secret',
    summary: 'Open a secret rotation: the new secret (returned) and the old one both sign until closed',
    credential: 'admin',
    params: WebhookEndpointIdParams,
    response: WebhookEndpoint,
    tag: 'Operator',
  },
  adminCloseWebhookRotation: {
    method: 'POST',
    path: '/admin/v1/webhook-endpoints/{id}/close-rotation',
    summary: 'Close a secret rotation: the old secret is dropped and one v1 is sent again',
    credential: 'admin',
    params: WebhookEndpointIdParams,
    response: WebhookEndpoint,
    tag: 'Operator',
  },
  adminEnableWebhookEndpoint: {
    method: 'POST',
    path: '/admin/v1/webhook-endpoints/{id}/enable',
    summary: 'Turn a failing or disabled endpoint back on, clearing its failure history',
    credential: 'admin',
    params: WebhookEndpointIdParams,
    response: WebhookEndpoint,
    tag: 'Operator',
  },
  adminListWebhookDeliveries: {
    method: 'GET',
    path: '/admin/v1/webhook-endpoints/{id}/deliveries',
    summary: "List an endpoint's deliveries and their attempts, newest first",
    credential: 'admin',
    params: WebhookEndpointIdParams,
    querystring: ListWebhookDeliveriesQuery,
    response: WebhookDeliveryList,
    tag: 'Operator',
  },
  adminResendFailedWebhooks: {
    method: 'POST',
    path: '/admin/v1/webhook-endpoints/{id}/resend-failed',
    summary: 'Queue one attempt for every FAILED delivery of the endpoint created since a given instant',
    credential: 'admin',
    params: WebhookEndpointIdParams,
    body: ResendFailedBody,
    response: ResendFailedResult,
    tag: 'Operator',
  },
  adminSendTestWebhookEvent: {
    method: 'POST',
    path: '/admin/v1/webhook-endpoints/{id}/send-test-event',
    summary:
      'Queue a sample event (made-up objects, metadata paygate_test_event=true) for this one endpoint, signed and delivered like any other',
    credential: 'admin',
    params: WebhookEndpointIdParams,
    body: SendTestEventBody,
    response: SendTestEventResult,
    tag: 'Operator',
  },
  adminRetryWebhookDelivery: {
    method: 'POST',
    path: '/admin/v1/webhook-deliveries/{id}/retry',
    summary: 'Attempt one delivery now (also a FAILED one) and return it with its attempts',
    credential: 'admin',
    params: WebhookDeliveryIdParams,
    response: WebhookDelivery,
    tag: 'Operator',
  },
  adminListLateCaptures: {
    method: 'GET',
    path: '/admin/v1/late-captures',
    summary:
      'List captures that arrived after their intent became final otherwise, newest first, with their repair',
    credential: 'admin',
    querystring: ListLateCapturesQuery,
    response: LateCaptureList,
    tag: 'Operator',
  },
  adminRetrieveLateCapture: {
    method: 'GET',
    path: '/admin/v1/late-captures/{id}',
    summary: 'Retrieve one late capture and the state of its repair refund',
    credential: 'admin',
    params: LateCaptureIdParams,
    response: LateCapture,
    tag: 'Operator',
  },
} satisfies Record<string, Operation>;

/** Fastify's path syntax (`:id`) for an operation path written in OpenAPI syntax (`{id}`). */
export function routePath(operation: Operation): string {
  return operation.path.replace(/\{(\w+)\}/g, ':$1');
}
