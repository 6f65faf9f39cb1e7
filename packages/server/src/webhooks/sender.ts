import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { ValidationError } from '../domain/errors.ts';
import { createGuardedLookup, type LookupAllCallback, validateEndpointUrl } from './url-guard.ts';

/** Sent on every delivery; the version is the delivery protocol's, not the server build's. */
export const WEBHOOK_USER_AGENT = 'Paygate-Webhooks/1.0.0';
/** An attempt with no complete response within this time has failed (CONTRACT.md). */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
/** How much of a response body is kept on the attempt record, for the back office. */
export const RESPONSE_EXCERPT_BYTES = 4096;
// The rest of a larger body is read and dropped up to this much (so the connection can be reused),
// and beyond it the connection is closed.
const RESPONSE_DRAIN_BYTES = 64 * 1024;

/**
 * Headers kept on an attempt record for the back office's attempt detail. A receiver chooses what
 * it answers, so what is kept is bounded: this many headers, each value cut to this many
 * characters, and this many characters in all; the rest is dropped (and said so).
 */
export const KEPT_HEADERS_MAX = 40;
export const KEPT_HEADER_VALUE_CHARS = 512;
export const KEPT_HEADERS_TOTAL_CHARS = 4096;
/** The name under which a record says that headers were dropped. */
export const HEADERS_DROPPED = 'x-paygate-headers-dropped';

export type KeptHeaders = Record<string, string>;

/** A bounded copy of `headers` (names lower-cased, repeated values joined with ", "). */
export function keptHeaders(headers: Record<string, string | string[] | undefined>): KeptHeaders {
  const kept: KeptHeaders = {};
  let count = 0;
  let total = 0;
  let dropped = 0;
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase().slice(0, 100);
    const value = (Array.isArray(rawValue) ? rawValue.join(', ') : rawValue).slice(
      0,
      KEPT_HEADER_VALUE_CHARS,
    );
    if (count >= KEPT_HEADERS_MAX || total + name.length + value.length > KEPT_HEADERS_TOTAL_CHARS) {
      dropped += 1;
      continue;
    }
    if (!Object.hasOwn(kept, name)) count += 1;
    kept[name] = value;
    total += name.length + value.length;
  }
  if (dropped > 0) kept[HEADERS_DROPPED] = String(dropped);
  return kept;
}

export interface AttemptOutcome {
  /** True only for a 2xx response. */
  delivered: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** Why an attempt without a 2xx failed: a short code and message, never the request body. */
  error: string | null;
  responseExcerpt: string | null;
  /** The headers sent (the body never: the merchant has the event); absent from fakes. */
  requestHeaders?: KeptHeaders;
  /** The receiver's answer headers (bounded), null when no response came. */
  responseHeaders?: KeptHeaders | null;
}

export interface WebhookSender {
  send(input: {
    url: string;
    livemode: boolean;
    /** The exact bytes to POST (a string is sent as its UTF-8 bytes). */
    payload: string | Uint8Array;
    signature: string;
  }): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

export interface SenderOptions {
  timeoutMs?: number;
  /** Name resolution, for tests that need a name to resolve to a chosen address. */
  lookup?: LookupAllCallback;
  /** Whether test-mode deliveries may connect to loopback (default true; see AppContext). */
  testAllowsLoopback?: boolean;
}

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof ValidationError) return `forbidden_address: ${error.message}`;
  const name = error instanceof Error ? error.name : '';
  const code =
    typeof error === 'object' && error !== null && 'code' in error
      ? String((error as { code: unknown }).code)
      : '';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
  if (cause instanceof ValidationError) return `forbidden_address: ${cause.message}`;
  if (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    (code.startsWith('UND_ERR_') && code.includes('TIMEOUT'))
  ) {
    return `timeout: no complete response within ${timeoutMs} ms`;
  }
  const causeCode =
    cause && 'code' in cause ? String((cause as { code: unknown }).code) : code || name || 'unknown';
  return `connection_error: ${causeCode}`;
}

/** The start of a response body as text, without NUL characters (a text column cannot hold them). */
function excerptOf(chunks: Buffer[]): string | null {
  if (chunks.length === 0) return null;
  const bytes = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).subarray(
    0,
    RESPONSE_EXCERPT_BYTES,
  );
  return bytes.toString('utf8').replaceAll('\u0000', '');
}

function outcomeOfStatus(
  statusCode: number,
  chunks: Buffer[],
  headers: Record<string, string | string[] | undefined>,
): Omit<AttemptOutcome, 'latencyMs' | 'requestHeaders'> {
  const delivered = statusCode >= 200 && statusCode < 300;
  return {
    delivered,
    statusCode,
    error: delivered
      ? null
      : statusCode >= 300 && statusCode < 400
        ? `redirect: ${statusCode} is not followed; register the final URL`
        : `http_status: ${statusCode}`,
    responseExcerpt: excerptOf(chunks),
    responseHeaders: keptHeaders(headers),
  };
}

