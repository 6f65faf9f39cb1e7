import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, type RunningService, startService } from '@paygate/server';

export interface LocalPaygate {
  service: RunningService;
  url: string;
  adminToken: string;
}

/**
 * The Paygate service in this process, as `npm start` runs it: embedded database in `dataDir`,
 * the simulated gateway on its own port, the test clock on.
 */
export async function startLocalPaygate(options: {
  port: number;
  simPort: number;
  dataDir: string;
  adminToken?: string;
  logLevel?: string;
}): Promise<LocalPaygate> {
  const adminToken = options.adminToken ?? `adm_${randomBytes(18).toString('base64url')}`;
  const url = `http://127.0.0.1:${options.port}`;
  const config = loadConfig({
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PAYGATE_PUBLIC_URL: url,
    PAYGATE_DATA_DIR: options.dataDir,
    PAYGATE_ADMIN_TOKEN: adminToken,
    PAYGATE_SIM_PORT: String(options.simPort),
    PAYGATE_TEST_CLOCK: '1',
    PAYGATE_LOG_LEVEL: options.logLevel ?? 'warn',
  });
  const service = await startService(config);
  return { service, url, adminToken };
}

/**
 * A Paygate already answering on `port` of this machine (as `npm start` leaves it), with the
 * operator token that `npm start` keeps in its data dir (`.paygate`, or PAYGATE_DATA_DIR) when
 * that file is there; null when nothing answers as Paygate there.
 */
export async function findRunningPaygate(
  port: number,
  dataDir = resolve(process.env.PAYGATE_DATA_DIR ?? '.paygate'),
): Promise<{ url: string; adminToken: string | null } | null> {
  const url = `http://localhost:${port}`;
  try {
    const health = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    const body = (await health.json()) as { status?: unknown };
    if (!health.ok || typeof body.status !== 'string') return null;
  } catch {
    return null;
  }
  try {
    return { url, adminToken: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim() || null };
  } catch {
    return { url, adminToken: null };
  }
}
