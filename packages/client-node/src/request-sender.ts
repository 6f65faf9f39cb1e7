import type { ResolvedConfig } from './config.ts';
import {
  apiErrorFromProblem,
  PaygateApiError,
  PaygateConfigurationError,
  PaygateConnectionError,
} from './errors.ts';
import type { ProblemDocument, ResponseInfo } from './types.ts';
import { CLIENT_VERSION } from './version.ts';

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;
export const RETRY_AFTER_CAP_MS = 60_000;
// IMF-fixdate, the form RFC 9110 requires senders to use: `Wed, 01 Jan 2025 00:00:12 GMT`.
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

export interface ApiRequest {
  /** DELETE is idempotent: it is retried like a GET. */
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the base address, starting with `/v1/`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export interface ApiResponse<T> {
  body: T;
  info: ResponseInfo;
}

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** How an attempt that produced no response failed, which decides whether it may be repeated. */
type NetworkFailure = { notSent: boolean; description: string; cause: unknown };

// Errors raised while connecting, before a single byte of the request was written.
const notSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Full-jitter exponential back-off: a uniform wait in [0, min(cap, base * 2^retryIndex)).
 * `retryIndex` is 0 before the first retry.
 */
export function backoffMs(retryIndex: number, random: () => number): number {
  return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retryIndex);
}

/** Reads `Retry-After` (delta seconds or HTTP date), capped at 60 s; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) {
    ms = Number(trimmed) * 1000;
  } else if (HTTP_DATE.test(trimmed)) {
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) return undefined;
    ms = Math.max(0, date - nowMs);
  } else {
    return undefined;
  }
  return Math.min(RETRY_AFTER_CAP_MS, ms);
}

/**
 * The one place that talks HTTP: headers, time-out, retries and error mapping. Nothing else in the
 * client decides whether a request is repeated.
 */
export class RequestSender {
  readonly #config: ResolvedConfig;
  readonly #userAgent: string;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    this.#userAgent = config.telemetry
      ? `paygate-node/${CLIENT_VERSION} node/${process.version}`
      : `paygate-node/${CLIENT_VERSION}`;
  }

  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const url = this.#url(req);
    const init = this.#init(req);
    const idempotencyKey = req.idempotencyKey ?? null;
    for (let retryIndex = 0; ; retryIndex++) {
      const canRetry = retryIndex < this.#config.maxRetries;
      let raw: RawResponse;
      try {
        raw = await this.#attempt(url, init);
      } catch (error) {
        const failure = describeNetworkFailure(error);
        // A GET can always be repeated; a POST only when it provably never left this process.
        if (canRetry && (req.method !== 'POST' || failure.notSent)) {
          await this.#config.sleep(backoffMs(retryIndex, this.#config.random));
          continue;
        }
        throw new PaygateConnectionError(
          `${req.method} ${req.path} failed without a response after ${retryIndex + 1} attempt(s): ${failure.description}`,
          { cause: failure.cause, idempotencyKey, mayHaveBeenSent: !failure.notSent },
        );
      }
      if (raw.status >= 200 && raw.status < 300)
        return { body: parseSuccess<T>(raw, idempotencyKey), info: info(raw, idempotencyKey) };
      const error = toApiError(raw, idempotencyKey);
      // A POST that got any response is never repeated: the service may have acted on it.
      if (canRetry && req.method !== 'POST' && (raw.status === 429 || raw.status >= 500)) {
        await this.#config.sleep(this.#retryWaitMs(raw, error.code, retryIndex));
        continue;
      }
      throw error;
    }
  }

  #retryWaitMs(raw: RawResponse, code: string, retryIndex: number): number {
    const honoursRetryAfter =
      (raw.status === 429 && code === 'rate_limited') ||
      (raw.status === 503 && code === 'gateway_unavailable');
    if (honoursRetryAfter) {
      const retryAfterMs = parseRetryAfterMs(raw.headers.get('retry-after'), this.#config.now());
      if (retryAfterMs !== undefined) return retryAfterMs;
    }
    return backoffMs(retryIndex, this.#config.random);
  }

  async #attempt(url: string, init: RequestInit): Promise<RawResponse> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new TimeoutError(this.#config.timeoutMs)),
      this.#config.timeoutMs,
    );
    try {
      const response = await this.#config.fetch(url, { ...init, signal: controller.signal });
      // The time-out covers the body too: a server that stalls mid-body is as dead as a silent one.
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
    }
  }

  #url(req: ApiRequest): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) params.set(name, String(value));
    }
    const search = params.size > 0 ? `?${params.toString()}` : '';
    return `${this.#config.baseUrl}${req.path}${search}`;
  }

  #init(req: ApiRequest): RequestInit {
    const headers: Record<string, string> = {
      'X-API-Key': this.#config.apiKey,
      Accept: 'application/json',
      'User-Agent': this.#userAgent,
    };
    if (req.idempotencyKey !== undefined)
      headers['Idempotency-Key'] = checkIdempotencyKey(req.idempotencyKey);
    const init: RequestInit = { method: req.method, headers, redirect: 'manual' };
    if (req.method === 'POST') {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(req.body ?? {});
    }
    return init;
  }
}

