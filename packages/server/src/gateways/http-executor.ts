import { request as undiciRequest } from 'undici';
import type { Clock } from '../clock.ts';

/**
 * The one place that sends a connector's request to its gateway. Connectors build a
 * `GatewayHttpRequest` and read a `GatewayHttpReply` (both pure); this executor adds what every
 * gateway call needs: a time-out covering the whole answer, a cap on the answer's size, the reading
 * of `Retry-After`, and a log line per call that names the gateway, method, path, status and
 * duration but never a header value, a body, a credential or card data.
 */
export interface GatewayHttpRequest {
  method: 'GET' | 'POST';
  /** Absolute URL. Query strings are never logged (they may carry references). */
  url: string;
  /** Sent as given; they hold credentials, so they are never logged. */
  headers: Record<string, string>;
  /** Already encoded (JSON or form); never logged. */
  body?: string;
}

/** The answer's headers, read by name (case-insensitive; repeated headers joined by ", "). */
export type ReplyHeaders = Pick<Headers, 'get'>;

export type GatewayHttpReply =
  | {
      kind: 'answer';
      status: number;
      headers: ReplyHeaders;
      /** The answer's text; null when it was larger than the cap (read as unknown). */
      text: string | null;
      /** Seconds from `Retry-After` (number or HTTP date), capped; null when absent or unreadable. */
      retryAfterSeconds: number | null;
      durationMs: number;
    }
  /** No answer: time-out, refused or broken connection. The outcome is unknown. */
  | { kind: 'none'; detail: string; durationMs: number };

/** The subset of a pino logger the executor writes to. */
export interface GatewayCallLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface GatewayHttpExecutorOptions {
  /** The gateway's id, for the log. */
  gatewayId: string;
  /** Per call, including reading the whole answer (default 10 000). */
  timeoutMs?: number;
  /** Answers longer than this are not parsed (default 1 MiB). */
  maxReplyBytes?: number;
  /** `Retry-After` is capped at this many seconds (the contract's 60). */
  maxRetryAfterSeconds?: number;
  /** Reads an HTTP-date `Retry-After` and the call's duration. */
  clock: Clock;
  logger?: GatewayCallLogger;
}

export type GatewayHttpExecutor = (request: GatewayHttpRequest) => Promise<GatewayHttpReply>;

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REPLY_BYTES = 1024 * 1024;
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;

/** `Retry-After` as whole seconds from `now`, at least 1 and at most `maxSeconds`; null if unreadable. */
export function parseRetryAfter(value: string | null, now: Date, maxSeconds: number): number | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return null;
  let seconds: number;
  if (/^\d{1,10}$/.test(trimmed)) seconds = Number(trimmed);
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  return Math.min(maxSeconds, Math.max(1, seconds));
}

/** Reads at most `maxBytes` of a body; null when it is longer (the rest is discarded). */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, maxBytes: number) {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** undici's raw answer headers (lower-case names) behind `get`, as `Headers` reads them. */
function replyHeaders(raw: Record<string, string | string[] | undefined>): ReplyHeaders {
  return {
    get(name: string) {
      const value = raw[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** The URL's path only: query strings and credentials in URLs stay out of the log. */
function loggablePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(unparsable url)';
  }
}

export function createGatewayHttpExecutor(options: GatewayHttpExecutorOptions): GatewayHttpExecutor {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const maxRetryAfter = options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS;
  const { clock, logger, gatewayId } = options;

  return async (request) => {
    const startedMs = clock.now().getTime();
    const path = loggablePath(request.url);
    try {
      // undici's request, not the global fetch: the same HTTP client without the WHATWG layers
      // (Request, Headers, streams), which cost a confirm's gateway call more CPU than the exchange
      // itself. Redirects are not followed (as `redirect: 'manual'`); the time-out covers the answer.
      const response = await undiciRequest(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await readCapped(response.body, maxReplyBytes);
      const durationMs = clock.now().getTime() - startedMs;
      const status = response.statusCode;
      logger?.info({ gatewayId, method: request.method, path, status, durationMs }, 'gateway call');
      const headers = replyHeaders(response.headers);
      return {
        kind: 'answer',
        status,
        headers,
        text,
        retryAfterSeconds: parseRetryAfter(headers.get('retry-after'), clock.now(), maxRetryAfter),
        durationMs,
      };
    } catch (error) {
      const durationMs = clock.now().getTime() - startedMs;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
      logger?.warn(
        { gatewayId, method: request.method, path, durationMs, reason },
        'gateway call had no answer',
      );
      return { kind: 'none', detail: `no answer from gateway ${gatewayId} (${reason})`, durationMs };
    }
  };
}
