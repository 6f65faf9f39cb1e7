import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  FROM_SOURCE,
  type NodeChild,
  onFreePorts,
  repoRoot,
  spawnNodeChild,
  waitForHttp,
} from './processes.ts';

/**
 * Where the service under test is started from: this checkout, or another one named by
 * PAYGATE_BENCH_SERVICE_ROOT (`--service-root`), e.g. `git archive <commit>` unpacked with this
 * checkout's node_modules linked in, to measure a commit while this tree has work in progress.
 */
export function serviceRoot(): string {
  return resolve(process.env.PAYGATE_BENCH_SERVICE_ROOT || repoRoot);
}

export interface PaygateUnderTest {
  kind: 'postgres' | 'embedded';
  child: NodeChild;
  baseUrl: string;
  adminToken: string;
  /** PostgreSQL's URL of the service's own database (a PostgreSQL-backed service). */
  databaseUrl?: string;
  /**
   * What the service's memory is made of right now (process.memoryUsage(), in bytes); with
   * BENCH_LIVE_HEAP in its environment also the heap its latest full collection left.
   */
  memoryUsage(): Promise<ServiceMemory | null>;
}

export type ServiceMemory = NodeJS.MemoryUsage & { majorGcs?: number; liveHeapBytes?: number | null };

export interface BenchMerchant {
  id: string;
  secretKey: string;
}

const built = new Set<string>();

/**
 * The command line of the service as `npm start` runs it in `root`: the compiled entry, built here
 * (once per run) as `npm start` builds it. A commit from before the build existed ran from source.
 */