class TimeoutError extends Error {
  override name = 'TimeoutError';
  constructor(timeoutMs: number) {
    super(`no complete response within ${timeoutMs} ms`);
  }
}

function checkIdempotencyKey(key: unknown): string {
  // Checked here because an invalid header value would otherwise surface as a network failure.
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new PaygateConfigurationError('idempotencyKey must be 1 to 255 visible ASCII characters');
  }
  return key;
}

function describeNetworkFailure(error: unknown): NetworkFailure {
  if (error instanceof TimeoutError) return { notSent: false, description: error.message, cause: error };
  const codes = errorCodes(error);
  const notSent = codes.length > 0 && codes.every((code) => notSentCodes.has(code));
  const description =
    codes.length > 0 ? codes.join(', ') : error instanceof Error ? error.message : String(error);
  return { notSent, description, cause: error };
}

/** Collects the system error codes in a fetch failure: its cause, or every member of an AggregateError. */
function errorCodes(error: unknown): string[] {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof AggregateError) return cause.errors.flatMap((inner) => codeOf(inner));
  return codeOf(cause);
}

function codeOf(value: unknown): string[] {
  if (typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'string') {
    return [value.code];
  }
  return [];
}

function info(raw: RawResponse, idempotencyKey: string | null): ResponseInfo {
  return {
    statusCode: raw.status,
    requestId: raw.headers.get('x-request-id'),
    idempotencyKey,
    replayed: raw.headers.get('idempotent-replayed') === 'true',
  };
}

function parseSuccess<T>(raw: RawResponse, idempotencyKey: string | null): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.text);
  } catch {
    parsed = undefined;
  }
  // Every success of the API is a JSON object; anything else came from something that is not Paygate.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new PaygateApiError({
      status: raw.status,
      problem: syntheticProblem(raw.status, 'The response body was not a JSON object'),
      requestId: raw.headers.get('x-request-id'),
      idempotencyKey,
      rawBody: raw.text,
    });
  }
  return parsed as T;
}

function toApiError(raw: RawResponse, idempotencyKey: string | null): PaygateApiError {
  const requestIdHeader = raw.headers.get('x-request-id');
  const problem = parseProblem(raw);
  const requestId = requestIdHeader ?? (typeof problem?.request_id === 'string' ? problem.request_id : null);
  if (problem === undefined) {
    return new PaygateApiError({
      status: raw.status,
      problem: syntheticProblem(raw.status, `HTTP ${raw.status} without a problem document`),
      requestId,
      idempotencyKey,
      rawBody: raw.text,
    });
  }
  return apiErrorFromProblem({ status: raw.status, problem, requestId, idempotencyKey });
}

function parseProblem(raw: RawResponse): ProblemDocument | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  if (!('code' in parsed) || typeof parsed.code !== 'string') return undefined;
  // Kept as sent (the full document); defaults only fill members a non-conforming server left out.
  return { type: 'about:blank', title: '', detail: '', status: raw.status, ...parsed, code: parsed.code };
}

/** A stand-in document for a response that carried none (a proxy's HTML page, an empty body). */
function syntheticProblem(status: number, detail: string): ProblemDocument {
  return { type: 'about:blank', title: 'Unexpected response', status, detail, code: 'unexpected_response' };
}
