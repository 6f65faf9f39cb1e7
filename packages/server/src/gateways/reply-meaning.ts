import type { GatewayHttpReply } from './http-executor.ts';

/** Seconds to wait after a refusal that gave no usable `Retry-After`. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** What an answer that is not the resource asked for means, the same for every gateway. */
export type ReplyMeaning =
  | { kind: 'unavailable'; retryAfterSeconds: number; detail: string }
  | { kind: 'failed'; detail: string }
  | { kind: 'indeterminate'; detail: string };

/**
 * No answer, a 5xx, or a request the gateway is still working on (an idempotency conflict) leaves
 * the outcome unknown. A 429/503 or a refusal of our credentials is a definite "not taken". Any
 * other 4xx refused the request itself: nothing was charged.
 */
export function meaningOfRefusal(
  reply: GatewayHttpReply,
  gateway: string,
  describe: (text: string | null) => string,
  isConflict: (status: number, text: string | null) => boolean,
): ReplyMeaning {
  if (reply.kind === 'none') return { kind: 'indeterminate', detail: reply.detail };
  const detail = `${gateway} answered ${reply.status}: ${describe(reply.text)}`;
  if (reply.status === 429 || reply.status === 503) {
    return {
      kind: 'unavailable',
      retryAfterSeconds: reply.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
      detail,
    };
  }
  if (reply.status === 401 || reply.status === 403) {
    return { kind: 'unavailable', retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS, detail };
  }
  if (reply.status >= 400 && reply.status < 500 && !isConflict(reply.status, reply.text)) {
    return { kind: 'failed', detail };
  }
  return { kind: 'indeterminate', detail };
}

/** JSON text as an object; null for anything else (never throws). */
export function jsonObjectOf(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function stringOf(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
