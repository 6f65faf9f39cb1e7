import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidPayloadError, PaygateConfigurationError, WebhookSignatureError } from './errors.ts';
import { type EventObjects, type EventType, knownEventTypes } from './generated/resources.ts';

export type { EventType };

/** The specification's anti-replay window, in seconds, applied in both directions. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** A header with more signatures than this is refused: rotation needs two, and work must stay bounded. */
const MAX_SIGNATURES = 16;
const SIGNATURE_HEX = /^[0-9a-f]{64}$/;
const EVENT_ID = /^evt_[0-9A-Za-z]{24}$/;

// The event types and the resource each carries are generated from the contract.

interface Envelope<Type extends string, DataObject> {
  id: string;
  object: 'event';
  type: Type;
  created: string;
  livemode: boolean;
  data: { object: DataObject };
}

/** An event of a type this client version knows, narrowed by `switch (event.type)`. */
export type KnownWebhookEvent = { [Type in EventType]: Envelope<Type, EventObjects[Type]> }[EventType];
/** An event of a type added to the API after this client version; ignore it. */
export type UnknownWebhookEvent = Envelope<string, Record<string, unknown>>;
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

const knownTypes: ReadonlySet<string> = new Set<string>(knownEventTypes);

/** True for the event types this client version knows; the rest are to be acknowledged and ignored. */
export function isKnownEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return knownTypes.has(event.type);
}

export interface ConstructEventOptions {
  /** Accepted distance between `t` and your clock, both directions. Default 300; must be positive. */
  toleranceSeconds?: number;
  /** Your clock in Unix seconds; default the system clock. */
  now?: () => number;
}

// A Buffer is a Uint8Array, so Buffers are accepted without the declarations depending on @types/node.
export type RawBody = string | Uint8Array;

/**
 * Verifies a delivery's `Service-Signature` against the raw body and returns the event.
 * Throws `WebhookSignatureError` (never returns false) and, for a signed body that is not an event,
 * `InvalidPayloadError`. Pass every secret in use during a rotation.
 * @example
 * app.post('/webhooks/paygate', express.raw({ type: 'application/json' }), (req, res) => {
 *   const event = constructEvent(req.body, req.get('Service-Signature'), process.env.PAYGATE_WEBHOOK_SECRET);
 *   res.sendStatus(200);
 * });
 */
export function constructEvent(
  rawBody: RawBody,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options: ConstructEventOptions = {},
): WebhookEvent {
  const toleranceSeconds = checkTolerance(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
  const keys = checkSecrets(secrets);
  const body = toBytes(rawBody);
  const { timestamp, signatures } = parseSignatureHeader(header);

  const candidates = signatures.map((hex) => (SIGNATURE_HEX.test(hex) ? Buffer.from(hex, 'hex') : null));
  const placeholder = Buffer.alloc(32);
  let matches = 0;
  // Every secret against every candidate, no early exit, so timing tells nothing about which matched.
  for (const key of keys) {
    const expected = sign(key, timestamp, body);
    for (const candidate of candidates) {
      const equal = timingSafeEqual(expected, candidate ?? placeholder);
      matches += equal && candidate !== null ? 1 : 0;
    }
  }
  if (matches === 0) {
    throw new WebhookSignatureError(
      'no_matching_signature',
      'No v1 signature matches: check the endpoint secret and that the body is the raw bytes, not re-serialised JSON',
    );
  }

  const nowSeconds = (options.now ?? systemNowSeconds)();
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) {
    throw new WebhookSignatureError(
      'timestamp_outside_tolerance',
      `Signature timestamp is more than ${toleranceSeconds} s away from this clock (replay, or an unsynchronised clock)`,
    );
  }
  return parseEnvelope(body);
}

export interface TestHeaderParams {
  /** The exact body you will pass to `constructEvent`. */
  payload: RawBody;
  /** One secret, or two to imitate a rotation. */
  secret: string | readonly string[];
  /** Unix seconds; default now. */
  timestamp?: number;
}

/** Builds a valid `Service-Signature` header for your own tests of a webhook handler. */
export function generateTestHeader(params: TestHeaderParams): string {
  const keys = checkSecrets(params.secret);
  const timestamp = params.timestamp ?? systemNowSeconds();
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new PaygateConfigurationError('timestamp must be a non-negative integer of Unix seconds');
  }
  const body = toBytes(params.payload);
  const signatures = keys.map((key) => `v1=${sign(key, String(timestamp), body).toString('hex')}`);
  return [`t=${timestamp}`, ...signatures].join(',');
}

function sign(secret: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest();
}

function systemNowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function checkTolerance(toleranceSeconds: unknown): number {
  // Zero would reject every delivery and tempt a caller to switch verification off; refuse it.
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds <= 0) {
    throw new PaygateConfigurationError('toleranceSeconds must be a positive finite number (default 300)');
  }
  return toleranceSeconds;
}

function checkSecrets(secrets: unknown): string[] {
  const list: unknown[] = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0 || !list.every((s): s is string => typeof s === 'string' && s !== '')) {
    throw new PaygateConfigurationError('webhook secrets must be one or more non-empty strings (whsec_...)');
  }
  return list;
}

function toBytes(rawBody: unknown): Buffer {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array)
    return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw new PaygateConfigurationError(
    'rawBody must be the raw request body as a string or Buffer, read before any JSON parser touches it',
  );
}

function parseSignatureHeader(header: unknown): { timestamp: string; signatures: string[] } {
  const malformed = (why: string) =>
    new WebhookSignatureError('malformed_header', `Service-Signature ${why}`);
  if (typeof header !== 'string' || header.trim() === '') throw malformed('header is missing');
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const element of header.split(',')) {
    const separator = element.indexOf('=');
    if (separator <= 0) throw malformed('has an element that is not key=value');
    const key = element.slice(0, separator).trim();
    const value = element.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('has more than one t');
      if (!/^\d{1,15}$/.test(value)) throw malformed('has a t that is not Unix seconds');
      timestamp = value;
    } else if (key === 'v1') {
      signatures.push(value);
    }
    // Other schemes (a future v2) are ignored so a newer service does not break this client.
  }
  if (timestamp === undefined) throw malformed('has no t');
  if (signatures.length === 0) throw malformed('has no v1 signature');
  if (signatures.length > MAX_SIGNATURES) throw malformed(`has more than ${MAX_SIGNATURES} signatures`);
  return { timestamp, signatures };
}

function parseEnvelope(body: Buffer): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new InvalidPayloadError('The signed body is not valid UTF-8 JSON');
  }
  const problem = envelopeProblem(parsed);
  if (problem !== undefined)
    throw new InvalidPayloadError(`The signed body is not an event envelope: ${problem}`);
  return parsed as WebhookEvent;
}

function envelopeProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not a JSON object';
  if (typeof value.id !== 'string' || !EVENT_ID.test(value.id))
    return 'id is not evt_ + 24 base62 characters';
  if (value.object !== 'event') return 'object is not "event"';
  if (typeof value.type !== 'string' || value.type === '') return 'type is not a string';
  if (typeof value.created !== 'string') return 'created is not a string';
  if (typeof value.livemode !== 'boolean') return 'livemode is not a boolean';
  if (!isRecord(value.data) || !isRecord(value.data.object)) return 'data.object is not an object';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
