// The parameters the API takes and what the client adds to what it returns. The resources
// themselves are generated from the contract (generated/resources.ts).
import type {
  CaptureMethod,
  Metadata,
  PaymentIntent,
  TransactionStatus,
  TransactionType,
} from './generated/resources.ts';

export type * from './generated/resources.ts';

export interface CreatePaymentIntentParams {
  amount_minor: number;
  currency: string;
  gateway_id: string;
  metadata?: Metadata;
  return_url?: string;
  /** 60..86400; the server default is 86400. */
  expires_in_seconds?: number;
  /** `manual`: authorise at confirm, capture later with `paymentIntents.capture`. Default `automatic`. */
  capture_method?: CaptureMethod;
  /** The merchant's customer (`cus_`) this payment belongs to. */
  customer_id?: string;
  /** `off_session`: save the payment method for the customer when the charge succeeds. */
  setup_future_usage?: 'off_session';
}

export interface CapturePaymentIntentParams {
  /** At most `amount_capturable_minor`; omitted means all of it. */
  amount_minor?: number;
}

export interface ConfirmPaymentIntentParams {
  /** Token issued by the gateway's hosted fields (or a `tok_sim_*` token in test mode). */
  payment_method_token?: string;
  /** A saved method (`spm_`) of the intent's customer, instead of a token. */
  saved_payment_method_id?: string;
  /** `true`: the payer is absent; a gateway that wants them fails the payment (`authentication_required`). */
  off_session?: boolean;
}

export interface CancelPaymentIntentParams {
  cancellation_reason?: 'duplicate' | 'fraudulent' | 'requested_by_customer' | 'abandoned';
}

export interface CreateRefundParams {
  payment_intent_id: string;
  /** Omitted means all that remains refundable. */
  amount_minor?: number;
  metadata?: Metadata;
}

export interface CreateCustomerParams {
  email?: string;
  name?: string;
  metadata?: Metadata;
}

export interface UpdateCustomerParams {
  /** `null` removes it. */
  email?: string | null;
  /** `null` removes it. */
  name?: string | null;
  /** Merged key by key; a key set to `""` is removed. */
  metadata?: Metadata;
}

export interface ListCustomersParams {
  /** Only customers with this e-mail (any case). */
  email?: string;
  /** Page size, 1 to 100 (default 20); iteration fetches every page. */
  limit?: number;
}

export interface ListSavedPaymentMethodsParams {
  /** Page size, 1 to 100 (default 20); iteration fetches every page. */
  limit?: number;
}

export interface ListTransactionsParams {
  status?: TransactionStatus;
  type?: TransactionType;
  /** Inclusive lower bound: an ISO 8601 instant or a Date. */
  from?: string | Date;
  /** Exclusive upper bound: an ISO 8601 instant or a Date. */
  to?: string | Date;
  /** Page size, 1..100 (server default 20). The iterator still yields every matching transaction. */
  limit?: number;
}

/** RFC 9457 problem document with Paygate's members. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id?: string;
  errors?: { field: string; message: string }[];
  /** The failed intent, on a 402 from confirm. */
  payment_intent?: PaymentIntent;
  [member: string]: unknown;
}

/** What the client learned from the HTTP exchange that produced a resource. */
export interface ResponseInfo {
  /** HTTP status of the final response. */
  statusCode: number;
  /** `X-Request-Id` of the response; quote it to support. */
  requestId: string | null;
  /** The `Idempotency-Key` sent (the caller's or a generated UUID v4); null when none was sent. */
  idempotencyKey: string | null;
  /** True when the service replayed a stored response (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

/**
 * A resource as returned by the client: the API fields plus a non-enumerable `lastResponse`
 * (stripe-node style), so `JSON.stringify(resource)` stays the plain API object.
 */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };
