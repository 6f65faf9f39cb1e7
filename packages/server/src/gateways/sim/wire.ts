// The simulated gateway's wire format as pure functions, like Stripe's and Adyen's: requests built
// from our domain, answers read back defensively (anything unexpected becomes `indeterminate`: an
// outcome we cannot read is never success). Nothing here sends anything; the shared executor does.
import { simDeclineReason } from '../../domain/decline-codes.ts';
import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  ChargeOutcome,
  ChargeRequest,
  DetachOutcome,
  DetachRequest,
  FailureCode,
  RefundOutcome,
  RefundRequest,
  SyncChargeRequest,
  SyncRefundRequest,
} from '../connector.ts';
import type { GatewayHttpReply, GatewayHttpRequest } from '../http-executor.ts';
import { jsonObjectOf, meaningOfRefusal } from '../reply-meaning.ts';

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(body: Json, name: string): string | null {
  const value = body[name];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function unreadable(what: string): { kind: 'indeterminate'; detail: string } {
  return { kind: 'indeterminate', detail: `unreadable ${what} from the simulated gateway` };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A charge resource as an outcome. `expectedKey` guards against reading another charge's state:
 * a resource with a different idempotency key is unreadable.
 */
export function chargeOutcomeOf(body: unknown, expectedKey: string | null): ChargeOutcome {
  if (!isObject(body) || body.object !== 'charge') return unreadable('charge');
  const id = stringField(body, 'id');
  const key = stringField(body, 'idempotency_key');
  if (id === null || key === null || (expectedKey !== null && key !== expectedKey))
    return unreadable('charge');
  switch (body.status) {
    case 'succeeded':
      return { kind: 'succeeded', gatewayReference: id, ...savedMethodOf(body) };
    case 'pending':
      return { kind: 'pending', gatewayReference: id };
    case 'requires_capture': {
      const captureBefore = body.capture_before;
      if (typeof captureBefore !== 'number' || !Number.isSafeInteger(captureBefore))
        return unreadable('charge');
      return {
        kind: 'authorized',
        gatewayReference: id,
        captureBefore: new Date(captureBefore * 1000),
        ...savedMethodOf(body),
      };
    }
    case 'canceled':
      // An authorisation voided or lapsed: nothing was captured.
      return {
        kind: 'failed',
        gatewayReference: id,
        failureCode: 'gateway_rejected',
        message: stringField(body, 'failure_message') ?? 'The authorisation was released.',
      };
    case 'requires_action': {
      const redirectUrl = stringField(body, 'redirect_url');
      if (redirectUrl === null || !isHttpUrl(redirectUrl)) return unreadable('charge');
      return { kind: 'requires_action', gatewayReference: id, redirectUrl };
    }
    case 'failed': {
      const failureCode: FailureCode =
        body.failure_code === 'card_declined' ? 'card_declined' : 'gateway_rejected';
      const message = stringField(body, 'failure_message') ?? 'The payment failed at the gateway.';
      const reason = simDeclineReason(stringField(body, 'decline_code'));
      return { kind: 'failed', gatewayReference: id, failureCode, ...reason, message };
    }
    default:
      return unreadable('charge status');
  }
}

/** The reusable reference a charge that asked to keep its method carries (`payment_method`), if any. */
function savedMethodOf(body: Json): { savedMethodReference?: string } {
  const reference = stringField(body, 'payment_method');
  return reference === null ? {} : { savedMethodReference: reference };
}

/** A refund resource as an outcome, with the same guard as `chargeOutcomeOf`. */
export function refundOutcomeOf(body: unknown, expectedKey: string | null): RefundOutcome {
  if (!isObject(body) || body.object !== 'refund') return unreadable('refund');
  const id = stringField(body, 'id');
  const key = stringField(body, 'idempotency_key');
  if (id === null || key === null || (expectedKey !== null && key !== expectedKey))
    return unreadable('refund');
  switch (body.status) {
    case 'succeeded':
      return { kind: 'succeeded', gatewayReference: id };
    case 'pending':
      return { kind: 'pending', gatewayReference: id };
    case 'failed':
      return {
        kind: 'failed',
        gatewayReference: id,
        message: stringField(body, 'failure_message') ?? 'The refund failed at the gateway.',
      };
    default:
      return unreadable('refund status');
  }
}

/** `{ error: { code, message } }` of a refusal, for messages and for telling refusals apart. */
export function errorOf(body: unknown): { code: string; message: string } {
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  return {
    code: typeof error.code === 'string' ? error.code : 'unknown',
    message: typeof error.message === 'string' ? error.message : 'no message',
  };
}

// --- requests and replies, as pure functions (the shared executor sends them) --------------------

/** Which simulator account a connector speaks for, and how it authenticates. */
export interface SimAccount {
  /** The simulated gateway's base URL, e.g. `http://127.0.0.1:8081`. */
  baseUrl: string;
  apiSecret: string;
}

function request(account: SimAccount, method: 'GET' | 'POST', path: string, body?: Json): GatewayHttpRequest {
  return {
    method,
    url: `${account.baseUrl.replace(/\/+$/, '')}${path}`,
    headers: {
      authorization: `Bearer ${account.apiSecret}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

/** Where a charge or refund is read back: by the gateway's reference when known, else by our key. */
function syncPath(
  resource: 'charges' | 'refunds',
  read: { idempotencyKey: string; gatewayReference: string | null },
): string {
  return read.gatewayReference
    ? `/v1/${resource}/${encodeURIComponent(read.gatewayReference)}`
    : `/v1/${resource}?idempotency_key=${encodeURIComponent(read.idempotencyKey)}`;
}

export function buildCreateCharge(account: SimAccount, charge: ChargeRequest): GatewayHttpRequest {
  return request(account, 'POST', '/v1/charges', {
    idempotency_key: charge.idempotencyKey,
    reference: charge.paymentIntentId,
    amount_minor: charge.amountMinor,
    currency: charge.currency,
    token: charge.paymentMethodToken,
    return_url: charge.returnUrl,
    ...(charge.capture === false ? { capture: false } : {}),
    ...(charge.savePaymentMethod ? { save_payment_method: true } : {}),
    ...(charge.offSession ? { off_session: true } : {}),
  });
}

/** A capture (all or part) of an authorised charge, or its void (`amountMinor` absent). */
export function buildAuthorizationCall(
  account: SimAccount,
  call: AuthorizationRequest & { amountMinor?: number },
): GatewayHttpRequest {
  const charge = encodeURIComponent(call.chargeReference);
  return call.amountMinor === undefined
    ? request(account, 'POST', `/v1/charges/${charge}/void`, { idempotency_key: call.idempotencyKey })
    : request(account, 'POST', `/v1/charges/${charge}/capture`, {
        idempotency_key: call.idempotencyKey,
        amount_minor: call.amountMinor,
      });
}

export function buildRetrieveCharge(account: SimAccount, read: SyncChargeRequest): GatewayHttpRequest {
  return request(account, 'GET', syncPath('charges', read));
}

export function buildCreateRefund(account: SimAccount, refund: RefundRequest): GatewayHttpRequest {
  return request(account, 'POST', '/v1/refunds', {
    idempotency_key: refund.idempotencyKey,
    reference: refund.paymentIntentId,
    charge: refund.chargeReference,
    amount_minor: refund.amountMinor,
    currency: refund.currency,
  });
}

export function buildRetrieveRefund(account: SimAccount, read: SyncRefundRequest): GatewayHttpRequest {
  return request(account, 'GET', syncPath('refunds', read));
}

/** A GET of the simulator's books (`readSimBooks` names the path). */
export function buildReadBooks(account: SimAccount, path: string): GatewayHttpRequest {
  return request(account, 'GET', path);
}

const GATEWAY = 'simulated gateway';

/** The refusal's meaning, the same for every gateway; a reused idempotency key leaves it unknown. */
function meaning(reply: GatewayHttpReply) {
  return meaningOfRefusal(
    reply,
    GATEWAY,
    (text) => {
      const { code, message } = errorOf(jsonObjectOf(text));
      return `${code}: ${message}`;
    },
    (_status, text) => errorOf(jsonObjectOf(text)).code === 'idempotency_key_in_use',
  );
}

/** A charge's answer (create or read back). A 404 read back means no such charge: it failed. */
export function parseChargeReply(reply: GatewayHttpReply, idempotencyKey: string): ChargeOutcome {
  if (reply.kind === 'answer' && reply.status === 200)
    return chargeOutcomeOf(jsonObjectOf(reply.text), idempotencyKey);
  const meant = meaning(reply);
  if (meant.kind !== 'failed') return meant;
  return { kind: 'failed', gatewayReference: null, failureCode: 'gateway_rejected', message: meant.detail };
}

/**
 * The answer to a capture or a void: the charge as it now stands. `captured` is what its capture
 * took (read from the gateway, never assumed); a refusal (402, or 409 for a charge that is no
 * longer authorised) is `failed` and the authorisation stands as the gateway has it.
 */
export function parseAuthorizationReply(
  reply: GatewayHttpReply,
  call: AuthorizationRequest & { amountMinor?: number },
): AuthorizationOutcome {
  if (reply.kind === 'answer' && reply.status === 200) {
    const body = jsonObjectOf(reply.text);
    if (body?.object !== 'charge' || stringField(body, 'id') !== call.chargeReference) {
      return unreadable('charge');
    }
    const voiding = call.amountMinor === undefined;
    if (voiding ? body.status !== 'canceled' : body.status !== 'succeeded')
      return unreadable('charge status');
    const captured = body.amount_captured_minor;
    if (!voiding && (typeof captured !== 'number' || !Number.isSafeInteger(captured)))
      return unreadable('charge');
    return {
      kind: 'succeeded',
      gatewayReference: call.chargeReference,
      ...(voiding ? {} : { captured: { amountMinor: captured as number, currency: String(body.currency) } }),
    };
  }
  const meant = meaning(reply);
  if (meant.kind !== 'failed') return meant;
  return {
    kind: 'failed',
    declineCode: null,
    gatewayCode: errorOf(jsonObjectOf(reply.kind === 'answer' ? reply.text : null)).code,
    message: meant.detail,
  };
}

/** The detach of a saved method (its `pm_sim_…` reference). */
export function buildDetachPaymentMethod(account: SimAccount, detach: DetachRequest): GatewayHttpRequest {
  return request(account, 'POST', `/v1/payment_methods/${encodeURIComponent(detach.reference)}/detach`, {});
}

/**
 * A detach's answer: detached, also when the simulator has no such method (nothing is left to
 * charge); anything else is asked again later, since a method must not stay chargeable.
 */
export function parseDetachReply(reply: GatewayHttpReply, detach: DetachRequest): DetachOutcome {
  if (reply.kind === 'answer' && (reply.status === 200 || reply.status === 404)) {
    const body = jsonObjectOf(reply.text);
    if (reply.status === 404 && errorOf(body).code === 'payment_method_not_found')
      return { kind: 'detached' };
    if (reply.status === 200 && body?.object === 'payment_method' && body.id === detach.reference) {
      return { kind: 'detached' };
    }
    return unreadable('payment method');
  }
  const meant = meaning(reply);
  return meant.kind === 'failed' ? { kind: 'indeterminate', detail: meant.detail } : meant;
}

export function parseRefundReply(reply: GatewayHttpReply, idempotencyKey: string): RefundOutcome {
  if (reply.kind === 'answer' && reply.status === 200)
    return refundOutcomeOf(jsonObjectOf(reply.text), idempotencyKey);
  const meant = meaning(reply);
  if (meant.kind !== 'failed') return meant;
  return { kind: 'failed', gatewayReference: null, message: meant.detail };
}

/**
 * A refund read back by our key: a 404 means the gateway made no refund with it, so nothing was
 * refunded and the same request may be sent again (app/refunds/reconcile-refunds.ts).
 */
export function parseRefundLookupReply(reply: GatewayHttpReply, read: SyncRefundRequest): RefundOutcome {
  if (!read.gatewayReference && reply.kind === 'answer' && reply.status === 404) {
    return { kind: 'unavailable', retryAfterSeconds: 0, detail: 'the simulated gateway has no such refund' };
  }
  return parseRefundReply(reply, read.idempotencyKey);
}

/** A books page's JSON; a failed read throws (the reconciliation job retries at its next tick). */
export function parseBooksReply(reply: GatewayHttpReply, path: string): unknown {
  if (reply.kind !== 'answer' || reply.status !== 200) {
    throw new Error(reply.kind === 'none' ? reply.detail : `${GATEWAY} answered ${reply.status} to ${path}`);
  }
  return reply.text ? JSON.parse(reply.text) : undefined;
}
