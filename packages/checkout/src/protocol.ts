/**
 * The messages between the merchant page (the component) and the hosted frame. Every message
 * carries `source: 'paygate-checkout'` and is posted to the other side's exact origin; each side
 * also checks the sender's origin and window before it reads a message.
 *
 * Handshake: frame → `ready`; page → `init` (client secret and publishable key); frame →
 * `session` once it has read the intent (or a terminal `error`). No `session`/`error` within
 * HANDSHAKE_TIMEOUT_MS of mounting is `session_invalid`.
 *
 * Another card after a decline (when the page gave `onRetry`): frame → `retry` (the payer pressed
 * "Try another card"); page → `reset` with the new intent's client secret, or `retry_failed` when
 * the page could not create one; after `reset` the frame starts over and sends `session` again.
 */
export const MESSAGE_SOURCE = 'paygate-checkout';
export const HANDSHAKE_TIMEOUT_MS = 10_000;

export const checkoutErrorCodes = [
  'payment_failed',
  'intent_expired',
  'session_invalid',
  'embed_origin_denied',
] as const;
export type CheckoutErrorCode = (typeof checkoutErrorCodes)[number];

/** Frame → page. */
export type FrameMessage =
  | { source: typeof MESSAGE_SOURCE; type: 'ready' }
  | { source: typeof MESSAGE_SOURCE; type: 'session' }
  | { source: typeof MESSAGE_SOURCE; type: 'resize'; height: number }
  | {
      source: typeof MESSAGE_SOURCE;
      type: 'success';
      paymentIntentId: string;
      status: 'SUCCEEDED' | 'REQUIRES_CAPTURE' | 'PROCESSING';
    }
  | { source: typeof MESSAGE_SOURCE; type: 'error'; code: CheckoutErrorCode; message: string }
  | { source: typeof MESSAGE_SOURCE; type: 'redirect'; url: string }
  | { source: typeof MESSAGE_SOURCE; type: 'retry'; paymentIntentId: string }
  | { source: typeof MESSAGE_SOURCE; type: 'cancel' };

/** A frame message without its `source` (which `tell` adds). */
export type FramePayload = FrameMessage extends infer M
  ? M extends unknown
    ? Omit<M, 'source'>
    : never
  : never;

/** Page → frame. */
export interface InitMessage {
  source: typeof MESSAGE_SOURCE;
  type: 'init';
  clientSecret: string;
  publishableKey: string;
  locale: string;
  /** Whether the page handles `retry` (it gave `onRetry`): only then is "Try another card" offered. */
  retry: boolean;
}

/** Page → frame, after `retry`. */
export type RetryAnswerMessage =
  | { source: typeof MESSAGE_SOURCE; type: 'reset'; clientSecret: string }
  | { source: typeof MESSAGE_SOURCE; type: 'retry_failed' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isCheckoutErrorCode(value: unknown): value is CheckoutErrorCode {
  return typeof value === 'string' && (checkoutErrorCodes as readonly string[]).includes(value);
}

/** A frame message of a known shape, or null: anything else is ignored, never half-read. */
export function parseFrameMessage(data: unknown): FrameMessage | null {
  if (!isRecord(data) || data.source !== MESSAGE_SOURCE) return null;
  const source = MESSAGE_SOURCE;
  switch (data.type) {
    case 'ready':
    case 'session':
    case 'cancel':
      return { source, type: data.type };
    case 'resize':
      return typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0
        ? { source, type: 'resize', height: Math.min(Math.ceil(data.height), 4000) }
        : null;
    case 'success':
      return typeof data.paymentIntentId === 'string' &&
        /^pi_[0-9A-Za-z]{24}$/.test(data.paymentIntentId) &&
        (data.status === 'SUCCEEDED' || data.status === 'REQUIRES_CAPTURE' || data.status === 'PROCESSING')
        ? { source, type: 'success', paymentIntentId: data.paymentIntentId, status: data.status }
        : null;
    case 'error':
      return isCheckoutErrorCode(data.code) && typeof data.message === 'string'
        ? { source, type: 'error', code: data.code, message: data.message.slice(0, 500) }
        : null;
    case 'redirect':
      return typeof data.url === 'string' && isHttpUrl(data.url)
        ? { source, type: 'redirect', url: data.url }
        : null;
    case 'retry':
      return typeof data.paymentIntentId === 'string' && /^pi_[0-9A-Za-z]{24}$/.test(data.paymentIntentId)
        ? { source, type: 'retry', paymentIntentId: data.paymentIntentId }
        : null;
    default:
      return null;
  }
}

export function parseInitMessage(data: unknown): InitMessage | null {
  if (!isRecord(data) || data.source !== MESSAGE_SOURCE || data.type !== 'init') return null;
  const { clientSecret, publishableKey, locale } = data;
  if (typeof clientSecret !== 'string' || typeof publishableKey !== 'string' || typeof locale !== 'string') {
    return null;
  }
  return {
    source: MESSAGE_SOURCE,
    type: 'init',
    clientSecret,
    publishableKey,
    locale,
    retry: data.retry === true,
  };
}

export function parseRetryAnswer(data: unknown): RetryAnswerMessage | null {
  if (!isRecord(data) || data.source !== MESSAGE_SOURCE) return null;
  if (data.type === 'retry_failed') return { source: MESSAGE_SOURCE, type: 'retry_failed' };
  if (data.type === 'reset' && typeof data.clientSecret === 'string') {
    return { source: MESSAGE_SOURCE, type: 'reset', clientSecret: data.clientSecret };
  }
  return null;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** `pk_test_…` or `pk_live_…` followed by at least 32 base62 characters. */
export function isPublishableKey(value: unknown): value is string {
  return typeof value === 'string' && /^pk_(test|live)_[0-9A-Za-z]{32,128}$/.test(value);
}

/** The intent id inside a client secret (`pi_…_secret_…`), or null when it has another shape. */
export function intentIdOfClientSecret(clientSecret: string): string | null {
  const match = /^(pi_[0-9A-Za-z]{24})_secret_[0-9A-Za-z]{24}$/.exec(clientSecret);
  return match?.[1] ?? null;
}
