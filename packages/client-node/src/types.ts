// Resource shapes as the API returns them (snake_case, as on the wire), per CONTRACT.md.

export type PaymentIntentStatus =
  | 'CREATED'
  | 'REQUIRES_ACTION'
  | 'PROCESSING'
  | 'SUCCEEDED'
  | 'FAILED'
  | 'CANCELED'
  | 'EXPIRED';

export type Metadata = Record<string, string>;

/** The documented values of `LastPaymentError.decline_code` (more may be added later). */
export type DeclineCode =
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'incorrect_number'
  | 'do_not_honor'
  | 'fraudulent'
  | 'lost_or_stolen'
  | 'card_not_supported'
  | 'currency_not_supported'
  | 'processing_error'
  | 'authentication_required'
  | 'generic_decline';

/** Why the last payment attempt failed (on a `FAILED` intent and in `payment_intent.failed`). */
export interface LastPaymentError {
  /** Stable reason: `card_declined` or `gateway_rejected`. */
  code: string;
  /**
   * Why, in one vocabulary for every gateway (e.g. `insufficient_funds`), or null when the gateway
   * gave no reason. A value this version does not know reads like `generic_decline`.
   */
  decline_code: DeclineCode | (string & {}) | null;
  /** The gateway's own code for the decline, unchanged (Stripe `insufficient_funds`, Adyen `12`), or null. */
  gateway_code: string | null;
  /** A human-readable explanation, safe to show to the payer. */
  message: string;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  /** Integer amount in minor units of `currency`; never a float. */
  amount_minor: number;
  currency: string;
  status: PaymentIntentStatus;
  gateway_id: string;
  /** Where to send the payer when `status` is `REQUIRES_ACTION`; null otherwise. */
  redirect_url: string | null;
  return_url: string | null;
  metadata: Metadata;
  livemode: boolean;
  amount_refunded_minor: number;
  /** Always null: no card metadata is ever captured. */
  payment_method: null;
  /** Why the last payment attempt failed; null unless `status` is `FAILED`. */
  last_payment_error: LastPaymentError | null;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
  created_at: string;
  expires_at: string;
  /** Present when read with a secret key; hand it to the browser component, never log it. */
  client_secret?: string;
}

export interface CreatePaymentIntentParams {
  amount_minor: number;
  currency: string;
  gateway_id: string;
  metadata?: Metadata;
  return_url?: string;
  /** 60..86400; the server default is 86400. */
  expires_in_seconds?: number;
}

export interface ConfirmPaymentIntentParams {
  /** Token issued by the gateway's hosted fields (or a `tok_sim_*` token in test mode). */
  payment_method_token?: string;
}

export interface CancelPaymentIntentParams {
  cancellation_reason?: 'duplicate' | 'fraudulent' | 'requested_by_customer' | 'abandoned';
}

export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface Refund {
  id: string;
  object: 'refund';
  payment_intent_id: string;
  amount_minor: number;
  currency: string;
  status: RefundStatus;
  metadata: Metadata;
  livemode: boolean;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
  created_at: string;
}

export interface CreateRefundParams {
  payment_intent_id: string;
  /** Omitted means all that remains refundable. */
  amount_minor?: number;
  metadata?: Metadata;
}

export type DisputeStatus = 'NEEDS_RESPONSE' | 'UNDER_REVIEW' | 'WON' | 'LOST';
export type DisputeReason =
  | 'fraudulent'
  | 'duplicate'
  | 'product_not_received'
  | 'product_unacceptable'
  | 'subscription_canceled'
  | 'credit_not_processed'
  | 'unrecognized'
  | 'general';

/** A chargeback of a payment, as the gateway reported it; it closes WON or LOST. */
export interface Dispute {
  id: string;
  object: 'dispute';
  payment_intent_id: string;
  amount_minor: number;
  currency: string;
  reason: DisputeReason;
  status: DisputeStatus;
  /** When the gateway must have your evidence (ISO 8601), or null. */
  evidence_due_by: string | null;
  gateway_id: string;
  livemode: boolean;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
  created_at: string;
  updated_at: string;
}

/** DISPUTE: an amount a chargeback took back; DISPUTE_REVERSAL: an amount a won dispute returned. */
export type TransactionType = 'PAYMENT' | 'REFUND' | 'DISPUTE' | 'DISPUTE_REVERSAL';
export type TransactionStatus = 'PENDING' | 'APPROVED' | 'DECLINED';

export interface Transaction {
  id: string;
  object: 'transaction';
  type: TransactionType;
  status: TransactionStatus;
  amount_minor: number;
  currency: string;
  payment_intent_id: string;
  refund_id: string | null;
  gateway_id: string;
  livemode: boolean;
  created_at: string;
  updated_at: string;
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