/** Where one endpoint URL sends to, once its literal address passed the guard. */
interface Target {
  origin: string;
  path: string;
}

// Checked URLs, so the guard's URL parse and address checks run once per endpoint URL, not once
// per attempt: the check of a URL's literal address depends on nothing but the URL and the mode.
// Bounded: emptied when full (a worker sends to far fewer endpoints than this at a time).
const TARGETS_MAX = 1000;

function timeoutError(timeoutMs: number): Error {
  const error = new Error(`no complete response within ${timeoutMs} ms`);
  error.name = 'TimeoutError';
  return error;
}

/** Response headers as undici hands them over (name, value, name, value, ...), merged by name. */
function headersOf(raw: readonly Buffer[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString('latin1').toLowerCase();
    const value = (raw[i + 1] as Buffer).toString('latin1');
    const seen = headers[name];
    if (seen === undefined) headers[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else headers[name] = [seen, value];
  }
  return headers;
}

/**
 * The attempts in flight of one sender, in the order they started. They all have the same
 * time-out, so the first to start is the first to expire: one timer, armed for the oldest
 * attempt's deadline, serves them all (a timer per attempt was a Timeout object, a timer-list
 * insert and a clearTimeout per delivery). An attempt leaves the list when it settles.
 */
class Deadlines {
  readonly #timeoutMs: number;
  #head: Attempt | null = null;
  #tail: Attempt | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Adds an attempt that starts now; it times out `timeoutMs` from now unless it settles first. */
  add(attempt: Attempt): void {
    attempt.deadline = attempt.started + this.#timeoutMs;
    attempt.previous = this.#tail;
    attempt.next = null;
    if (this.#tail) this.#tail.next = attempt;
    else this.#head = attempt;
    this.#tail = attempt;
    attempt.listed = true;
    if (this.#timer === null) this.#arm(this.#timeoutMs);
  }

  remove(attempt: Attempt): void {
    if (!attempt.listed) return;
    attempt.listed = false;
    const { previous, next } = attempt;
    if (previous) previous.next = next;
    else this.#head = next;
    if (next) next.previous = previous;
    else this.#tail = previous;
    attempt.previous = null;
    attempt.next = null;
    // The timer stays armed: when it fires it finds the new oldest attempt and waits for that one.
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(this.#expire, Math.max(1, Math.ceil(delayMs)));
    // An attempt in flight keeps the process alive through its socket; the timer alone must not.
    this.#timer.unref();
  }

  readonly #expire = (): void => {
    this.#timer = null;
    const now = performance.now();
    while (this.#head !== null && this.#head.deadline <= now) {
      const expired = this.#head;
      this.remove(expired);
      expired.timeOut();
    }
    if (this.#head !== null) this.#arm(this.#head.deadline - now);
  };
}

/**
 * One attempt in flight: undici's own handler interface (onConnect, onHeaders, onData, onComplete,
 * onError), so no adapter objects or header parsing of undici's run per attempt, and its state in
 * one object rather than a closure per callback. Its time-out is kept by the sender's
 * {@link Deadlines}.
 */
class Attempt {
  readonly #requestHeaders: KeptHeaders;
  readonly #timeoutMs: number;
  readonly #resolve: (outcome: AttemptOutcome) => void;
  readonly #deadlines: Deadlines;
  readonly started = performance.now();
  /** Kept by Deadlines: when this attempt times out, and its neighbours in the list. */
  deadline = 0;
  previous: Attempt | null = null;
  next: Attempt | null = null;
  listed = false;
  #settled = false;
  #statusCode: number | null = null;
  #rawHeaders: readonly Buffer[] = [];
  readonly #chunks: Buffer[] = [];
  #read = 0;
  #abort: ((reason?: Error) => void) | null = null;
  #timedOut: Error | null = null;

  constructor(
    requestHeaders: KeptHeaders,
    timeoutMs: number,
    deadlines: Deadlines,
    resolve: (outcome: AttemptOutcome) => void,
  ) {
    this.#requestHeaders = requestHeaders;
    this.#timeoutMs = timeoutMs;
    this.#resolve = resolve;
    this.#deadlines = deadlines;
    deadlines.add(this);
  }

  /** No complete response within the time-out: the attempt has failed. */
  timeOut(): void {
    const timedOut = timeoutError(this.#timeoutMs);
    this.#timedOut = timedOut;
    // A request still queued for a connection is aborted as soon as it would start.
    this.#abort?.(timedOut);
    this.onError(timedOut);
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.#abort = abort;
    if (this.#timedOut) abort(this.#timedOut);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx informational answers come before the final one; only the final one counts.
    if (statusCode >= 200) {
      this.#statusCode = statusCode;
      this.#rawHeaders = rawHeaders;
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#read < RESPONSE_EXCERPT_BYTES) this.#chunks.push(chunk);
    this.#read += chunk.length;
    // The rest of a larger body is read and dropped up to the drain limit (so the connection can
    // be reused); beyond it the connection is closed.
    if (this.#read > RESPONSE_DRAIN_BYTES) this.#abort?.(new Error('response body beyond the drain limit'));
    return true;
  }

  onComplete(): void {
    if (this.#statusCode === null) this.onError(new Error('response ended without a status'));
    else this.#settle(outcomeOfStatus(this.#statusCode, this.#chunks, headersOf(this.#rawHeaders)));
  }

  onError(error: unknown): void {
    // Once the status line is in, it decides the outcome; a body cut short (by the drain limit,
    // the time-out or the connection) only shortens the excerpt.
    if (this.#statusCode !== null) {
      this.#settle(outcomeOfStatus(this.#statusCode, this.#chunks, headersOf(this.#rawHeaders)));
      return;
    }
    this.#settle({
      delivered: false,
      statusCode: null,
      error: describeError(error, this.#timeoutMs),
      responseExcerpt: null,
      responseHeaders: null,
    });
  }

  #settle(outcome: Omit<AttemptOutcome, 'latencyMs' | 'requestHeaders'>): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#deadlines.remove(this);
    this.#resolve({
      delivered: outcome.delivered,
      statusCode: outcome.statusCode,
      latencyMs: Math.round(performance.now() - this.started),
      error: outcome.error,
      responseExcerpt: outcome.responseExcerpt,
      requestHeaders: this.#requestHeaders,
      responseHeaders: outcome.responseHeaders ?? null,
    });
  }
}

/**
 * Makes delivery attempts: one POST of the exact payload bytes, no redirects followed (a 3xx is a
 * failed attempt like any other non-2xx), a time-out for the whole exchange, and in live mode the
 * SSRF guard on the URL's literal address and on every address the name resolves to at connect
 * time. Connections are pooled per mode and origin.
 *
 * Each attempt is one `dispatch` with a handler that keeps the start of the body: no response
 * stream, no abort signal and no URL parse per attempt (a worker makes thousands a second, and
 * those were most of its CPU beside the socket writes). See {@link Attempt}.
 */
export function createWebhookSender(options: SenderOptions = {}): WebhookSender {
  const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const testAllowsLoopback = options.testAllowsLoopback ?? true;
  const agentFor = (livemode: boolean) =>
    new Agent({
      connect: {
        lookup: createGuardedLookup(livemode, options.lookup, testAllowsLoopback),
        timeout: timeoutMs,
      },
      // No time-outs of undici's per request (each armed and cleared a timer per delivery): the
      // attempt's own deadline covers the whole exchange, queueing for a connection included, and
      // aborts it (Deadlines).
      headersTimeout: 0,
      bodyTimeout: 0,
      connections: 32,
    });
  const agents = { live: agentFor(true), test: agentFor(false) };
  const targets = { live: new Map<string, Target>(), test: new Map<string, Target>() };
  const deadlines = new Deadlines(timeoutMs);

  function targetOf(url: string, livemode: boolean): Target {
    const known = livemode ? targets.live : targets.test;
    const hit = known.get(url);
    if (hit) return hit;
    // Node skips the lookup for an IP literal, so the literal is checked here (throws if refused).
    const parsed = validateEndpointUrl(url, livemode, testAllowsLoopback);
    const target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (known.size >= TARGETS_MAX) known.clear();
    known.set(url, target);
    return target;
  }

  return {
    send({ url, livemode, payload, signature }) {
      const requestHeaders: KeptHeaders = {
        'content-type': 'application/json',
        'service-signature': signature,
        'user-agent': WEBHOOK_USER_AGENT,
      };
      return new Promise<AttemptOutcome>((resolve) => {
        const attempt = new Attempt(requestHeaders, timeoutMs, deadlines, resolve);
        try {
          const { origin, path } = targetOf(url, livemode);
          (livemode ? agents.live : agents.test).dispatch(
            { origin, path, method: 'POST', headers: requestHeaders, body: payload },
            attempt,
          );
        } catch (error) {
          attempt.onError(error);
        }
      });
    },
    async close() {
      await Promise.all([agents.live.close(), agents.test.close()]);
    },
  };
}