export function serviceEntry(root: string): { runtimeFlags: string[]; entry: string } {
  const buildScript = join(root, 'packages/server/scripts/build.ts');
  if (!existsSync(buildScript)) return { runtimeFlags: FROM_SOURCE, entry: 'packages/server/src/main.ts' };
  if (!built.has(root)) {
    const result = spawnSync(process.execPath, ['--import', 'tsx', buildScript], {
      cwd: root,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`building the service in ${root} failed:\n${result.stderr}`);
    built.add(root);
  }
  return { runtimeFlags: [], entry: 'packages/server/dist/main.js' };
}

/**
 * Starts the service as `npm start` does (compiled JavaScript), as a child process with its own pid
 * (so its memory can be read), logging off and the rate limit out of the way.
 */
export async function startPaygate(options: {
  kind: 'postgres' | 'embedded';
  databaseUrl?: string;
  dataDir?: string;
  nodeFlags?: string[];
  env?: NodeJS.ProcessEnv;
  /** The command line after the entry (default `start`; e.g. `start --processes 2`). */
  args?: string[];
  /**
   * `own-process` runs the simulated gateway as `paygate sim` beside the service (PAYGATE_SIM_URL),
   * as a real gateway is another machine: the service's CPU is then Paygate's alone, and the
   * simulator's lands in "other". `in-process` (the default) is what `npm start` does.
   */
  simulator?: 'in-process' | 'own-process';
}): Promise<PaygateUnderTest> {
  const adminToken = `adm_bench_${randomBytes(12).toString('hex')}`;
  // Flags that name bench files (the query counter) must work from another checkout too.
  // The probe reports process.memoryUsage() on SIGUSR2 (and counts statements when asked to).
  // BENCH_CPU_PROF_DIR: each service process writes a V8 CPU profile there when it stops (where
  // a run's CPU goes; node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.BENCH_CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
    : [];
  const flags = [
    '--import',
    './bench/support/service-probe.mjs',
    ...profile,
    ...(options.nodeFlags ?? []),
  ].map((f) => (f.startsWith('./bench/') ? join(repoRoot, f) : f));
  mkdirSync(join(repoRoot, 'bench/tmp'), { recursive: true });
  const root = serviceRoot();
  const { runtimeFlags, entry } = serviceEntry(root);
  // The ports are picked here and bound by the children later: when another process took one in
  // between (the 2026-11-26 quiet run lost the embedded flow so), it starts again on new ports.
  const { child, baseUrl, memoryReport } = await onFreePorts(2, async ([port, simPort]) => {
    const env: NodeJS.ProcessEnv = {
      PORT: String(port),
      HOST: '127.0.0.1',
      PAYGATE_SIM: 'on',
      PAYGATE_SIM_PORT: String(simPort),
      PAYGATE_ADMIN_TOKEN: adminToken,
      PAYGATE_LOG_LEVEL: 'silent',
      PAYGATE_RATE_LIMIT_PER_SECOND: '1000000',
      PAYGATE_DATABASE_URL: options.databaseUrl ?? '',
      PAYGATE_MASTER_KEY: options.kind === 'postgres' ? randomBytes(32).toString('hex') : '',
      PAYGATE_DATA_DIR: options.dataDir ?? '',
      NODE_ENV: 'production',
      ...options.env,
      BENCH_MEMORY_REPORT: join(repoRoot, 'bench/tmp', `memory-${port}.json`),
    };
    const baseUrl = `http://127.0.0.1:${port}`;
    let simulator: NodeChild | null = null;
    if (options.simulator === 'own-process') {
      simulator = spawnNodeChild(
        'paygate sim',
        [...runtimeFlags, entry, 'sim'],
        { ...env, PAYGATE_PUBLIC_URL: baseUrl, BENCH_MEMORY_REPORT: '' },
        root,
      );
      try {
        await waitForHttp(`http://127.0.0.1:${simPort}/health`, simulator);
      } catch (error) {
        await simulator.stop();
        throw error;
      }
      env.PAYGATE_SIM_URL = `http://127.0.0.1:${simPort}`;
    }
    const service = spawnNodeChild(
      `paygate (${options.kind})`,
      [...runtimeFlags, ...flags, entry, ...(options.args ?? ['start'])],
      env,
      root,
    );
    const child = simulator ? withCompanion(service, simulator) : service;
    try {
      // A fresh embedded data dir is initialised and migrated first: a minute or more on a loaded machine.
      await waitForHttp(`${baseUrl}/readyz`, child, options.kind === 'embedded' ? 180_000 : 60_000);
    } catch (error) {
      await child.stop();
      throw error;
    }
    return { child, baseUrl, memoryReport: env.BENCH_MEMORY_REPORT ?? '' };
  });
  return {
    kind: options.kind,
    child,
    baseUrl,
    adminToken,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    async memoryUsage() {
      rmSync(memoryReport, { force: true });
      child.signal('SIGUSR2');
      for (let i = 0; i < 50 && !existsSync(memoryReport); i++) await sleep(20);
      if (!existsSync(memoryReport)) return null;
      const usage = JSON.parse(readFileSync(memoryReport, 'utf8')) as ServiceMemory;
      rmSync(memoryReport, { force: true });
      return usage;
    },
  };
}

/** The service as one child whose stop also stops the process it needs (the simulator). */
function withCompanion(main: NodeChild, companion: NodeChild): NodeChild {
  return {
    pid: main.pid,
    name: main.name,
    output: () => main.output(),
    signal: (name) => main.signal(name),
    exited: main.exited,
    async stop(graceMs) {
      await main.stop(graceMs);
      await companion.stop(graceMs);
    },
  };
}

export async function createMerchant(service: PaygateUnderTest, name: string): Promise<BenchMerchant> {
  const response = await fetch(`${service.baseUrl}/admin/v1/merchants`, {
    method: 'POST',
    headers: { 'x-admin-token': service.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201)
    throw new Error(`create merchant: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { id: string; api_keys: { secret_test: string } };
  return { id: body.id, secretKey: body.api_keys.secret_test };
}

/** One JSON call to the service as the merchant; throws on a non-2xx answer. */
export async function callApi(
  service: PaygateUnderTest,
  merchant: BenchMerchant,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': merchant.secretKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Admin call (operator API). */
export async function callAdmin(
  service: PaygateUnderTest,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-admin-token': service.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}
