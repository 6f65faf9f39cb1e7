// Adyen Checkout API v72 as pure functions: requests built from our domain, answers read back.
// Nothing here sends anything; the shared executor does. An answer we cannot read is
// `indeterminate`, never success.
import { createHash } from 'node:crypto';
import { adyenDeclineReason } from '../../domain/decline-codes.ts';
import {
  type AuthorizationOutcome,
  type AuthorizationRequest,
  assertGatewayIdempotencyKey,
  type ChargeOutcome,
  type ChargeRequest,
  type CompleteActionRequest,
  type RefundOutcome,
  type RefundRequest,
} from '../connector.ts';
import type { GatewayHttpReply, GatewayHttpRequest } from '../http-executor.ts';
import { jsonObjectOf, meaningOfRefusal, stringOf } from '../reply-meaning.ts';
import { adyenAmountOf, toAdyenValue } from './amounts.ts';

export interface AdyenAccount {
  /** `https://checkout-test.adyen.com/v72` in test, the live URL prefix Adyen assigns in live. */
  baseUrl: string;
  apiKey: string;
  merchantAccount: string;
  /** Where Adyen sends the payer back when the charge request named none. */
  defaultReturnUrl: string;
}

function post(
  account: AdyenAccount,
  path: string,
  idempotencyKey: string,
  body: unknown,
): GatewayHttpRequest {
  assertGatewayIdempotencyKey(idempotencyKey);
  return {
    method: 'POST',
    url: `${account.baseUrl.replace(/\/+$/, '')}${path}`,
    headers: {
      'x-api-key': account.apiKey,
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify(body),
  };
}

const ENCRYPTED_CARD_FIELDS = [
  'encryptedCardNumber',
  'encryptedExpiryMonth',
  'encryptedExpiryYear',
  'encryptedSecurityCode',
] as const;

/** Adyen Web's card `paymentMethod`: the card's fields encrypted in the payer's browser for Adyen. */
export interface AdyenEncryptedCard {
  type: 'scheme';
  encryptedCardNumber: string;
  encryptedExpiryMonth: string;
  encryptedExpiryYear: string;
  encryptedSecurityCode: string;
  holderName?: string;
}

/**
 * The `payment_method_token` as Adyen Web's card `paymentMethod` (its JSON text, which the checkout
 * frame passes on unchanged), or null when the token is something else (a stored payment method).
 * Only the encrypted fields and the holder name are kept: nothing else the browser sent travels on.
 */
export function encryptedCardOf(token: string): AdyenEncryptedCard | null {
  if (!token.startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(token);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const given = parsed as Record<string, unknown>;
  if (given.type !== 'scheme') return null;
  const field = (name: (typeof ENCRYPTED_CARD_FIELDS)[number]) => {
    const value = given[name];
    return typeof value === 'string' && value.length > 0 ? value : null;
  };
  const [number, month, year, code] = ENCRYPTED_CARD_FIELDS.map(field);
  if (!number || !month || !year || !code) return null;
  const card: AdyenEncryptedCard = {
    type: 'scheme',
    encryptedCardNumber: number,
    encryptedExpiryMonth: month,
    encryptedExpiryYear: year,
    encryptedSecurityCode: code,
  };
  if (typeof given.holderName === 'string' && given.holderName.trim() !== '')
    card.holderName = given.holderName;
  return card;
}

/**
 * Why a token that is JSON (so meant as Adyen Web's card data, never a stored payment method's
 * id) cannot be sent, or null when it can (or is not JSON). Without this, a broken one was sent
 * as a stored payment method id and came back as Adyen's refusal.
 */
export function adyenTokenProblem(token: string): string | null {
  if (!token.startsWith('{') || encryptedCardOf(token) !== null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(token);
  } catch {
    return "starts with '{' but is not JSON: it must be Adyen Web's card data (its JSON text, unchanged) or a stored payment method id";
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return "must be Adyen Web's card data as a JSON object";
  }
  const given = parsed as Record<string, unknown>;
  if (given.type !== 'scheme')
    return `is Adyen Web data of type ${JSON.stringify(given.type)}; only card data (type "scheme") is taken`;
  const missing = ENCRYPTED_CARD_FIELDS.filter(
    (name) => typeof given[name] !== 'string' || given[name] === '',
  );
  return `is Adyen Web's card data without ${missing.join(', ')}`;
}

/**
 * `POST /payments`. The token is either Adyen Web's encrypted card (a payment the payer makes now,
 * `Ecommerce`) or a stored payment method (`ContAuth`, card on file); either way no card data
 * passes through Paygate. Our idempotency key is also the merchant reference: notifications carry
 * it back.
 */
export function buildPaymentRequest(account: AdyenAccount, request: ChargeRequest): GatewayHttpRequest {
  const encrypted = encryptedCardOf(request.paymentMethodToken);
  const paymentMethod = encrypted
    ? {
        paymentMethod: encrypted,
        shopperInteraction: 'Ecommerce',
        channel: 'Web',
      }
    : {
        paymentMethod: { type: 'scheme', storedPaymentMethodId: request.paymentMethodToken },
        shopperReference: request.paymentIntentId,
        shopperInteraction: 'ContAuth',
        recurringProcessingModel: 'CardOnFile',
      };
  return post(account, '/payments', request.idempotencyKey, {
    amount: { currency: request.currency, value: toAdyenValue(request.amountMinor, request.currency) },
    merchantAccount: account.merchantAccount,
    reference: request.idempotencyKey,
    returnUrl: request.returnUrl ?? account.defaultReturnUrl,
    ...paymentMethod,
    metadata: { paygatePaymentIntent: request.paymentIntentId },
    // A manual intent: authorised only; Paygate captures it later (`/captures`).
    ...(request.capture === false ? { additionalData: { manualCapture: 'true' } } : {}),
  });
}

/**
 * `POST /payments/{pspReference}/captures` (with the amount) or `/cancels` (a void): Adyen takes
 * the modification (201 `received`) and reports its outcome by the CAPTURE or CANCELLATION
 * notification, whose merchantReference is our operation's gateway key sent here as `reference`.
 */
export function buildAuthorizationCall(
  account: AdyenAccount,
  call: AuthorizationRequest & { amountMinor?: number },
): GatewayHttpRequest {
  const payment = encodeURIComponent(call.chargeReference);
  return call.amountMinor === undefined
    ? post(account, `/payments/${payment}/cancels`, call.idempotencyKey, {
        merchantAccount: account.merchantAccount,
        reference: call.idempotencyKey,
      })
    : post(account, `/payments/${payment}/captures`, call.idempotencyKey, {
        amount: { currency: call.currency, value: toAdyenValue(call.amountMinor, call.currency) },
        merchantAccount: account.merchantAccount,
        reference: call.idempotencyKey,
      });
}

/** A capture's or cancel's answer: taken (201 `received`) means pending until its notification. */
export function parseAuthorizationReply(reply: GatewayHttpReply): AuthorizationOutcome {
  if (reply.kind === 'answer' && reply.status === 201) {
    const body = jsonObjectOf(reply.text);
    const pspReference = stringOf(body?.pspReference);
    return pspReference && body?.status === 'received'
      ? { kind: 'pending', gatewayReference: pspReference }
      : { kind: 'indeterminate', detail: 'unreadable adyen modification answer' };
  }
  const meaning = meaningOfRefusal(reply, 'adyen', describeError, isConflict);
  if (meaning.kind !== 'failed') return meaning;
  return {
    kind: 'failed',
    declineCode: null,
    gatewayCode: stringOf(jsonObjectOf(reply.kind === 'answer' ? reply.text : null)?.errorCode),
    message: meaning.detail,
  };
}

/** `POST /payments/details`: what the payer's return from a redirect or 3-D Secure page carried. */
export function buildDetailsRequest(
  account: AdyenAccount,
  request: CompleteActionRequest,
): GatewayHttpRequest {
  const details: Record<string, string> = {};
  for (const name of ['redirectResult', 'threeDSResult', 'payload']) {
    const value = request.returnParameters[name];
    if (value) details[name] = value;
  }
  if (Object.keys(details).length === 0) throw new RangeError('the return carried no redirectResult');
  // Keyed by what was returned, not only by the attempt: a details request Adyen refused (an
  // altered redirectResult) must not be replayed to the payer's genuine return; the same return
  // again (a reload) is the same request.
  const digest = createHash('sha256').update(JSON.stringify(details)).digest('hex').slice(0, 16);
  return post(account, '/payments/details', `${request.idempotencyKey}:d:${digest}`, { details });
}

/** `POST /payments/{pspReference}/refunds`; the reference is our refund's gateway key. */
export function buildRefundRequest(account: AdyenAccount, request: RefundRequest): GatewayHttpRequest {
  return post(
    account,
    `/payments/${encodeURIComponent(request.chargeReference)}/refunds`,
    request.idempotencyKey,
    {
      amount: { currency: request.currency, value: toAdyenValue(request.amountMinor, request.currency) },
      merchantAccount: account.merchantAccount,
      reference: request.idempotencyKey,
    },
  );
}

function describeError(text: string | null): string {
  const body = jsonObjectOf(text);
  if (!body) return 'no readable error';
  return `${stringOf(body.errorCode) ?? '?'} ${stringOf(body.message) ?? ''}`.trim();
}

/** Adyen answers 422 with errorCode 704 while a request with the same key is still in progress. */
function isConflict(status: number, text: string | null): boolean {
  return status === 422 && jsonObjectOf(text)?.errorCode === '704';
}

function redirectUrlOf(action: unknown): string | null {
  const url =
    typeof action === 'object' && action !== null ? stringOf((action as Record<string, unknown>).url) : null;
  if (!url) return null;
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol) ? url : null;
  } catch {
    return null;
  }
}

