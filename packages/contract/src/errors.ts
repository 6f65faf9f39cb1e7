/**
 * Every problem code of the API and its HTTP status. The specification fixes this table; clients
 * decide by `code`, never by message text, so codes are never renamed.
 */
export const problemStatusByCode = {
  validation_error: 400,
  invalid_api_key: 401,
  invalid_client_secret: 401,
  invalid_webhook_signature: 401,
  invalid_admin_token: 401,
  invalid_credentials: 401,
  invalid_session: 401,
  card_declined: 402,
  gateway_rejected: 402,
  insufficient_permissions: 403,
  csrf_token_invalid: 403,
  resource_not_found: 404,
  idempotency_key_reuse: 409,
  idempotency_key_in_flight: 409,
  invalid_state_transition: 409,
  payload_too_large: 413,
  currency_not_supported: 422,
  amount_below_minimum: 422,
  amount_exceeds_refundable: 422,
  amount_exceeds_capturable: 422,
  rate_limited: 429,
  internal_error: 500,
  gateway_unavailable: 503,
} as const;

export type ProblemCode = keyof typeof problemStatusByCode;

export const problemCodes = Object.keys(problemStatusByCode) as ProblemCode[];

/** The `type` URI of a problem document (RFC 9457): stable, one per code. */
export function problemTypeUri(code: ProblemCode): string {
  return `urn:paygate:problem:${code}`;
}
