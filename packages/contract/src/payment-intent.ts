import { type Static, Type } from 'typebox';
import { AmountMinor, CurrencyCode, IdOf, Livemode, Metadata, ResourceVersion, Timestamp } from './common.ts';

export const paymentIntentStatuses = [
  'CREATED',
  'REQUIRES_ACTION',
  'PROCESSING',
  'REQUIRES_CAPTURE',
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
  'EXPIRED',
] as const;

export const PaymentIntentStatus = Type.Enum(paymentIntentStatuses);

/** `automatic`: the charge is captured at confirm; `manual`: authorised, then captured by `/capture`. */
export const captureMethods = ['automatic', 'manual'] as const;
export const CaptureMethod = Type.Enum(captureMethods, {
  description:
    'automatic (the default): the payment is captured when it is authorised; manual: it is authorised ' +
    '(REQUIRES_CAPTURE) and captured later by POST /v1/payment-intents/{id}/capture, or voided by cancel',
});

/**
 * `off_session`: the method the confirm used is saved for the intent's customer when the charge
 * succeeds, to be charged later without the payer (CONTRACT.md, second round: Saved payment methods).
 */
export const setupFutureUsages = ['off_session'] as const;
export const SetupFutureUsage = Type.Enum(setupFutureUsages, {
  description:
    'off_session: save the payment method this intent is paid with for its customer (customer_id ' +
    'required), to charge it later without the payer; the checkout frame asks the payer to agree',
});

/** Why an intent was canceled: the merchant's reasons, a void, or an authorisation that lapsed. */
export const cancellationReasons = [
  'duplicate',
  'fraudulent',
  'requested_by_customer',
  'abandoned',
  'requested',
  'authorization_expired',
] as const;

export const CreatePaymentIntentBody = Type.Object(
  {
    amount_minor: AmountMinor,
    currency: CurrencyCode,
    gateway_id: Type.String({ minLength: 1, maxLength: 64 }),
    metadata: Type.Optional(Metadata),
    return_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL' })),
    expires_in_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86_400, default: 86_400 })),
    capture_method: Type.Optional(CaptureMethod),
    customer_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "the merchant's customer (cus_) this payment belongs to",
      }),
    ),
    setup_future_usage: Type.Optional(SetupFutureUsage),
  },
  { additionalProperties: false },
);
export type CreatePaymentIntentBody = Static<typeof CreatePaymentIntentBody>;

