import { PaygateConfigurationError } from './errors.ts';

/** Options of `new Paygate(...)`. Everything but `apiKey` has a safe default. */
export interface PaygateOptions {
  /** A secret key, `sk_test_...` or `sk_live_...`. Publishable keys are refused. */
  apiKey: string;
  /** Address of your Paygate service, http or https, without `/v1`. Default `http://localhost:8080`. */
  baseUrl?: string;
  /** Time-out of each HTTP attempt in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for GET (and for a POST that never left). Default 2. */
  maxRetries?: number;
  /** Sends the Node.js version in the User-Agent. Default true; false sends the client version only. */
  telemetry?: boolean;
  /** The `fetch` to use; default the global one of Node.js (undici). */
  fetch?: typeof fetch;
  /** Random source in [0, 1) for back-off jitter; default `Math.random`. */
  random?: () => number;
  /** How to wait between attempts; default a timer. Tests inject one that records the waits. */
  sleep?: (ms: number) => Promise<void>;
  /** Wall clock in milliseconds, used to read a `Retry-After` date; default `Date.now`. */
  now?: () => number;
}

export interface ResolvedConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  telemetry: boolean;
  fetch: typeof fetch;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;

const secretKeyPattern = /^sk_(test|live)_[0-9A-Za-z]+$/;

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Checks every option locally, so a misconfiguration fails at start-up and never on the wire. */
export function resolveConfig(options: PaygateOptions): ResolvedConfig {
  if (typeof options !== 'object' || options === null) {
    throw new PaygateConfigurationError('new Paygate(options) needs an options object with apiKey');
  }
  return {
    apiKey: checkApiKey(options.apiKey),
    baseUrl: checkBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL),
    timeoutMs: checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxRetries: checkMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES),
    telemetry: checkBoolean('telemetry', options.telemetry ?? true),
    fetch: checkFunction('fetch', options.fetch) ?? globalThis.fetch,
    random: checkFunction('random', options.random) ?? Math.random,
    sleep: checkFunction('sleep', options.sleep) ?? defaultSleep,
    now: checkFunction('now', options.now) ?? Date.now,
  };
}

function checkApiKey(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new PaygateConfigurationError(
      'apiKey is required: a secret key starting with sk_test_ or sk_live_',
    );
  }
  if (apiKey.startsWith('pk_')) {
    throw new PaygateConfigurationError(
      'apiKey is a publishable key (pk_...); server clients need a secret key (sk_test_... or sk_live_...)',
    );
  }
  if (!secretKeyPattern.test(apiKey)) {
    // The key itself is not echoed: it may be a real secret pasted into the wrong place.
    throw new PaygateConfigurationError(
      'apiKey must be a secret key: sk_test_ or sk_live_ and base62 characters',
    );
  }
  return apiKey;
}

function checkBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string') throw new PaygateConfigurationError('baseUrl must be a string');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new PaygateConfigurationError(`baseUrl is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PaygateConfigurationError(`baseUrl must use http or https, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new PaygateConfigurationError('baseUrl must not carry a query, a fragment or credentials');
  }
  return url.href.replace(/\/+$/, '');
}

function checkTimeout(timeoutMs: unknown): number {
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new PaygateConfigurationError('timeoutMs must be a positive finite number of milliseconds');
  }
  return timeoutMs;
}

function checkMaxRetries(maxRetries: unknown): number {
  if (typeof maxRetries !== 'number' || !Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 10) {
    throw new PaygateConfigurationError('maxRetries must be an integer from 0 to 10');
  }
  return maxRetries;
}

function checkBoolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new PaygateConfigurationError(`${name} must be a boolean`);
  return value;
}

function checkFunction<F>(name: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new PaygateConfigurationError(`${name} must be a function`);
  }
  return value;
}
