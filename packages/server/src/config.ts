import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allowedValues, CONFIG_VARIABLES, configVariable } from './config-schema.ts';
import {
  type ConfigError,
  type Env,
  given,
  parseValue,
  readChoice,
  readFlag,
  readNumber,
  readText,
  required,
} from './config-values.ts';
import type { DatabaseSettings } from './storage/open.ts';

export { ConfigError } from './config-values.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The secrets several processes on one PostgreSQL database must share: none may generate its own. */
const SHARED_WITH_POSTGRES = {
  PAYGATE_MASTER_KEY: 'with PostgreSQL',
  PAYGATE_ADMIN_TOKEN: 'with PostgreSQL (one token for every process)',
} as const;

/**
 * The secrets missing for PostgreSQL: with it several processes share one database, and each
 * would generate its own in its own data dir, so they must come from the environment.
 */
export function missingSharedSecrets(env: Env): ConfigError[] {
  if (readText(env, 'PAYGATE_DATABASE_URL') === null) return [];
  return Object.entries(SHARED_WITH_POSTGRES)
    .filter(([name]) => given(env, name) === undefined)
    .map(([name, when]) => required(name, when, allowedValues(configVariable(name).type)));
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | null;
  /** How the PostgreSQL pool connects, times out and waits at start (unused on the embedded database). */
  database: DatabaseSettings;
  dataDir: string;
  adminToken: string;
  /** Where the admin token came from: only one kept in the data dir is ever printed. */
  adminTokenSource: 'environment' | 'generated' | 'data-dir';
  masterKey: Buffer;
  testClock: boolean;
  simPort: number | null;
  /** A shared simulator (`paygate sim`) to use instead of starting one in this process. */
  simUrl: string | null;
  redisUrl: string | null;
  migrateOnStart: boolean;
  rateLimitPerSecond: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** `NODE_ENV=production`: nothing is created or started that an operator did not ask for. */
  production: boolean;
  /** The demo merchant of the first start: for development only, never in production. */
  createDemoMerchant: boolean;
  /** PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: per client address, failed authentication. */
  unauthenticatedRateLimitPerSecond: number;
  /** PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK: test-mode webhook endpoints may be on loopback. */
  testWebhooksAllowLoopback: boolean;
  /** The Prometheus metrics listener (`GET /metrics`); null: none. */
  metricsPort: number | null;
  metricsHost: string;
  /** Outgoing mail (PAYGATE_SMTP_URL, PAYGATE_MAIL_FROM); null: mail is off. */
  mail: { smtpUrl: string; from: string } | null;
  /** PAYGATE_SIM_RETENTION_SECONDS / PAYGATE_SIM_MAX_CHARGES: what the simulator's books keep. */
  simRetention: { maxAgeSeconds: number; maxCharges: number };
}

/** Reads a secret kept in the data dir, creating it on first use. */
function keptSecret(
  dataDir: string,
  fileName: string,
  make: () => string,
): { value: string; generated: boolean } {
  const path = join(dataDir, fileName);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return { value, generated: true };
}

/**
 * The whole configuration, from the environment, validated at start-up. Every variable is
 * optional: with none set, `npm start` runs a complete local service on the embedded database.
 */
