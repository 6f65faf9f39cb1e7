#!/usr/bin/env node
// Runs a command against the real Paygate service of this repository:
//
//   node clients/conformance/with-service.mjs -- <command> [args...]
//
// Starts the service from source on the embedded database in a fresh temporary data dir, on free
// loopback ports (API and simulated gateway), waits until /readyz answers, creates a merchant
// through the operator API, then runs the command (in the caller's working directory) with
//   PAYGATE_BASE_URL, PAYGATE_API_KEY (sk_test_), PAYGATE_PUBLISHABLE_KEY (pk_test_),
//   PAYGATE_ADMIN_TOKEN, PAYGATE_MERCHANT_ID
// set, stops the service, removes the data dir and exits with the command's exit status.
// The service's own log goes to a file in the data dir; it is printed to stderr when the
// service fails to start, or always with PAYGATE_WITH_SERVICE_LOG=1.
// Used by every reference client's integration tests (clients/<lang>/run-tests) and by the
// shared conformance suite; it needs nothing but Node and this repository's node_modules.
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

function usage() {
  process.stderr.write('usage: node clients/conformance/with-service.mjs -- <command> [args...]\n');
  process.exit(2);
}

const separator = process.argv.indexOf('--');
const commandLine = separator === -1 ? process.argv.slice(2) : process.argv.slice(separator + 1);
if (commandLine.length === 0) usage();

/** A port nobody listens on right now (the kernel picks it; a rare race is retried below). */
function freePort() {
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

let service = null; // { child, dataDir, logPath, exited: Promise }
let command = null;
let finishing = false;

function printLog(logPath) {
  try {
    process.stderr.write(`--- paygate service log (${logPath}) ---\n${readFileSync(logPath, 'utf8')}---\n`);
  } catch {
    // no log written yet
  }
}

async function stopService() {
  if (!service) return;
  const { child, dataDir, logPath, exited } = service;
  service = null;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  if (process.env.PAYGATE_WITH_SERVICE_LOG === '1') printLog(logPath);
  rmSync(dataDir, { recursive: true, force: true });
}

async function startOnce(adminToken) {
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
    // Conformance runs send bursts of requests from one address; the default limit is for production.
    PAYGATE_RATE_LIMIT_PER_SECOND: process.env.PAYGATE_RATE_LIMIT_PER_SECOND ?? '1000',
  });
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', join(root, 'packages/server/src/main.ts'), 'start'],
    { cwd: root, env, stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  service = { child, dataDir, logPath, exited };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  let gone = false;
  exited.then(() => {
    gone = true;
  });
  while (!gone && Date.now() < deadline && !finishing) {
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { baseUrl };
    } catch {
      // not listening yet
    }
    await delay(100);
  }
  printLog(logPath);
  await stopService();
  return null;
}

async function createMerchant(baseUrl, adminToken) {
  const response = await fetch(`${baseUrl}/admin/v1/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
    body: JSON.stringify({ name: 'Conformance merchant' }),
  });
  const body = await response.json();
  if (response.status !== 201)
    throw new Error(`creating the merchant answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

function runCommand(env) {
  return new Promise((resolveStatus) => {
    command = spawn(commandLine[0], commandLine.slice(1), { stdio: 'inherit', env });
    command.once('error', (error) => {
      process.stderr.write(`with-service: cannot run ${commandLine[0]}: ${error.message}\n`);
      resolveStatus(127);
    });
    command.once('exit', (code, signal) => {
      resolveStatus(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : 15));
    });
  });
}

let stopping = null;
/** Stops the service once, however many paths (command exit, signal, error) arrive here. */
function finish(status) {
  finishing = true;
  stopping ??= stopService().then(() => process.exit(status));
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // Let the command end first (it may be mid-request), then stop the service; a second signal
    // while stopping is ignored so the data dir is still removed.
    if (finishing) return;
    finishing = true;
    if (command && command.exitCode === null) command.kill(signal);
    else finish(signal === 'SIGINT' ? 130 : 143);
  });
}

async function main() {
  const adminToken = `adm_${randomBytes(24).toString('base64url')}`;
  let started = null;
  for (let attempt = 1; attempt <= START_ATTEMPTS && !started && !finishing; attempt += 1) {
    started = await startOnce(adminToken);
    if (!started && !finishing)
      process.stderr.write(`with-service: the service did not start (attempt ${attempt})\n`);
  }
  if (!started) return finish(1);
  const merchant = await createMerchant(started.baseUrl, adminToken);
  const status = await runCommand({
    ...process.env,
    PAYGATE_BASE_URL: started.baseUrl,
    PAYGATE_API_KEY: merchant.api_keys.secret_test,
    PAYGATE_PUBLISHABLE_KEY: merchant.api_keys.publishable_test,
    PAYGATE_ADMIN_TOKEN: adminToken,
    PAYGATE_MERCHANT_ID: merchant.id,
  });
  return finish(status);
}

main().catch(async (error) => {
  process.stderr.write(`with-service: ${error instanceof Error ? error.message : String(error)}\n`);
  if (service) printLog(service.logPath);
  await finish(1);
});
