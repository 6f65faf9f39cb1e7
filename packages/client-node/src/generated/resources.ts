// Generated from packages/contract by packages/contract/scripts/generate-clients.ts.
// Do not edit: change the contract and run `npm run clients`.
// Resource shapes as the API returns them (snake_case, as on the wire).

/** At most 50 string keys of at most 40 characters, each a string of at most 500. */
export type Metadata = Record<string, string>;

/** The values of PaymentIntentStatus. */
export type PaymentIntentStatus =
  | 'CREATED'
  | 'REQUIRES_ACTION'
  | 'PROCESSING'
  | 'REQUIRES_CAPTURE'
  | 'SUCCEEDED'
  | 'FAILED'
  | 'CANCELED'
  | 'EXPIRED';

/** The values of CaptureMethod. */
export type CaptureMethod = 'automatic' | 'manual';

/** The values of CancellationReason. */
export type CancellationReason =
  | 'duplicate'
  | 'fraudulent'
  | 'requested_by_customer'
  | 'abandoned'
  | 'requested'
  | 'authorization_expired';

/** The values of SetupFutureUsage documented so far (more may be added later: treat one you do not know as the most general). */
export type SetupFutureUsage = 'off_session';

/** The values of FailureCode. */
export type FailureCode = 'card_declined' | 'gateway_rejected';

/** The values of DeclineCode documented so far (more may be added later: treat one you do not know as the most general). */
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

/** The values of RefundStatus. */
export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/** The values of DisputeStatus. */
export type DisputeStatus = 'NEEDS_RESPONSE' | 'UNDER_REVIEW' | 'WON' | 'LOST';

/** The values of DisputeReason. */
export type DisputeReason =
  | 'fraudulent'
  | 'duplicate'
  | 'product_not_received'
  | 'product_unacceptable'
  | 'subscription_canceled'
  | 'credit_not_processed'
  | 'unrecognized'
  | 'general';

/** The values of SavedPaymentMethodStatus. */
export type SavedPaymentMethodStatus = 'active' | 'detached';

/** The values of TransactionType. */
export type TransactionType = 'PAYMENT' | 'REFUND' | 'DISPUTE' | 'DISPUTE_REVERSAL';

/** The values of TransactionStatus. */
export type TransactionStatus = 'PENDING' | 'APPROVED' | 'DECLINED';

/** Why the last payment attempt of a FAILED intent failed. */
export interface LastPaymentError {
  /** Stable, to branch on: card_declined (ask for another card) or gateway_rejected. */
  code: FailureCode;
  /** Why the card was declined, in one vocabulary for every gateway (insufficient_funds, expired_card, incorrect_cvc, incorrect_number, do_not_honor, fraudulent, lost_or_stolen, card_not_supported, currency_not_supported, processing_error, authentication_required, generic_decline), or null when the gateway gave no reason; treat a value you do not know like generic_decline. */
  decline_code: DeclineCode | (string & {}) | null;
  /** The gateway's own code for the decline, unchanged (Stripe's decline_code, Adyen's refusalReasonCode), or null. */
  gateway_code: string | null;
  /** A human-readable explanation, safe to show to the payer. */
  message: string;
}

