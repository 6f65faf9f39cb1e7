import type { ProblemDocument } from './types.ts';

/** Root of every error this client throws; catch it to catch them all. */
export class PaygateError extends Error {
  override name = 'PaygateError';
}

/** Raised locally when the client or a webhook check is given an invalid option (never retried). */
export class PaygateConfigurationError extends PaygateError {
  override name = 'PaygateConfigurationError';
}

/** Raised when no HTTP response arrived: refused, reset, DNS failure or time-out, after any retries. */
export class PaygateConnectionError extends PaygateError {
  override name = 'PaygateConnectionError';
  /** The Idempotency-Key sent, so the caller can repeat the same POST safely; null when none. */
  readonly idempotencyKey: string | null;
  /** True when the request may have reached the service (a POST whose delivery is unknown). */
  readonly mayHaveBeenSent: boolean;

  constructor(
    message: string,
    options: { cause?: unknown; idempotencyKey: string | null; mayHaveBeenSent: boolean },
  ) {
    super(message, { cause: options.cause });
    this.idempotencyKey = options.idempotencyKey;
    this.mayHaveBeenSent = options.mayHaveBeenSent;
  }
}

export interface ApiErrorInit {
  status: number;
  problem: ProblemDocument;
  requestId: string | null;
  idempotencyKey: string | null;
  rawBody?: string;
}

/** Raised when the service answered with an HTTP error; decide on `code`, never on the message. */
export class PaygateApiError extends PaygateError {
  override name = 'PaygateApiError';
  /** Stable code from the problem document, e.g. `card_declined`. */
  readonly code: string;
  /** HTTP status of the response. */
  readonly status: number;
  /** The full RFC 9457 problem document. */
  readonly problem: ProblemDocument;
  /** `X-Request-Id` of the response (or the problem's `request_id`). */
  readonly requestId: string | null;
  /** The Idempotency-Key sent with the request; null when none. */
  readonly idempotencyKey: string | null;
  /** The body as received, when it was not a problem document. */
  readonly rawBody: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.problem.detail || init.problem.title || `HTTP ${init.status}`);
    this.code = init.problem.code;
    this.status = init.status;
    this.problem = init.problem;
    this.requestId = init.requestId;
    this.idempotencyKey = init.idempotencyKey;
    this.rawBody = init.rawBody;
  }
}

/** Raised on 400 `validation_error` (and 413/415): the request is malformed; see `problem.errors`. */
export class InvalidRequestError extends PaygateApiError {
  override name = 'InvalidRequestError';
}

/** Raised on 401 `invalid_api_key`, `invalid_client_secret` or `invalid_webhook_signature`. */
export class AuthenticationError extends PaygateApiError {
  override name = 'AuthenticationError';
}

/** Raised on 403 `insufficient_permissions`: the key may not perform this operation. */
export class PermissionError extends PaygateApiError {
  override name = 'PermissionError';
}

/** Raised on 404 `resource_not_found`. */
export class NotFoundError extends PaygateApiError {
  override name = 'NotFoundError';
}

/** Raised on 409 `idempotency_key_reuse` (other body) or `idempotency_key_in_flight` (wait, retry). */
export class IdempotencyError extends PaygateApiError {
  override name = 'IdempotencyError';
}

/** Raised on 409 `invalid_state_transition`, e.g. cancel after success. */
export class InvalidStateError extends PaygateApiError {
  override name = 'InvalidStateError';
}

/** Raised on 402 `card_declined` or `gateway_rejected`; the failed intent is `paymentIntent`. */
export class CardError extends PaygateApiError {
  override name = 'CardError';
  get paymentIntent() {
    return this.problem.payment_intent;
  }
}

/**
 * Raised on 422 `currency_not_supported`, `amount_below_minimum`, `amount_exceeds_refundable` or
 * `amount_exceeds_capturable`.
 */
export class AmountError extends PaygateApiError {
  override name = 'AmountError';
}

/** Raised on 429 `rate_limited` once GET retries are used up (POSTs are never retried). */
export class RateLimitError extends PaygateApiError {
  override name = 'RateLimitError';
}

/** Raised on 503 `gateway_unavailable`: the external gateway could not be reached. */
export class GatewayUnavailableError extends PaygateApiError {
  override name = 'GatewayUnavailableError';
}

/** Raised on 500 `internal_error`; a create may be repeated with the same Idempotency-Key. */
export class InternalServerError extends PaygateApiError {
  override name = 'InternalServerError';
}

/** Raised by webhook verification when the signature header is malformed, matches no secret or is stale. */
export class WebhookSignatureError extends PaygateError {
  override name = 'WebhookSignatureError';
  readonly reason: WebhookSignatureFailure;

  constructor(reason: WebhookSignatureFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export type WebhookSignatureFailure =
  | 'malformed_header'
  | 'no_matching_signature'
  | 'timestamp_outside_tolerance';

/** Raised by webhook verification when a correctly signed body is not a well-formed event envelope. */
export class InvalidPayloadError extends PaygateError {
  override name = 'InvalidPayloadError';
}

/** Builds the error for an HTTP error response: the one place where `code` picks the class. */
export function apiErrorFromProblem(init: ApiErrorInit): PaygateApiError {
  switch (init.problem.code) {
    case 'validation_error':
    case 'payload_too_large':
    case 'unsupported_media_type':
      return new InvalidRequestError(init);
    case 'invalid_api_key':
    case 'invalid_client_secret':
    case 'invalid_webhook_signature':
      return new AuthenticationError(init);
    case 'insufficient_permissions':
      return new PermissionError(init);
    case 'resource_not_found':
      return new NotFoundError(init);
    case 'idempotency_key_reuse':
    case 'idempotency_key_in_flight':
      return new IdempotencyError(init);
    case 'invalid_state_transition':
      return new InvalidStateError(init);
    case 'card_declined':
    case 'gateway_rejected':
      return new CardError(init);
    case 'currency_not_supported':
    case 'amount_below_minimum':
    case 'amount_exceeds_refundable':
    case 'amount_exceeds_capturable':
      return new AmountError(init);
    case 'rate_limited':
      return new RateLimitError(init);
    case 'gateway_unavailable':
      return new GatewayUnavailableError(init);
    case 'internal_error':
      return new InternalServerError(init);
    default:
      return new PaygateApiError(init);
  }
}
