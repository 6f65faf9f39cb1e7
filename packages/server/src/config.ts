import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type Env,
  invalid,
  readBoolean,
  readChoice,
  readHost,
  readInteger,
  readPort,
  readPublicUrl,
  readString,
  readUrl,
  required,
} from './config-values.ts';

export { ConfigError } from './config-values.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | null;
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
  const production = env.NODE_ENV === 'production';
  const port = readPort(env, 'PORT', 8080);
  const dataDir = resolve(readString(env, 'PAYGATE_DATA_DIR') ?? '.paygate');
  const databaseUrl = readUrl(
    env,
    'PAYGATE_DATABASE_URL',
    ['postgres:', 'postgresql:'],
    'a postgres:// URL such as postgres://user:password@host:5432/paygate',
  );

  const masterKeyShape = '64 hex characters (generate with `openssl rand -hex 32`)';
  let masterKeyHex = readString(env, 'PAYGATE_MASTER_KEY');
  if (masterKeyHex === undefined) {
    if (databaseUrl) throw required('PAYGATE_MASTER_KEY', 'with PostgreSQL', masterKeyShape);
    masterKeyHex = keptSecret(dataDir, 'master-key', () => randomBytes(32).toString('hex')).value;
  }
  if (!/^[0-9a-fA-F]{64}$/.test(masterKeyHex))
    throw invalid('PAYGATE_MASTER_KEY', masterKeyHex, masterKeyShape);

  // With PostgreSQL several processes share one database, and each would generate its own token
  // in its own data dir: one token for all of them must come from the environment.
  const tokenShape = 'at least 16 characters (generate with `openssl rand -hex 24`)';
  let adminToken = readString(env, 'PAYGATE_ADMIN_TOKEN');
  let adminTokenSource: Config['adminTokenSource'] = 'environment';
  if (adminToken === undefined) {
    if (databaseUrl)
      throw required('PAYGATE_ADMIN_TOKEN', 'with PostgreSQL (one token for every process)', tokenShape);
    const kept = keptSecret(dataDir, 'admin-token', () => `adm_${randomBytes(24).toString('base64url')}`);
    adminToken = kept.value;
    adminTokenSource = kept.generated ? 'generated' : 'data-dir';
  }
  if (adminToken.length < 16) throw invalid('PAYGATE_ADMIN_TOKEN', adminToken, tokenShape);

  // In production the simulated gateway runs only when asked for by name: a port alone is not asking.
  const sim = readChoice(env, 'PAYGATE_SIM', ['on', 'off'], production ? 'off' : 'on');
  const simPort = readPort(env, 'PAYGATE_SIM_PORT', 8081);
  const simUrl = readUrl(env, 'PAYGATE_SIM_URL', ['http:', 'https:'], 'an http:// or https:// URL');

  return {
    port,
    host: readHost(env, 'HOST', '0.0.0.0'),
    publicUrl: readPublicUrl(env, 'PAYGATE_PUBLIC_URL', `http://localhost:${port}`),
    databaseUrl,
    dataDir,
    adminToken,
    adminTokenSource,
    masterKey: Buffer.from(masterKeyHex, 'hex'),
    testClock: readBoolean(env, 'PAYGATE_TEST_CLOCK', false),
    simPort: sim === 'off' || simPort === 0 ? null : simPort,
    simUrl: simUrl === null ? null : simUrl.replace(/\/+$/, ''),
    redisUrl: readUrl(env, 'PAYGATE_REDIS_URL', ['redis:', 'rediss:'], 'a redis:// or rediss:// URL'),
    migrateOnStart: readBoolean(env, 'PAYGATE_MIGRATE_ON_START', true),
    rateLimitPerSecond: readInteger(env, 'PAYGATE_RATE_LIMIT_PER_SECOND', 100, 1, 1_000_000),
    unauthenticatedRateLimitPerSecond: readInteger(
      env,
      'PAYGATE_RATE_LIMIT_UNAUTHENTICATED_PER_SECOND',
      20,
      1,
      1_000_000,
    ),
    testWebhooksAllowLoopback: readBoolean(env, 'PAYGATE_TEST_WEBHOOKS_ALLOW_LOOPBACK', true),
    logLevel: readChoice(env, 'PAYGATE_LOG_LEVEL', LOG_LEVELS, 'info'),
    production,
    createDemoMerchant: !production,
    metricsPort: env.PAYGATE_METRICS_PORT ? readPort(env, 'PAYGATE_METRICS_PORT', 0) : null,
    metricsHost: readHost(env, 'PAYGATE_METRICS_HOST', '127.0.0.1'),
    simRetention: {
      maxAgeSeconds: readInteger(env, 'PAYGATE_SIM_RETENTION_SECONDS', 93_600, 60, 31_536_000),
      maxCharges: readInteger(env, 'PAYGATE_SIM_MAX_CHARGES', 100_000, 100, 100_000_000),
    },
  };
}
