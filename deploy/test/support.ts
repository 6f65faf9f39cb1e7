// What the deployment tests share: podman as this machine kind needs it, the opt-in switch, a
// database of their own on the host's PostgreSQL, and a merchant's payment through the API.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { type PaygateProcess, watchProcess } from '../../packages/server/test/support/processes.ts';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/**
 * The deployment tests build images and run containers and clusters (minutes, root, podman):
 * they run only with PAYGATE_DEPLOY_TESTS=1, which .ci/run sets. Without it a file says so.
 */
export function deployTestsEnabled(file: string): boolean {
  if (process.env.PAYGATE_DEPLOY_TESTS === '1') return true;
  process.stdout.write(`# ${file}: not run; set PAYGATE_DEPLOY_TESTS=1 to run it (.ci/run does)\n`);
  return false;
}

/** crun refuses this VM's hybrid cgroups, and the default limits are refused: runc and explicit limits. */
export const PODMAN = ['podman', '--runtime', 'runc'];
export const LIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=4096:4096'];

export function podman(args: string[], options: { allowFailure?: boolean; timeoutMs?: number } = {}) {
  const result = run(PODMAN[0] ?? 'podman', [...PODMAN.slice(1), ...args], options);
  return result;
}

export function run(
  command: string,
  args: string[],
  options: { allowFailure?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? repoRoot,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 600_000,
    env: options.env ?? process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!options.allowFailure && result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}${result.signal ? ` (${result.signal})` : ''}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** The built CLI, as the image and the systemd units run it (it starts far faster than through tsx). */
export const builtMain = join(repoRoot, 'packages/server/dist/main.js');

/** `npm run build`: packages/server/dist from the sources as they are now. */
export function buildCli() {
  run('npm', ['run', 'build', '--silent'], { timeoutMs: 300_000 });
}

/** A `paygate` process of the built CLI, with the environment startPaygate gives (call buildCli first). */
export function startBuiltPaygate(name: string, args: string[], env: Record<string, string>): PaygateProcess {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')));
  const child = spawn(process.execPath, [builtMain, ...args], {
    env: { ...clean, PAYGATE_LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchProcess(name, child);
}

/** Builds (or keeps, when cached) the stand-in base image, then the service image from the real Containerfile. */
export function buildImage(tag: string): { baseSeconds: number; imageSeconds: number } {
  let started = performance.now();
  run('deploy/build-base-image.sh', [], { timeoutMs: 900_000 });
  const baseSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  podman(
    [
      'build',
      '--pull=never',
      '--format',
      'docker',
      ...LIMITS,
      ...(ca
        ? ['--build-arg', 'NODE_EXTRA_CA_CERTS=/run/host-ca.crt', '-v', `${ca}:/run/host-ca.crt:ro`]
        : []),
      '-f',
      'deploy/Containerfile',
      '-t',
      tag,
      '.',
    ],
    { timeoutMs: 1_200_000 },
  );
  return { baseSeconds, imageSeconds: (performance.now() - started) / 1000 };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const adminUrl = () => process.env.PAYGATE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database on the host's PostgreSQL, and how to drop it. */
export async function hostDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `paygate_deploy_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export const secrets = () => ({
  PAYGATE_ADMIN_TOKEN: `adm_${randomBytes(16).toString('hex')}`,
  PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
});

/** Polls `read` until it resolves truthy, up to `timeoutMs`. */
export async function until<T>(
  what: string,
  read: () => Promise<T | null | undefined | false>,
  timeoutMs = 120_000,
) {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}: ${String(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** A merchant created through the operator API: its id and secret test key. */
export async function createMerchant(
  baseUrl: string,
  adminToken: string,
): Promise<{ id: string; key: string }> {
  const created = await json(
    await fetch(`${baseUrl}/admin/v1/merchants`, {
      method: 'POST',
      headers: { 'x-admin-token': adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Deploy test shop' }),
    }),
  );
  return { id: String(created.id), key: (created.api_keys as { secret_test: string }).secret_test };
}

/** Creates and confirms one payment with the simulated gateway; its intent as answered. */
export async function takePayment(
  baseUrl: string,
  key: string,
  amountMinor = 2500,
): Promise<{ id: string; status: string }> {
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const intent = await json(
    await fetch(`${baseUrl}/v1/payment-intents`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ amount_minor: amountMinor, currency: 'USD', gateway_id: 'sim' }),
    }),
  );
  const confirmed = await json(
    await fetch(`${baseUrl}/v1/payment-intents/${intent.id}/confirm`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ payment_method_token: 'tok_sim_approve' }),
    }),
  );
  return { id: String(confirmed.id), status: String(confirmed.status) };
}