/** A payment intent: one payment of an amount, from creation to its outcome. */
export interface PaymentIntent {
  /** Identifier with prefix pi_. */
  id: string;
  object: 'payment_intent';
  /** An integer amount in minor units of the currency, never a float. */
  amount_minor: number;
  /** ISO 4217 code, upper case. */
  currency: string;
  status: PaymentIntentStatus;
  /** The gateway account that takes the payment. */
  gateway_id: string;
  /** Where to send the payer when the status is REQUIRES_ACTION; null otherwise. */
  redirect_url: string | null;
  /** Where the gateway sends the payer back after a redirect; null when none was given. */
  return_url: string | null;
  /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
  metadata: Metadata;
  /** False for test data. */
  livemode: boolean;
  /** How much of the amount has been refunded, in minor units. */
  amount_refunded_minor: number;
  /** Always null: no card data is ever captured. */
  payment_method: null;
  /** Why the last payment attempt failed; null unless the status is FAILED. */
  last_payment_error: LastPaymentError | null;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
  /** ISO 8601 UTC instant. */
  created_at: string;
  /** When a CREATED or REQUIRES_ACTION intent expires (ISO 8601 UTC instant). */
  expires_at: string;
  /** Present when read with a secret key; hand it to the browser component, never log it. */
  client_secret?: string;
  /** Automatic (the default): the payment is captured when it is authorised; manual: it is authorised (REQUIRES_CAPTURE) and captured later by POST /v1/payment-intents/{id}/capture, or voided by cancel. */
  capture_method: CaptureMethod;
  /** What a capture may take now: the authorised amount while REQUIRES_CAPTURE, else 0. */
  amount_capturable_minor: number;
  /** What was captured, in minor units: the amount of a SUCCEEDED intent (a manual one: what its capture took). */
  amount_captured_minor: number;
  /** When the gateway drops the authorisation of a REQUIRES_CAPTURE intent (ISO 8601 UTC instant): not captured by then, the intent is CANCELED with cancellation_reason authorization_expired; null otherwise. */
  capture_before: string | null;
  /** Why a CANCELED intent was canceled: the merchant's reason, requested (a void of an authorisation) or authorization_expired; null otherwise. */
  cancellation_reason: CancellationReason | null;
  /** The customer this payment belongs to, or null. */
  customer_id: string | null;
  /** Whether the payment method is saved for the customer when the charge succeeds (off_session) or not (null). */
  setup_future_usage: SetupFutureUsage | (string & {}) | null;
}

/** A refund of part or all of a SUCCEEDED payment intent. */
export interface Refund {
  /** Identifier with prefix re_. */
  id: string;
  object: 'refund';
  /** Identifier with prefix pi_. */
  payment_intent_id: string;
  /** An integer amount in minor units of the currency, never a float. */
  amount_minor: number;
  /** ISO 4217 code, upper case (the intent currency). */
  currency: string;
  status: RefundStatus;
  /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
  metadata: Metadata;
  /** False for test data. */
  livemode: boolean;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
  /** ISO 8601 UTC instant. */
  created_at: string;
}

/** A chargeback the gateway reported against a payment: open, then WON or LOST. */
export interface Dispute {
  /** Identifier with prefix dp_. */
  id: string;
  object: 'dispute';
  /** Identifier with prefix pi_. */
  payment_intent_id: string;
  /** An integer amount in minor units of the currency, never a float. */
  amount_minor: number;
  /** ISO 4217 code, upper case. */
  currency: string;
  reason: DisputeReason;
  status: DisputeStatus;
  /** When the gateway must have the merchant’s evidence; null when it gave no date. */
  evidence_due_by: string | null;
  gateway_id: string;
  /** False for test data. */
  livemode: boolean;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
  /** ISO 8601 UTC instant. */
  created_at: string;
  /** ISO 8601 UTC instant. */
  updated_at: string;
}

/** One ledger line: a PAYMENT, a REFUND, a DISPUTE or a DISPUTE_REVERSAL. */
export interface Transaction {
  /** Identifier with prefix txn_. */
  id: string;
  object: 'transaction';
  type: TransactionType;
  status: TransactionStatus;
  /** An integer amount in minor units of the currency, never a float. */
  amount_minor: number;
  /** ISO 4217 code, upper case. */
  currency: string;
  /** Identifier with prefix pi_. */
  payment_intent_id: string;
  /** Null except for REFUND. */
  refund_id: string | null;
  gateway_id: string;
  /** False for test data. */
  livemode: boolean;
  /** ISO 8601 UTC instant. */
  created_at: string;
  /** ISO 8601 UTC instant. */
  updated_at: string;
}

/** A customer of the merchant, in one mode. */
export interface Customer {
  /** Identifier with prefix cus_. */
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  /** At most 50 keys; key at most 40 characters; value a string of at most 500 characters. */
  metadata: Metadata;
  /** False for test data. */
  livemode: boolean;
  /** ISO 8601 UTC instant. */
  created_at: string;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
  /** True once the customer is deleted (the answer to DELETE, and customer.deleted); false before. */
  deleted: boolean;
}

