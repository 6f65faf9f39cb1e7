// Stripe's PaymentIntents and Refunds API as pure functions: form-encoded requests built from our
// domain, answers read back. Nothing here sends anything; the shared executor does. An answer we
// cannot read is `indeterminate`, never success.
import { NO_DECLINE_REASON, stripeDeclineReason } from '../../domain/decline-codes.ts';
import {
  type AuthorizationOutcome,
  type AuthorizationRequest,
  assertGatewayIdempotencyKey,
  type ChargeOutcome,
  type ChargeRequest,
  type RefundOutcome,
  type RefundRequest,
} from '../connector.ts';
import type { GatewayHttpReply, GatewayHttpRequest } from '../http-executor.ts';
import { jsonObjectOf, meaningOfRefusal, stringOf } from '../reply-meaning.ts';
import { encodeStripeForm, type FormValue } from './form.ts';

/** The API version whose description the requests are validated against. */
export const STRIPE_API_VERSION = '2020-08-27';
/** Metadata key that carries our idempotency key, so events and searches lead back to it. */
export const KEY_METADATA = 'paygate_idempotency_key';

export interface StripeAccount {
  /** `https://api.stripe.com`, or a fake's URL in tests. */
  baseUrl: string;
  /** `sk_test_...` or `sk_live_...`. */
  secretKey: string;
  /** Where Stripe sends the payer back when the charge request named none. */
  defaultReturnUrl: string;
}

/**
 * Stripe counts these currencies in ISO 4217 minor units (zero-decimal JPY is yen, EUR is cents),
 * so amounts pass through unchanged. Minimums are Stripe's smallest charge per currency.
 */
export const STRIPE_MINIMUM_AMOUNT_MINOR: Readonly<Record<string, number>> = {
  USD: 50,
  EUR: 50,
  GBP: 30,
  CHF: 50,
  SEK: 300,
  JPY: 50,
};

type Json = Record<string, unknown>;

