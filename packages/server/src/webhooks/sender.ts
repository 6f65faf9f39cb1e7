import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ValidationError } from '../domain/errors.ts';
import { type KeptHeaders, keptHeaders } from './attempt-headers.ts';
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
    payload: string;
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
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  return bytes.toString('utf8').replaceAll('\u0000', '');
}

/**
 * Makes delivery attempts: one POST of the exact payload bytes, no redirects followed (a 3xx is a
 * failed attempt like any other non-2xx), a time-out for the whole exchange, and in live mode the
 * SSRF guard on the URL's literal address and on every address the name resolves to at connect
 * time. Connections are pooled per mode.
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
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connections: 32,
    });
  const agents = { live: agentFor(true), test: agentFor(false) };

  return {
    async send({ url, livemode, payload, signature }) {
      const requestHeaders = {
        'content-type': 'application/json',
        'service-signature': signature,
        'user-agent': WEBHOOK_USER_AGENT,
      };
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        // Node skips the lookup for an IP literal, so the literal is checked here, on every attempt.
        validateEndpointUrl(url, livemode, testAllowsLoopback);
        const response = await request(url, {
          method: 'POST',
          dispatcher: livemode ? agents.live : agents.test,
          headers: requestHeaders,
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const chunks: Buffer[] = [];
        let read = 0;
        try {
          for await (const chunk of response.body) {
            const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
            if (read < RESPONSE_EXCERPT_BYTES) chunks.push(bytes);
            read += bytes.length;
            if (read > RESPONSE_DRAIN_BYTES) {
              response.body.destroy();
              break;
            }
          }
        } catch {
          // The status line decides the outcome; a body cut short only shortens the excerpt.
        }
        const statusCode = response.statusCode;
        const delivered = statusCode >= 200 && statusCode < 300;
        return {
          delivered,
          statusCode,
          latencyMs: elapsed(),
          error: delivered
            ? null
            : statusCode >= 300 && statusCode < 400
              ? `redirect: ${statusCode} is not followed; register the final URL`
              : `http_status: ${statusCode}`,
          responseExcerpt: excerptOf(chunks),
          requestHeaders,
          responseHeaders: keptHeaders(response.headers),
        };
      } catch (error) {
        return {
          delivered: false,
          statusCode: null,
          latencyMs: elapsed(),
          error: describeError(error, timeoutMs),
          responseExcerpt: null,
          requestHeaders,
          responseHeaders: null,
        };
      }
    },
    async close() {
      await Promise.all([agents.live.close(), agents.test.close()]);
    },
  };
}