/** A customer's payment method, saved at a gateway with the payer's consent. */
export interface SavedPaymentMethod {
  /** Identifier with prefix spm_. */
  id: string;
  object: 'saved_payment_method';
  /** Identifier with prefix cus_. */
  customer_id: string;
  /** The gateway account that keeps the method; only it can charge it. */
  gateway_id: string;
  /** Active: it can be charged; detached: removed, here and at the gateway, for good. */
  status: SavedPaymentMethodStatus;
  /** False for test data. */
  livemode: boolean;
  /** ISO 8601 UTC instant. */
  created_at: string;
  /** 1 when created, one more with each change: keep the highest seen, drop an older state. */
  version: number;
}

/** The resource each event type carries as `data.object`. */
export interface EventObjects {
  /** The payer must complete a challenge at redirect_url. */
  'payment_intent.requires_action': PaymentIntent;
  /** The payment is authorised and waits for its capture (capture_method manual): capture it, or cancel it to release the authorisation, before capture_before. */
  'payment_intent.requires_capture': PaymentIntent;
  /** The payment succeeded. */
  'payment_intent.succeeded': PaymentIntent;
  /** The payment failed (declined or rejected by the gateway). */
  'payment_intent.failed': PaymentIntent;
  /** The intent was canceled: by the merchant, or (a manual intent) its authorisation was voided or lapsed; cancellation_reason says which. */
  'payment_intent.canceled': PaymentIntent;
  /** The intent expired before it was paid. */
  'payment_intent.expired': PaymentIntent;
  /** A capture that arrived after the intent was canceled, expired or failed was refunded in full. */
  'payment_intent.late_capture_refunded': PaymentIntent;
  /** The gateway captured the payer's money after the intent was canceled, expired or failed: the PAYMENT transaction is APPROVED and an automatic refund of the same amount is under way. The intent keeps its status. */
  'payment_intent.late_captured': PaymentIntent;
  /** The gateway reports that the capture of this succeeded payment failed or was reversed: the money did not reach the merchant. The intent stays SUCCEEDED; the operator settles it with the gateway. */
  'payment_intent.capture_reversed': PaymentIntent;
  /** The refund succeeded. */
  'refund.succeeded': Refund;
  /** The refund failed. */
  'refund.failed': Refund;
  /** The payer’s bank disputed a payment (a chargeback); when the gateway took the amount back, a DISPUTE transaction records it. */
  'dispute.created': Dispute;
  /** An open dispute changed: its status, reason or evidence due date. */
  'dispute.updated': Dispute;
  /** The dispute was decided: WON (a DISPUTE_REVERSAL transaction returns the amount) or LOST. */
  'dispute.closed': Dispute;
  /** A customer was created. */
  'customer.created': Customer;
  /** A customer's e-mail, name or metadata changed. */
  'customer.updated': Customer;
  /** A customer was deleted (data.object carries deleted: true); its saved payment methods are detached. */
  'customer.deleted': Customer;
  /** A payment method was saved for a customer: a payment made with setup_future_usage succeeded, and the method can now be charged without the payer. */
  'saved_payment_method.attached': SavedPaymentMethod;
  /** A saved payment method was detached (by the merchant, with its customer, or at the gateway): it can no longer be charged. */
  'saved_payment_method.detached': SavedPaymentMethod;
}

export type EventType = keyof EventObjects;

/** The event types this client version knows; others are to be acknowledged and ignored. */
export const knownEventTypes: readonly EventType[] = [
  'payment_intent.requires_action',
  'payment_intent.requires_capture',
  'payment_intent.succeeded',
  'payment_intent.failed',
  'payment_intent.canceled',
  'payment_intent.expired',
  'payment_intent.late_capture_refunded',
  'payment_intent.late_captured',
  'payment_intent.capture_reversed',
  'refund.succeeded',
  'refund.failed',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'saved_payment_method.attached',
  'saved_payment_method.detached',
];