function request(
  account: StripeAccount,
  method: 'GET' | 'POST',
  path: string,
  idempotencyKey: string | null,
  body?: Record<string, FormValue>,
): GatewayHttpRequest {
  if (idempotencyKey !== null) assertGatewayIdempotencyKey(idempotencyKey);
  return {
    method,
    url: `${account.baseUrl.replace(/\/+$/, '')}${path}`,
    headers: {
      authorization: `Bearer ${account.secretKey}`,
      'stripe-version': STRIPE_API_VERSION,
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: body ? encodeStripeForm(body) : undefined,
  };
}

/** `POST /v1/payment_intents` confirmed at once; a 3-D Secure step comes back as a redirect. */
export function buildCreatePaymentIntent(account: StripeAccount, charge: ChargeRequest): GatewayHttpRequest {
  return request(account, 'POST', '/v1/payment_intents', charge.idempotencyKey, {
    amount: charge.amountMinor,
    currency: charge.currency.toLowerCase(),
    confirm: true,
    payment_method: charge.paymentMethodToken,
    payment_method_types: ['card'],
    return_url: charge.returnUrl ?? account.defaultReturnUrl,
    metadata: { [KEY_METADATA]: charge.idempotencyKey, paygate_payment_intent: charge.paymentIntentId },
    ...(charge.capture === false ? { capture_method: 'manual' } : {}),
  });
}

/**
 * How long Stripe holds an online card authorisation before it releases it: 7 days (Stripe's
 * "Place a hold on a payment method"). The API version Paygate speaks does not say it per charge.
 */
export const STRIPE_AUTHORIZATION_SECONDS = 7 * 24 * 60 * 60;

/**
 * `POST /v1/payment_intents/{id}/capture` with `amount_to_capture`, or `/cancel` (a void, no
 * amount). Only what is stable for the operation goes in the body: a resend is byte-identical.
 */
export function buildAuthorizationCall(
  account: StripeAccount,
  call: AuthorizationRequest & { amountMinor?: number },
): GatewayHttpRequest {
  const intent = encodeURIComponent(call.chargeReference);
  return call.amountMinor === undefined
    ? request(account, 'POST', `/v1/payment_intents/${intent}/cancel`, call.idempotencyKey, {})
    : request(account, 'POST', `/v1/payment_intents/${intent}/capture`, call.idempotencyKey, {
        amount_to_capture: call.amountMinor,
      });
}

export function buildRetrievePaymentIntent(account: StripeAccount, reference: string): GatewayHttpRequest {
  return request(account, 'GET', `/v1/payment_intents/${encodeURIComponent(reference)}`, null);
}

/** Finds the PaymentIntent made with our key when its id never reached us (a time-out). */
export function buildSearchPaymentIntent(account: StripeAccount, idempotencyKey: string): GatewayHttpRequest {
  const query = `metadata['${KEY_METADATA}']:'${idempotencyKey.replace(/['\\]/g, '')}'`;
  return request(account, 'GET', `/v1/payment_intents/search?${new URLSearchParams({ query })}`, null);
}

/**
 * `POST /v1/refunds`. The body is built only from what is stable for the refund (its key, the
 * charge, the amount, the intent), never from our row's id: a retry under the same key must be
 * byte-identical, or Stripe refuses it with `idempotency_error`.
 */
export function buildCreateRefund(account: StripeAccount, refund: RefundRequest): GatewayHttpRequest {
  return request(account, 'POST', '/v1/refunds', refund.idempotencyKey, {
    payment_intent: refund.chargeReference,
    amount: refund.amountMinor,
    metadata: { [KEY_METADATA]: refund.idempotencyKey, paygate_payment_intent: refund.paymentIntentId },
  });
}

/** The refunds of a PaymentIntent, newest first: where a refund whose answer was lost is found. */
export function buildListRefunds(account: StripeAccount, paymentIntent: string): GatewayHttpRequest {
  const query = new URLSearchParams({ payment_intent: paymentIntent, limit: '100' });
  return request(account, 'GET', `/v1/refunds?${query}`, null);
}

export function buildRetrieveRefund(account: StripeAccount, reference: string): GatewayHttpRequest {
  return request(account, 'GET', `/v1/refunds/${encodeURIComponent(reference)}`, null);
}

function errorOf(text: string | null): Json | null {
  const error = jsonObjectOf(text)?.error;
  return typeof error === 'object' && error !== null ? (error as Json) : null;
}

function describeError(text: string | null): string {
  const error = errorOf(text);
  return error
    ? `${stringOf(error.code) ?? stringOf(error.type) ?? '?'}: ${stringOf(error.message) ?? ''}`
    : 'no readable error';
}

/** Stripe answers 409 `idempotency_key_in_use` while the first request with the key still runs. */
function isConflict(status: number): boolean {
  return status === 409;
}

/** A PaymentIntent object as an outcome (also used for the objects inside webhook events). */
export function paymentIntentOutcome(intent: Json | null): ChargeOutcome {
  const id = stringOf(intent?.id);
  if (!intent || !id || intent.object !== 'payment_intent') {
    return { kind: 'indeterminate', detail: 'unreadable stripe payment intent' };
  }
  const lastError = (intent.last_payment_error ?? null) as Json | null;
  switch (intent.status) {
    case 'succeeded': {
      // What Stripe took: `amount_received` (the `amount` asked, for objects without it).
      const taken = typeof intent.amount_received === 'number' ? intent.amount_received : intent.amount;
      const currency = stringOf(intent.currency);
      return typeof taken === 'number' && currency
        ? {
            kind: 'succeeded',
            gatewayReference: id,
            captured: { amountMinor: taken, currency: currency.toUpperCase() },
          }
        : { kind: 'succeeded', gatewayReference: id };
    }
    case 'processing':
      return { kind: 'pending', gatewayReference: id };
    case 'requires_capture': {
      const created = intent.created;
      const currency = stringOf(intent.currency);
      if (typeof created !== 'number' || typeof intent.amount_capturable !== 'number' || !currency) {
        return { kind: 'indeterminate', detail: 'unreadable stripe authorisation' };
      }
      return {
        kind: 'authorized',
        gatewayReference: id,
        captureBefore: new Date((created + STRIPE_AUTHORIZATION_SECONDS) * 1000),
        authorized: { amountMinor: intent.amount_capturable, currency: currency.toUpperCase() },
      };
    }
    case 'requires_action': {
      const next = (intent.next_action ?? null) as Json | null;
      const redirect = (next?.redirect_to_url ?? null) as Json | null;
      const url = stringOf(redirect?.url);
      return next?.type === 'redirect_to_url' && url && /^https?:\/\//.test(url)
        ? { kind: 'requires_action', gatewayReference: id, redirectUrl: url }
        : { kind: 'indeterminate', detail: 'stripe requires an action that is not a redirect' };
    }
    case 'requires_payment_method':
      // After a failed attempt Stripe puts the intent back here with the decline in last_payment_error.
      return lastError
        ? {
            kind: 'failed',
            gatewayReference: id,
            failureCode: 'card_declined',
            ...stripeDeclineReason(stringOf(lastError.decline_code), stringOf(lastError.code)),
            message: stringOf(lastError.message) ?? stringOf(lastError.decline_code) ?? 'declined',
          }
        : { kind: 'indeterminate', detail: 'stripe payment intent awaits a payment method' };
    case 'canceled':
      return {
        kind: 'failed',
        gatewayReference: id,
        failureCode: 'gateway_rejected',
        ...NO_DECLINE_REASON,
        message: `stripe canceled: ${stringOf(intent.cancellation_reason) ?? 'no reason'}`,
      };
    default:
      return { kind: 'indeterminate', detail: `stripe payment intent in status ${String(intent.status)}` };
  }
}

/** The answer to a creation, retrieval or search of a PaymentIntent. */
export function parsePaymentIntentReply(reply: GatewayHttpReply): ChargeOutcome {
  if (reply.kind === 'answer' && reply.status === 200) {
    const body = jsonObjectOf(reply.text);
    if (body?.object === 'search_result') {
      const [first] = Array.isArray(body.data) ? body.data : [];
      // Search is eventually consistent: "not found yet" is not "never charged".
      return first
        ? paymentIntentOutcome(first as Json)
        : { kind: 'indeterminate', detail: 'stripe search found no payment intent (yet)' };
    }
    return paymentIntentOutcome(body);
  }
  // A decline is a 402 card_error whose body carries the PaymentIntent it failed.
  const failedIntent = reply.kind === 'answer' ? errorOf(reply.text)?.payment_intent : undefined;
  if (reply.kind === 'answer' && reply.status === 402 && typeof failedIntent === 'object' && failedIntent) {
    const outcome = paymentIntentOutcome(failedIntent as Json);
    if (outcome.kind === 'failed') return outcome;
  }
  const meaning = meaningOfRefusal(reply, 'stripe', describeError, isConflict);
  if (meaning.kind !== 'failed') return meaning;
  const declined = reply.kind === 'answer' && reply.status === 402;
  const error = declined ? errorOf(reply.text) : null;
  return {
    kind: 'failed',
    gatewayReference: null,
    failureCode: declined ? 'card_declined' : 'gateway_rejected',
    ...(error ? stripeDeclineReason(stringOf(error.decline_code), stringOf(error.code)) : NO_DECLINE_REASON),
    message: meaning.detail,
  };
}

/**
 * The answer to a capture or a cancel: the PaymentIntent as it now stands. A capture is done when
 * it is `succeeded` (what it took: `amount_received`), a void when it is `canceled`; a refusal
 * (4xx, e.g. an amount over `amount_capturable` or an intent no longer `requires_capture`) is
 * `failed` and the authorisation stands as Stripe has it.
 */
export function parseAuthorizationReply(
  reply: GatewayHttpReply,
  call: AuthorizationRequest & { amountMinor?: number },
): AuthorizationOutcome {
  if (reply.kind === 'answer' && reply.status === 200) {
    const intent = jsonObjectOf(reply.text);
    if (intent?.object !== 'payment_intent' || stringOf(intent.id) !== call.chargeReference) {
      return { kind: 'indeterminate', detail: 'unreadable stripe payment intent' };
    }
    const voiding = call.amountMinor === undefined;
    if (voiding) {
      return intent.status === 'canceled'
        ? { kind: 'succeeded', gatewayReference: call.chargeReference }
        : {
            kind: 'indeterminate',
            detail: `stripe payment intent in status ${String(intent.status)} after a cancel`,
          };
    }
    const currency = stringOf(intent.currency);
    if (intent.status !== 'succeeded' || typeof intent.amount_received !== 'number' || !currency) {
      return {
        kind: 'indeterminate',
        detail: `stripe payment intent in status ${String(intent.status)} after a capture`,
      };
    }
    return {
      kind: 'succeeded',
      gatewayReference: call.chargeReference,
      captured: { amountMinor: intent.amount_received, currency: currency.toUpperCase() },
    };
  }
  const meaning = meaningOfRefusal(reply, 'stripe', describeError, isConflict);
  if (meaning.kind !== 'failed') return meaning;
  const error = reply.kind === 'answer' ? errorOf(reply.text) : null;
  return {
    kind: 'failed',
    ...(error ? stripeDeclineReason(stringOf(error.decline_code), stringOf(error.code)) : NO_DECLINE_REASON),
    message: meaning.detail,
  };
}

/** A Refund object as an outcome. */
export function refundObjectOutcome(refund: Json | null): RefundOutcome {
  const id = stringOf(refund?.id);
  if (!refund || !id || refund.object !== 'refund')
    return { kind: 'indeterminate', detail: 'unreadable stripe refund' };
  switch (refund.status) {
    case 'succeeded': {
      const currency = stringOf(refund.currency);
      return typeof refund.amount === 'number' && currency
        ? {
            kind: 'succeeded',
            gatewayReference: id,
            refunded: { amountMinor: refund.amount, currency: currency.toUpperCase() },
          }
        : { kind: 'succeeded', gatewayReference: id };
    }
    case 'pending':
    case 'requires_action':
      return { kind: 'pending', gatewayReference: id };
    case 'failed':
    case 'canceled':
      return {
        kind: 'failed',
        gatewayReference: id,
        message: `stripe refund ${refund.status}: ${stringOf(refund.failure_reason) ?? 'no reason'}`,
      };
    default:
      return { kind: 'indeterminate', detail: `stripe refund in status ${String(refund.status)}` };
  }
}

/**
 * The refund made with `idempotencyKey` in a list of a PaymentIntent's refunds. The list is read
 * from Stripe's books (not a search index): a complete list without it means Stripe made no refund
 * with the key, `unavailable` (the request may be sent again). Any other answer tells nothing.
 */
export function parseRefundListReply(reply: GatewayHttpReply, idempotencyKey: string): RefundOutcome {
  const body = reply.kind === 'answer' && reply.status === 200 ? jsonObjectOf(reply.text) : null;
  if (body?.object !== 'list' || !Array.isArray(body.data)) {
    return { kind: 'indeterminate', detail: 'stripe refund list unreadable' };
  }
  const made = body.data.find(
    (refund: unknown) =>
      typeof refund === 'object' &&
      refund !== null &&
      stringOf(((refund as Json).metadata as Json | undefined)?.[KEY_METADATA]) === idempotencyKey,
  );
  if (made) return refundObjectOutcome(made as Json);
  if (body.has_more !== false) {
    return { kind: 'indeterminate', detail: 'stripe refund list is longer than one page' };
  }
  return { kind: 'unavailable', retryAfterSeconds: 0, detail: 'stripe has no refund made with this key' };
}

export function parseRefundReply(reply: GatewayHttpReply): RefundOutcome {
  if (reply.kind === 'answer' && reply.status === 200) return refundObjectOutcome(jsonObjectOf(reply.text));
  const meaning = meaningOfRefusal(reply, 'stripe', describeError, isConflict);
  if (meaning.kind !== 'failed') return meaning;
  return { kind: 'failed', gatewayReference: null, message: meaning.detail };
}