/** A `/payments` or `/payments/details` answer as a charge outcome (the `resultCode` table). */
export function parsePaymentReply(reply: GatewayHttpReply, idempotencyKey: string): ChargeOutcome {
  if (reply.kind !== 'answer' || reply.status !== 200) {
    const meaning = meaningOfRefusal(reply, 'adyen', describeError, isConflict);
    if (meaning.kind !== 'failed') return meaning;
    return {
      kind: 'failed',
      gatewayReference: null,
      failureCode: 'gateway_rejected',
      message: meaning.detail,
    };
  }
  const body = jsonObjectOf(reply.text);
  const resultCode = stringOf(body?.resultCode);
  const pspReference = stringOf(body?.pspReference);
  // A redirect answer may come before Adyen assigns a pspReference; our reference names it then.
  const reference = pspReference ?? stringOf(body?.merchantReference) ?? idempotencyKey;
  const refusal = stringOf(body?.refusalReason) ?? 'refused';
  const reason = adyenDeclineReason(stringOf(body?.refusalReasonCode), stringOf(body?.refusalReason));
  switch (resultCode) {
    case 'Authorised': {
      if (!pspReference) return { kind: 'indeterminate', detail: 'adyen authorised without a pspReference' };
      // The answer's `amount` is what Adyen authorised (a partial authorisation is less than was
      // asked): the payment's outcome checks it against the intent, as it checks a notification's.
      const authorised = adyenAmountOf(body?.amount);
      return {
        kind: 'succeeded',
        gatewayReference: pspReference,
        authorizationOnly: true,
        ...(authorised ? { captured: authorised } : {}),
      };
    }
    case 'Refused':
      return {
        kind: 'failed',
        gatewayReference: pspReference,
        failureCode: 'card_declined',
        ...reason,
        message: refusal,
      };
    case 'Cancelled':
    case 'Error':
      return {
        kind: 'failed',
        gatewayReference: pspReference,
        failureCode: 'gateway_rejected',
        ...reason,
        message: `adyen ${resultCode}: ${refusal}`,
      };
    case 'RedirectShopper':
    case 'ChallengeShopper':
    case 'IdentifyShopper': {
      const redirectUrl = redirectUrlOf(body?.action);
      return redirectUrl
        ? { kind: 'requires_action', gatewayReference: reference, redirectUrl }
        : { kind: 'indeterminate', detail: `adyen ${resultCode} without a redirect action` };
    }
    case 'Pending':
    case 'Received':
      return { kind: 'pending', gatewayReference: reference };
    default:
      return { kind: 'indeterminate', detail: `unknown adyen resultCode ${resultCode ?? '(none)'}` };
  }
}

/** A refund request's answer: Adyen takes it (201 `received`) and reports the outcome later. */
export function parseRefundReply(reply: GatewayHttpReply): RefundOutcome {
  if (reply.kind === 'answer' && reply.status === 201) {
    const body = jsonObjectOf(reply.text);
    const pspReference = stringOf(body?.pspReference);
    return pspReference && body?.status === 'received'
      ? { kind: 'pending', gatewayReference: pspReference }
      : { kind: 'indeterminate', detail: 'unreadable adyen refund answer' };
  }
  const meaning = meaningOfRefusal(reply, 'adyen', describeError, isConflict);
  if (meaning.kind !== 'failed') return meaning;
  return { kind: 'failed', gatewayReference: null, message: meaning.detail };
}
