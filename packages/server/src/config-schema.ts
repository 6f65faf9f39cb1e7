/**
 * The one description of every environment variable Paygate reads: its type, default, allowed
 * values, whether it is a secret, and which processes read it. `config.ts` reads the service's
 * configuration through it, `paygate config check` prints and checks it, and the tests hold
 * `.env.example` and the table in docs/operations.md to it.
 */

/**
 * Who reads a variable: `start` (the service), `worker` (`paygate worker`), `sim` (`paygate sim`),
 * `commands` (migrate, merchant, dashboard, reconcile: one-shot commands on the database) and
 * `client` (listen, trigger: clients of a running service).
 */
export const PROCESSES = ['start', 'worker', 'sim', 'commands', 'client'] as const;
export type ProcessName = (typeof PROCESSES)[number];

export type VariableType =
  | { kind: 'port' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'boolean' }
  | { kind: 'choice'; choices: readonly string[] }
  /** An absolute URL with one of `schemes`; `bare`: no query, fragment or credentials. */
  | { kind: 'url'; schemes: readonly string[]; what: string; bare?: boolean }
  | { kind: 'host' }
  /** Free text; when `pattern` is given, a value must match it. */
  | { kind: 'text'; what: string; pattern?: RegExp };

export interface ConfigVariable {
  name: string;
  type: VariableType;
  /** The value when the variable is not set (as .env.example writes it); null: none. */
  default: string | null;
  /** How the docs show a default that is computed (e.g. from another variable). */
  defaultNote?: string;
  /** Never printed: masked by `config check`, left out of error messages. */
  secret: boolean;
  readBy: readonly ProcessName[];
  /** One line for the table in docs/operations.md. */
  summary: string;
}

const SERVICE: readonly ProcessName[] = ['start', 'worker', 'sim', 'commands'];
const WEBHOOKS: readonly ProcessName[] = ['start', 'worker'];
const HTTP_URL = 'an http:// or https:// URL';

const variable = (
  name: string,
  type: VariableType,
  defaultValue: string | null,
  readBy: readonly ProcessName[],
  summary: string,
  more: { secret?: boolean; defaultNote?: string } = {},
): ConfigVariable => ({
  name,
  type,
  default: defaultValue,
  readBy,
  summary,
  secret: more.secret ?? false,
  ...(more.defaultNote ? { defaultNote: more.defaultNote } : {}),
});

const integer = (min: number, max: number): VariableType => ({ kind: 'integer', min, max });
const url = (what: string, ...schemes: string[]): VariableType => ({ kind: 'url', schemes, what });
const httpUrl = url(HTTP_URL, 'http:', 'https:');
const text = (what: string, pattern?: RegExp): VariableType => ({
  kind: 'text',
  what,
  ...(pattern ? { pattern } : {}),
});

