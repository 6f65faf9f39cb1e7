// Starts the real Paygate service of this repository for client tests: from source, on the embedded
// database in a fresh temporary data dir, on free loopback ports (API and simulated gateway), with
// a new merchant. Used by with-service.mjs (any command) and by the conformance suite (in-process).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const root = new URL('../..', import.meta.url).pathname;
const READY_TIMEOUT_MS = Number(process.env.PAYGATE_WITH_SERVICE_READY_TIMEOUT_MS ?? 120_000);
const STOP_GRACE_MS = 10_000;
const START_ATTEMPTS = 3;

/** A port nobody listens on right now (the kernel picks it; a rare race is retried by the caller). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function readLog(logPath) {
  try {
    return readFileSync(logPath, 'utf8');
  } catch {
    return '';
  }
}

/** Launches one service process; resolves null when it exits or never gets ready. */
async function launch(adminToken, shouldGiveUp) {
  const [port, simPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-with-service-'));
  const logPath = join(dataDir, 'service.log');
  const logFd = openSync(logPath, 'a');
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  // Always the embedded database and the in-process simulator, whatever the caller's shell has.
  for (const name of [
    'PAYGATE_DATABASE_URL',
    'PAYGATE_MASTER_KEY',
    'PAYGATE_SIM',
    'PAYGATE_SIM_URL',
    'PAYGATE_REDIS_URL',
  ]) {
    delete env[name];
  }
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PAYGATE_SIM_PORT: String(simPort),
    PAYGATE_DATA_DIR: join(dataDir, 'data'),
    PAYGATE_ADMIN_TOKEN: adminToken,
    PAYGATE_PUBLIC_URL: baseUrl,
    PAYGATE_LOG_LEVEL: process.env.PAYGATE_LOG_LEVEL ?? 'warn',
    // Client test runs send bursts of requests from one address; the default limit is for production.
    PAYGATE_RATE_LIMIT_PER_SECOND: process.env.PAYGATE_RATE_LIMIT_PER_SECOND ?? '1000',
  });
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', join(root, 'packages/server/src/main.ts'), 'start'],
    { cwd: root, env, stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  let gone = false;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit)).then(() => {
    gone = true;
  });

  // If the parent exits without stopping it (a crashed test file), the service must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let stopped = null;
  const stop = () => {
    stopped ??= (async () => {
      process.removeListener('exit', killOnExit);
      if (!gone) {
        child.kill('SIGTERM');
        const done = await Promise.race([exited.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
        if (!done) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      if (process.env.PAYGATE_WITH_SERVICE_LOG === '1') process.stderr.write(readLog(logPath));
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!gone && Date.now() < deadline && !shouldGiveUp()) {
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { baseUrl, stop, log: () => readLog(logPath) };
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  process.stderr.write(`--- paygate service log (did not get ready) ---\n${readLog(logPath)}---\n`);
  await stop();
  return null;
}

async function createMerchant(baseUrl, adminToken) {
  const response = await fetch(`${baseUrl}/admin/v1/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
    body: JSON.stringify({ name: 'Conformance merchant' }),
  });
  const body = await response.json();
  if (response.status !== 201) {
    throw new Error(`creating the merchant answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body;
}

/**
 * Starts the service and creates a merchant. Resolves `{ env, stop }`: `env` holds PAYGATE_BASE_URL,
 * PAYGATE_API_KEY, PAYGATE_PUBLISHABLE_KEY, PAYGATE_ADMIN_TOKEN and PAYGATE_MERCHANT_ID; `stop()`
 * ends the process and removes the data dir (safe to call more than once).
 * `shouldGiveUp` lets a caller that received a signal abandon the start.
 */
export async function startRealService({ shouldGiveUp = () => false, onLaunch = () => {} } = {}) {
  const adminToken = `adm_${randomBytes(24).toString('base64url')}`;
  for (let attempt = 1; attempt <= START_ATTEMPTS && !shouldGiveUp(); attempt += 1) {
    const started = await launch(adminToken, shouldGiveUp);
    if (!started) {
      process.stderr.write(`real-service: the service did not start (attempt ${attempt})\n`);
      continue;
    }
    onLaunch(started.stop);
    try {
      const merchant = await createMerchant(started.baseUrl, adminToken);
      return {
        stop: started.stop,
        env: {
          PAYGATE_BASE_URL: started.baseUrl,
          PAYGATE_API_KEY: merchant.api_keys.secret_test,
          PAYGATE_PUBLISHABLE_KEY: merchant.api_keys.publishable_test,
          PAYGATE_ADMIN_TOKEN: adminToken,
          PAYGATE_MERCHANT_ID: merchant.id,
        },
      };
    } catch (error) {
      process.stderr.write(started.log());
      await started.stop();
      throw error;
    }
  }
  throw new Error('the Paygate service did not start');
}