export const ConfirmPaymentIntentBody = Type.Object(
  {
    // A gateway's token or, from Adyen Web, its card `paymentMethod` as JSON: four fields
    // encrypted for Adyen in the payer's browser, a few kilobytes at most.
    payment_method_token: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
    saved_payment_method_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "a saved payment method (spm_) of the intent's customer, instead of payment_method_token; secret key only",
      }),
    ),
    off_session: Type.Optional(
      Type.Boolean({
        description:
          'true: the payer is absent (a renewal, a top-up): a gateway that wants the payer fails the payment ' +
          'with decline_code authentication_required instead of answering REQUIRES_ACTION; needs saved_payment_method_id',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConfirmPaymentIntentBody = Static<typeof ConfirmPaymentIntentBody>;

export const CancelPaymentIntentBody = Type.Object(
  {
    cancellation_reason: Type.Optional(
      Type.Union([
        Type.Literal('duplicate'),
        Type.Literal('fraudulent'),
        Type.Literal('requested_by_customer'),
        Type.Literal('abandoned'),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type CancelPaymentIntentBody = Static<typeof CancelPaymentIntentBody>;

export const CapturePaymentIntentBody = Type.Object(
  {
    amount_minor: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 999_999_999_999,
        description: 'minor units to capture, at most amount_capturable_minor; omitted means all of it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CapturePaymentIntentBody = Static<typeof CapturePaymentIntentBody>;

export const PaymentIntentIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** Inner fields of `checkout`, present only when read with a publishable key and client secret. */
export const CheckoutBlock = Type.Object({
  gateway_id: Type.String(),
  hosted_fields_url: Type.Union([Type.String(), Type.Null()]),
  gateway_origin: Type.Union([Type.String(), Type.Null()]),
  // The public key the gateway's card component takes (Stripe publishable key, Adyen client key).
  component_key: Type.Union([Type.String(), Type.Null()]),
  // Which card component the frame mounts (`sim`, `stripe`, `adyen`): the connector behind
  // gateway_id, which a merchant's own account may name freely (`stripe-eu`).
  component: Type.Union([Type.String(), Type.Null()]),
  // For an intent with setup_future_usage: the merchant the payer's method is saved for, which the
  // frame names in its consent line; null when nothing is saved.
  saves_method_for: Type.Union([Type.String(), Type.Null()]),
});

/** Why a payment attempt failed: the payer's bank said no, or the gateway refused the request. */
export const failureCodes = ['card_declined', 'gateway_rejected'] as const;

/** The documented values of `last_payment_error.decline_code`; more may be added later. */
export const declineCodes = [
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'do_not_honor',
  'fraudulent',
  'lost_or_stolen',
  'card_not_supported',
  'currency_not_supported',
  'processing_error',
  'authentication_required',
  'generic_decline',
] as const;

/** Why the last payment attempt failed; null unless the intent is FAILED. */
export const LastPaymentError = Type.Object(
  {
    code: Type.Enum(failureCodes, {
      description: 'stable, to branch on: card_declined (ask for another card) or gateway_rejected',
    }),
    decline_code: Type.Union([Type.String(), Type.Null()], {
      description:
        `why the card was declined, in one vocabulary for every gateway (${declineCodes.join(', ')}), ` +
        'or null when the gateway gave no reason; treat a value you do not know like generic_decline',
    }),
    gateway_code: Type.Union([Type.String(), Type.Null()], {
      description:
        "the gateway's own code for the decline, unchanged (Stripe's decline_code, Adyen's refusalReasonCode), or null",
    }),
    message: Type.String({ description: 'a human-readable explanation, safe to show to the payer' }),
  },
  {
    additionalProperties: false,
    description: 'Why the last payment attempt of a FAILED intent failed',
  },
);
export type LastPaymentError = Static<typeof LastPaymentError>;

export const PaymentIntent = Type.Object(
  {
    id: IdOf('pi'),
    object: Type.Literal('payment_intent'),
    amount_minor: AmountMinor,
    currency: Type.String({ description: 'ISO 4217 code, upper case' }),
    status: PaymentIntentStatus,
    gateway_id: Type.String({ description: 'the gateway account that takes the payment' }),
    redirect_url: Type.Union([Type.String(), Type.Null()], {
      description: 'where to send the payer when the status is REQUIRES_ACTION; null otherwise',
    }),
    return_url: Type.Union([Type.String(), Type.Null()], {
      description: 'where the gateway sends the payer back after a redirect; null when none was given',
    }),
    metadata: Metadata,
    livemode: Livemode,
    amount_refunded_minor: Type.Integer({
      minimum: 0,
      description: 'how much of the amount has been refunded, in minor units',
    }),
    payment_method: Type.Null({ description: 'always null: no card data is ever captured' }),
    last_payment_error: Type.Union([LastPaymentError, Type.Null()], {
      description: 'why the last payment attempt failed; null unless the status is FAILED',
    }),
    version: ResourceVersion,
    created_at: Timestamp,
    expires_at: Type.String({
      format: 'date-time',
      description: 'when a CREATED or REQUIRES_ACTION intent expires (ISO 8601 UTC instant)',
    }),
    client_secret: Type.Optional(
      Type.String({
        description: 'present when read with a secret key; hand it to the browser component, never log it',
      }),
    ),
    capture_method: CaptureMethod,
    amount_capturable_minor: Type.Integer({
      minimum: 0,
      description: 'what a capture may take now: the authorised amount while REQUIRES_CAPTURE, else 0',
    }),
    amount_captured_minor: Type.Integer({
      minimum: 0,
      description:
        'what was captured, in minor units: the amount of a SUCCEEDED intent (a manual one: what its capture took)',
    }),
    capture_before: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'when the gateway drops the authorisation of a REQUIRES_CAPTURE intent (ISO 8601 UTC instant): ' +
        'not captured by then, the intent is CANCELED with cancellation_reason authorization_expired; null otherwise',
    }),
    cancellation_reason: Type.Union([Type.Enum(cancellationReasons), Type.Null()], {
      description:
        "why a CANCELED intent was canceled: the merchant's reason, requested (a void of an authorisation) or " +
        'authorization_expired; null otherwise',
    }),
    customer_id: Type.Union([IdOf('cus'), Type.Null()], {
      description: 'the customer this payment belongs to, or null',
    }),
    setup_future_usage: Type.Union([SetupFutureUsage, Type.Null()], {
      description:
        'whether the payment method is saved for the customer when the charge succeeds (off_session) or not (null)',
    }),
    checkout: Type.Optional(CheckoutBlock),
  },
  { description: 'A payment intent: one payment of an amount, from creation to its outcome' },
);
export type PaymentIntent = Static<typeof PaymentIntent>;