export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  variable(
    'NODE_ENV',
    text('production, or anything else for development'),
    'development',
    SERVICE,
    '`production`: no demo merchant is created and the simulated gateway starts only with `PAYGATE_SIM=on`',
  ),
  variable('PORT', { kind: 'port' }, '8080', ['start'], 'the API, the operator API and the checkout frame'),
  variable(
    'HOST',
    { kind: 'host' },
    '127.0.0.1',
    ['start'],
    'listen address: loopback by default, so a development service is reachable from this machine only; `0.0.0.0` (or `::`) listens on every interface, as a container or a host behind a load balancer needs',
  ),
  variable(
    'PAYGATE_PUBLIC_URL',
    {
      kind: 'url',
      schemes: ['http:', 'https:'],
      what: 'an absolute http:// or https:// URL such as https://pay.example.com (no query or fragment)',
      bare: true,
    },
    null,
    SERVICE,
    'the address put into URLs the service hands out (frame URL, return addresses; where `paygate sim` notifies)',
    { defaultNote: 'http://localhost:$PORT' },
  ),
  variable(
    'PAYGATE_DATABASE_URL',
    url('a postgres:// URL such as postgres://user:password@host:5432/paygate', 'postgres:', 'postgresql:'),
    null,
    SERVICE,
    '`postgres://…`; absent means the embedded database in the data dir',
    { secret: true },
  ),
  variable(
    'PAYGATE_DATABASE_CONNECT_TIMEOUT_MS',
    integer(100, 600_000),
    '5000',
    SERVICE,
    'PostgreSQL: how long opening a connection, or waiting for a free one of the pool, may take before the request fails',
  ),
  variable(
    'PAYGATE_DATABASE_QUERY_TIMEOUT_MS',
    integer(100, 3_600_000),
    '15000',
    SERVICE,
    "PostgreSQL: the longest a statement may run (the server's `statement_timeout`); this process stops waiting for an answer 2 s later, so a primary that vanished without a word is given up in seconds (migrations have no limit)",
  ),
  variable(
    'PAYGATE_DATABASE_KEEPALIVE_MS',
    integer(1000, 3_600_000),
    '10000',
    SERVICE,
    'PostgreSQL: idle time after which TCP keepalive probes check each connection',
  ),
  variable(
    'PAYGATE_DATABASE_START_WAIT_SECONDS',
    integer(0, 86_400),
    '300',
    SERVICE,
    'PostgreSQL: how long a process starting keeps trying to reach the database, with back-off and a log line per try; `0`: fail at once',
  ),
  variable(
    'PAYGATE_DATA_DIR',
    text('a directory path'),
    './.paygate',
    SERVICE,
    'embedded database, generated operator token and master key',
  ),
  variable(
    'PAYGATE_MIGRATE_ON_START',
    { kind: 'boolean' },
    'true',
    ['start', 'worker'],
    'apply pending migrations before listening',
  ),
  variable(
    'PAYGATE_ADMIN_TOKEN',
    text('at least 16 characters (generate with `openssl rand -hex 24`)', /^[\s\S]{16,}$/),
    null,
    SERVICE,
    'operator token (`X-Admin-Token`); on the embedded database generated on first start, kept in the data dir and printed. **Required with PostgreSQL** (one token for every process)',
    { secret: true, defaultNote: 'generated (embedded only)' },
  ),
  variable(
    'PAYGATE_MASTER_KEY',
    text('64 hex characters (generate with `openssl rand -hex 32`)', /^[0-9a-fA-F]{64}$/),
    null,
    SERVICE,
    'encrypts webhook secrets (AES-256-GCM) and derives client secrets. **Required with PostgreSQL**; keep it in your secret store',
    { secret: true, defaultNote: 'generated (embedded only)' },
  ),
  variable(
    'PAYGATE_NEW_MASTER_KEY',
    text('64 hex characters (generate with `openssl rand -hex 32`)', /^[0-9a-fA-F]{64}$/),
    null,
    ['commands'],
    'the key `paygate rotate-master-key` re-seals every stored secret under; set it only for that command',
    { secret: true },
  ),
  variable(
    'PAYGATE_SIM',
    { kind: 'choice', choices: ['on', 'off'] },
    'on',
    ['start'],
    'the simulated gateway (test mode)',
    { defaultNote: '`on` (`off` with `NODE_ENV=production`)' },
  ),
  variable(
    'PAYGATE_SIM_PORT',
    { kind: 'port' },
    '8081',
    ['start', 'sim', 'commands'],
    "the simulated gateway's port; `0` runs without it. Setting it does not turn the simulator on in production",
  ),
  variable(
    'PAYGATE_SIM_URL',
    httpUrl,
    null,
    ['start', 'commands'],
    'a shared simulator (`paygate sim`) to use instead of starting one in this process',
  ),
  variable(
    'PAYGATE_SIM_RETENTION_SECONDS',
    integer(60, 31_536_000),
    '93600',
    ['start', 'sim'],
    "how long the simulated gateway keeps a settled charge and its refunds (26 h: longer than `paygate reconcile`'s 24 h window)",
  ),
  variable(
    'PAYGATE_SIM_MAX_CHARGES',
    integer(100, 100_000_000),
    '100000',
    ['start', 'sim'],
    'the most settled charges the simulated gateway keeps; the oldest are forgotten first (its books answer `410 books_forgotten` for what is gone)',
  ),
  variable(
    'PAYGATE_TEST_CLOCK',
    { kind: 'boolean' },
    'false',
    SERVICE,
    '`1` enables `POST /admin/v1/test-clock/advance`',
  ),
  variable(
    'PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK',
    { kind: 'boolean' },
    'true',
    WEBHOOKS,
    'test-mode webhook endpoints may be on loopback (`localhost`, `127.0.0.1`, `[::1]`, also plain `http`); `false` refuses loopback in test mode too. Private, link-local and metadata addresses are refused in both modes regardless',
  ),
  variable(
    'PAYGATE_REDIS_URL',
    url('a redis:// or rediss:// URL', 'redis:', 'rediss:'),
    null,
    ['start'],
    'shares rate-limit budgets across processes',
    { secret: true },
  ),
  variable(
    'PAYGATE_RATE_LIMIT_PER_SECOND',
    integer(1, 1_000_000),
    '100',
    ['start'],
    'requests per second per API key',
  ),
  variable(
    'PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND',
    integer(1, 1_000_000),
    '20',
    ['start'],
    'requests per second per client address that fail authentication (no, bad or unknown key; wrong operator token); a valid key never spends it',
  ),
  variable(
    'PAYGATE_LOG_LEVEL',
    { kind: 'choice', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    'info',
    SERVICE,
    'pino level (`silent` to mute)',
  ),
  variable(
    'PAYGATE_METRICS_PORT',
    { kind: 'port' },
    null,
    WEBHOOKS,
    'serve Prometheus metrics on `GET /metrics` on this port; absent: no metrics listener',
  ),
  variable(
    'PAYGATE_METRICS_HOST',
    { kind: 'host' },
    '127.0.0.1',
    WEBHOOKS,
    "the metrics listener's address; it has no token, so bind it where only the scraper reaches it",
  ),
  variable(
    'PAYGATE_STRIPE_SECRET_KEY',
    text('a Stripe secret key (sk_test_... or sk_live_...)', /^(sk|rk)_(test|live)_/),
    null,
    ['start'],
    'gateway `stripe` ([gateways.md](gateways.md)); `sk_test_…` makes it a test-mode gateway, `sk_live_…` a live-mode one',
    { secret: true },
  ),
  variable(
    'PAYGATE_STRIPE_WEBHOOK_SECRET',
    text("the signing secret (whsec_...) of the endpoint in Stripe's dashboard"),
    null,
    ['start'],
    "the signing secret of the webhook endpoint you add in Stripe's dashboard",
    { secret: true },
  ),
  variable(
    'PAYGATE_STRIPE_RETURN_URL',
    httpUrl,
    null,
    ['start'],
    'where Stripe sends the payer after 3-D Secure when the intent has no `return_url`',
  ),
  variable(
    'PAYGATE_STRIPE_API_URL',
    httpUrl,
    'https://api.stripe.com',
    ['start'],
    "Stripe's API (a fake in development)",
  ),
  variable(
    'PAYGATE_STRIPE_HOSTED_FIELDS_URL',
    httpUrl,
    null,
    ['start'],
    'the card-entry page the checkout frame embeds',
  ),
  variable(
    'PAYGATE_STRIPE_PUBLISHABLE_KEY',
    text('a Stripe publishable key (pk_test_... or pk_live_...)', /^pk_(test|live)_/),
    null,
    ['start'],
    'with it the checkout frame takes cards with Stripe.js (from `https://js.stripe.com/v3/` unless `PAYGATE_STRIPE_HOSTED_FIELDS_URL` is set)',
  ),
  variable(
    'PAYGATE_ADYEN_API_KEY',
    text('the API key of your web-service user'),
    null,
    ['start'],
    'gateway `adyen` ([gateways.md](gateways.md)): the API key of your web-service user',
    { secret: true },
  ),
  variable(
    'PAYGATE_ADYEN_MERCHANT_ACCOUNT',
    text('your Adyen merchant account'),
    null,
    ['start'],
    'the merchant account payments are made on',
  ),
  variable(
    'PAYGATE_ADYEN_HMAC_KEY',
    text('the hex HMAC key from the Customer Area', /^(?:[0-9a-fA-F]{2}){16,}$/),
    null,
    ['start'],
    'the HMAC key of your standard notification webhook, in hex',
    { secret: true },
  ),
  variable(
    'PAYGATE_ADYEN_RETURN_URL',
    httpUrl,
    null,
    ['start'],
    'the return URL Adyen requires on every payment, used when the intent has none',
  ),
  variable(
    'PAYGATE_ADYEN_LIVE',
    { kind: 'choice', choices: ['true', 'false'] },
    'false',
    ['start'],
    '`true` for a live account (then `PAYGATE_ADYEN_API_URL` is required)',
  ),
  variable(
    'PAYGATE_ADYEN_API_URL',
    httpUrl,
    'https://checkout-test.adyen.com/v72',
    ['start'],
    "Adyen's Checkout API; in live, your account's live URL prefix",
  ),
  variable(
    'PAYGATE_ADYEN_HOSTED_FIELDS_URL',
    httpUrl,
    null,
    ['start'],
    'the card-entry page the checkout frame embeds',
  ),
  variable(
    'PAYGATE_ADYEN_CLIENT_KEY',
    text('an Adyen client key (test_... or live_...)', /^(test|live)_[0-9A-Za-z]+$/),
    null,
    ['start'],
    "with it the checkout frame takes cards with Adyen Web (from Adyen's CDN for the account's mode unless `PAYGATE_ADYEN_HOSTED_FIELDS_URL` is set)",
  ),
  variable(
    'PAYGATE_WEBHOOK_CONCURRENCY',
    integer(1, 1000),
    '64',
    WEBHOOKS,
    'webhook attempts in flight at once per process',
  ),
  variable(
    'PAYGATE_WEBHOOK_BATCH_SIZE',
    integer(1, 1000),
    '50',
    WEBHOOKS,
    'deliveries claimed by one statement',
  ),
  variable(
    'PAYGATE_WEBHOOK_LEASE_SECONDS',
    integer(1, 3600),
    '60',
    WEBHOOKS,
    'how long a claim is held before another worker may attempt it again (longer than the time-out)',
  ),
  variable(
    'PAYGATE_WEBHOOK_POLL_MS',
    integer(1, 3_600_000),
    '5000',
    WEBHOOKS,
    'fallback poll for retries coming due (new events wake the worker at once)',
  ),
  variable(
    'PAYGATE_WEBHOOK_TIMEOUT_MS',
    integer(1, 10_000),
    '10000',
    WEBHOOKS,
    "one delivery attempt's time-out",
  ),
  variable(
    'PAYGATE_API_KEY',
    text('a secret test key (sk_test_...)', /^sk_test_/),
    null,
    ['client'],
    'the secret test key of `paygate listen` and `paygate trigger` (or `--api-key`)',
    { secret: true },
  ),
  variable(
    'PAYGATE_BASE_URL',
    httpUrl,
    'http://localhost:8080',
    ['client'],
    'the service `paygate listen` and `paygate trigger` talk to (or `--base-url`)',
  ),
  variable(
    'PAYGATE_SMTP_URL',
    url('an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465', 'smtp:', 'smtps:'),
    null,
    ['start'],
    'mail to merchant teams (failing webhook endpoints, [dashboard.md](dashboard.md)); absent: mail is off and notices stay in the outbox',
    { secret: true },
  ),
  variable(
    'PAYGATE_MAIL_FROM',
    text(
      'an address such as alerts@shop.example or "Paygate <alerts@shop.example>"',
      /^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
    ),
    null,
    ['start'],
    'the From header of that mail',
    { defaultNote: 'Paygate <no-reply@SMTP host>' },
  ),
];

const byName = new Map(CONFIG_VARIABLES.map((v) => [v.name, v]));

/** The declaration of `name`; asking for an undeclared variable is a programming error. */
export function configVariable(name: string): ConfigVariable {
  const found = byName.get(name);
  if (!found) throw new Error(`${name} is not declared in config-schema.ts`);
  return found;
}

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** What a variable allows, in the words every configuration error uses. */
export function allowedValues(type: VariableType): string {
  switch (type.kind) {
    case 'port':
      return 'a port number from 0 to 65535';
    case 'integer':
      return `an integer from ${type.min} to ${type.max}`;
    case 'boolean':
      return `${TRUE_WORDS.join(', ')} (on) or ${FALSE_WORDS.join(', ')} (off)`;
    case 'choice':
      return type.choices.join(', ');
    case 'host':
      return 'an IP address (0.0.0.0, 127.0.0.1, ::) or a host name';
    case 'url':
    case 'text':
      return type.what;
  }
}

export { FALSE_WORDS, TRUE_WORDS };
