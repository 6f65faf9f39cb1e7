import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
  logLevel: string;
  /** The Prometheus metrics listener (`GET /metrics`); null: none. */
  metricsPort: number | null;
  metricsHost: string;
}

export class ConfigError extends Error {}

function parsePort(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigError(`${name} must be a port number`);
  return port;
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false`);
}

function parseHttpUrl(name: string, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL`);
  }
  return value.replace(/\/+$/, '');
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
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort('PORT', env.PORT, 8080);
  const dataDir = resolve(env.PAYGATE_DATA_DIR || '.paygate');
  const databaseUrl = env.PAYGATE_DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('PAYGATE_DATABASE_URL must be a postgres:// URL');
  }

  let masterKeyHex = env.PAYGATE_MASTER_KEY;
  if (!masterKeyHex) {
    if (databaseUrl) {
      throw new ConfigError(
        'PAYGATE_MASTER_KEY is required with PostgreSQL: 64 hex characters (generate with `openssl rand -hex 32`)',
      );
    }
    masterKeyHex = keptSecret(dataDir, 'master-key', () => randomBytes(32).toString('hex')).value;
  }
  if (!/^[0-9a-fA-F]{64}$/.test(masterKeyHex))
    throw new ConfigError('PAYGATE_MASTER_KEY must be 64 hex characters');

  let adminToken = env.PAYGATE_ADMIN_TOKEN;
  let adminTokenSource: Config['adminTokenSource'] = 'environment';
  if (!adminToken) {
    const kept = keptSecret(dataDir, 'admin-token', () => `adm_${randomBytes(24).toString('base64url')}`);
    adminToken = kept.value;
    adminTokenSource = kept.generated ? 'generated' : 'data-dir';
  }
  if (adminToken.length < 16) throw new ConfigError('PAYGATE_ADMIN_TOKEN must be at least 16 characters');

  const simOff = (env.PAYGATE_SIM ?? '').toLowerCase() === 'off';
  const simPort = parsePort('PAYGATE_SIM_PORT', env.PAYGATE_SIM_PORT, 8081);
  const simUrl = parseHttpUrl('PAYGATE_SIM_URL', env.PAYGATE_SIM_URL);
  const rateLimitPerSecond = Number(env.PAYGATE_RATE_LIMIT_PER_SECOND ?? 100);
  if (!Number.isInteger(rateLimitPerSecond) || rateLimitPerSecond < 1) {
    throw new ConfigError('PAYGATE_RATE_LIMIT_PER_SECOND must be a positive integer');
  }

  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: (env.PAYGATE_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl,
    dataDir,
    adminToken,
    adminTokenSource,
    masterKey: Buffer.from(masterKeyHex, 'hex'),
    testClock: parseBoolean('PAYGATE_TEST_CLOCK', env.PAYGATE_TEST_CLOCK, false),
    simPort: simOff || simPort === 0 ? null : simPort,
    simUrl,
    redisUrl: env.PAYGATE_REDIS_URL || null,
    migrateOnStart: parseBoolean('PAYGATE_MIGRATE_ON_START', env.PAYGATE_MIGRATE_ON_START, true),
    rateLimitPerSecond,
    logLevel: env.PAYGATE_LOG_LEVEL || 'info',
    metricsPort: env.PAYGATE_METRICS_PORT
      ? parsePort('PAYGATE_METRICS_PORT', env.PAYGATE_METRICS_PORT, 0)
      : null,
    metricsHost: env.PAYGATE_METRICS_HOST || '127.0.0.1',
  };
}
