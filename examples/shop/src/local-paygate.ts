import { randomBytes } from 'node:crypto';
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
