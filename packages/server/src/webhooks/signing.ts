import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../domain/errors.ts';

/** The anti-replay window of the specification: 300 s in either direction. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The header that carries the signature on every delivery. */
export const SIGNATURE_HEADER = 'Service-Signature';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

// One v1 per secret; two during a rotation. Anything far beyond that is not a header we sent, and
// the cap keeps a hostile header from making a receiver compute an unbounded number of comparisons.
const MAX_SIGNATURE_CANDIDATES = 8;
const MAX_HEADER_LENGTH = 4096;
const LOWERCASE_SHA256_HEX = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^[0-9]{1,15}$/;

export type WebhookSignatureFailure =
  | 'malformed_header'
  | 'no_matching_signature'
  | 'timestamp_outside_tolerance';

/** A delivery's `Service-Signature` does not prove that Paygate sent this body recently. */
export class WebhookSignatureError extends AppError {
  constructor(
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super('invalid_webhook_signature', message);
  }
}

/** A new endpoint signing secret: `whsec_` + base64url of 32 bytes from the CSPRNG. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function hmacSha256(secret: string, timestamp: string, body: string | Uint8Array): Buffer {
  // The key is the whole secret string, prefix included, as UTF-8 bytes: no decoding step that a
  // receiver in another language could get wrong.
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${timestamp}.`, 'utf8');
  // A string is hashed as its UTF-8 bytes without an intermediate copy (the worker signs every
  // attempt's payload).
  if (typeof body === 'string') mac.update(body, 'utf8');
  else mac.update(body);
  return mac.digest();
}

/**
 * The `Service-Signature` value for a payload: `t=<unix>,v1=<hex>` with one `v1` per secret (two
 * while a rotation is open). The payload given here must be exactly the bytes that are sent.
 */
export function signPayload(input: {
  payload: string | Uint8Array;
  secrets: readonly string[];
  timestampSeconds: number;
}): string {
  const { payload, secrets, timestampSeconds } = input;
  if (secrets.length < 1 || secrets.length > 2) {
    throw new RangeError(`signPayload takes one secret, or two during a rotation; got ${secrets.length}`);
  }
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer number of Unix seconds');
  }
  const t = String(timestampSeconds);
  const elements = [`t=${t}`];
  for (const secret of secrets) {
    if (secret.length === 0) throw new RangeError('a signing secret must not be empty');
    elements.push(`v1=${hmacSha256(secret, t, payload).toString('hex')}`);
  }
  return elements.join(',');
}

interface ParsedHeader {
  timestamp: string;
  candidates: string[];
}

function malformed(message: string): WebhookSignatureError {
  return new WebhookSignatureError('malformed_header', `Malformed Service-Signature header: ${message}.`);
}

/**
 * Splits `t=...,v1=...[,v1=...]`. Unknown elements (another scheme such as `v0`) are ignored so
 * a future scheme can be added beside `v1`; a missing or repeated `t`, or no `v1`, is malformed.
 */
function parseHeader(header: string | undefined | null): ParsedHeader {
  if (typeof header !== 'string' || header.trim() === '') throw malformed('the header is missing or empty');
  if (header.length > MAX_HEADER_LENGTH) throw malformed('the header is too long');
  let timestamp: string | undefined;
  const candidates: string[] = [];
  for (const rawElement of header.split(',')) {
    const element = rawElement.trim();
    const eq = element.indexOf('=');
    if (eq <= 0) throw malformed(`element '${element.slice(0, 20)}' is not key=value`);
    const key = element.slice(0, eq);
    const value = element.slice(eq + 1);
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('t appears more than once');
      if (!UNIX_SECONDS.test(value)) throw malformed('t is not a whole number of Unix seconds');
      timestamp = value;
    } else if (key === 'v1') {
      candidates.push(value);
    }
  }
  if (timestamp === undefined) throw malformed('t is missing');
  if (candidates.length === 0) throw malformed('no v1 signature');
  if (candidates.length > MAX_SIGNATURE_CANDIDATES) throw malformed('too many v1 signatures');
  return { timestamp, candidates };
}

/**
 * Verifies a delivery as a receiver must: the HMAC of every (secret, `v1`) pair is compared, all
 * of them, in constant time, then the timestamp is checked against `nowSeconds` within
 * `toleranceSeconds` in either direction. Throws a {@link WebhookSignatureError}; returns the
 * signed timestamp only when the delivery is authentic and fresh.
 *
 * The signature is checked before the timestamp: an unauthenticated `t` tells nothing, so a forged
 * header is reported as a signature failure whatever its `t` says.
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | undefined | null,
  secrets: readonly string[],
  options: { nowSeconds: number; toleranceSeconds?: number },
): { timestampSeconds: number } {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds <= 0) {
    // A tolerance of 0 would reject every delivery, and a negative or infinite one would switch
    // replay protection off; both are configuration mistakes, not verification outcomes.
    throw new RangeError('toleranceSeconds must be a positive number of seconds');
  }
  if (!Number.isFinite(options.nowSeconds)) throw new RangeError('nowSeconds must be a finite number');
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) {
    throw new RangeError('verifySignature needs at least one non-empty secret');
  }

  const { timestamp, candidates } = parseHeader(header);
  let matched = false;
  for (const secret of secrets) {
    const expected = hmacSha256(secret, timestamp, rawBody);
    for (const candidate of candidates) {
      // Only lowercase hex of the right length can be a signature we made (the specification says
      // lowercase); anything else cannot match, and decoding it would accept upper case. The
      // comparison is on equal-length digests, never on raw strings.
      if (!LOWERCASE_SHA256_HEX.test(candidate)) continue;
      // No short-circuit: every pair is compared whatever the earlier ones gave.
      if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
    }
  }
  if (!matched) {
    throw new WebhookSignatureError(
      'no_matching_signature',
      'No v1 signature in the Service-Signature header matches the body for the configured secret(s).',
    );
  }

  const timestampSeconds = Number(timestamp);
  if (Math.abs(options.nowSeconds - timestampSeconds) > toleranceSeconds) {
    throw new WebhookSignatureError(
      'timestamp_outside_tolerance',
      `The signature timestamp differs from the receiver's clock by more than ${toleranceSeconds} s.`,
    );
  }
  return { timestampSeconds };
}