export function loadConfig(env: Env = process.env): Config {
  // Every variable a service process reads is checked here, the gateways' too, so a bad value
  // stops any process at once with the one error shape.
  for (const variable of CONFIG_VARIABLES) {
    const value = given(env, variable.name);
    if (value !== undefined && variable.readBy.some((p) => p !== 'client')) parseValue(variable, value);
  }
  const production = env.NODE_ENV === 'production';
  const port = readNumber(env, 'PORT') ?? 8080;
  const dataDir = resolve(readText(env, 'PAYGATE_DATA_DIR') ?? '.paygate');
  const databaseUrl = readText(env, 'PAYGATE_DATABASE_URL');
  const [missing] = missingSharedSecrets(env);
  if (missing) throw missing;

  const masterKeyHex =
    readText(env, 'PAYGATE_MASTER_KEY') ??
    keptSecret(dataDir, 'master-key', () => randomBytes(32).toString('hex')).value;
  // A generated key is valid by construction; one kept in the data dir is checked like a given one.
  readText({ PAYGATE_MASTER_KEY: masterKeyHex }, 'PAYGATE_MASTER_KEY');

  let adminToken = readText(env, 'PAYGATE_ADMIN_TOKEN');
  let adminTokenSource: Config['adminTokenSource'] = 'environment';
  if (adminToken === null) {
    const kept = keptSecret(dataDir, 'admin-token', () => `adm_${randomBytes(24).toString('base64url')}`);
    adminToken = readText({ PAYGATE_ADMIN_TOKEN: kept.value }, 'PAYGATE_ADMIN_TOKEN') ?? kept.value;
    adminTokenSource = kept.generated ? 'generated' : 'data-dir';
  }

  // In production the simulated gateway runs only when asked for by name: a port alone is not asking.
  const sim = readChoice(env, 'PAYGATE_SIM', ['on', 'off'], production ? 'off' : undefined);
  const simPort = readNumber(env, 'PAYGATE_SIM_PORT') ?? 8081;
  const simUrl = readText(env, 'PAYGATE_SIM_URL');

  return {
    port,
    host: readText(env, 'HOST') ?? '127.0.0.1',
    publicUrl: readText(env, 'PAYGATE_PUBLIC_URL') ?? `http://localhost:${port}`,
    databaseUrl,
    database: {
      connectTimeoutMs: readNumber(env, 'PAYGATE_DATABASE_CONNECT_TIMEOUT_MS') ?? 5000,
      queryTimeoutMs: readNumber(env, 'PAYGATE_DATABASE_QUERY_TIMEOUT_MS') ?? 15_000,
      keepAliveMs: readNumber(env, 'PAYGATE_DATABASE_KEEPALIVE_MS') ?? 10_000,
      startWaitSeconds: readNumber(env, 'PAYGATE_DATABASE_START_WAIT_SECONDS') ?? 300,
    },
    dataDir,
    adminToken,
    adminTokenSource,
    masterKey: Buffer.from(masterKeyHex, 'hex'),
    testClock: readFlag(env, 'PAYGATE_TEST_CLOCK'),
    simPort: sim === 'off' || simPort === 0 ? null : simPort,
    simUrl: simUrl === null ? null : simUrl.replace(/\/+$/, ''),
    redisUrl: readText(env, 'PAYGATE_REDIS_URL'),
    migrateOnStart: readFlag(env, 'PAYGATE_MIGRATE_ON_START'),
    rateLimitPerSecond: readNumber(env, 'PAYGATE_RATE_LIMIT_PER_SECOND') ?? 100,
    unauthenticatedRateLimitPerSecond: readNumber(env, 'PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND') ?? 20,
    testWebhooksAllowLoopback: readFlag(env, 'PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK'),
    logLevel: readChoice(env, 'PAYGATE_LOG_LEVEL', LOG_LEVELS),
    production,
    createDemoMerchant: !production,
    metricsPort: readNumber(env, 'PAYGATE_METRICS_PORT'),
    metricsHost: readText(env, 'PAYGATE_METRICS_HOST') ?? '127.0.0.1',
    mail: readMailSettings(env),
    simRetention: {
      maxAgeSeconds: readNumber(env, 'PAYGATE_SIM_RETENTION_SECONDS') ?? 93_600,
      maxCharges: readNumber(env, 'PAYGATE_SIM_MAX_CHARGES') ?? 100_000,
    },
  };
}

/** SMTP and the From address; without PAYGATE_SMTP_URL no mail is sent (the outbox still records it). */
function readMailSettings(env: Env): Config['mail'] {
  const smtpUrl = readText(env, 'PAYGATE_SMTP_URL');
  if (smtpUrl === null) return null;
  const from = readText(env, 'PAYGATE_MAIL_FROM');
  return { smtpUrl, from: from ?? `Paygate <no-reply@${new URL(smtpUrl).hostname}>` };
}
