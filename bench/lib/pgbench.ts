import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { percentile, round } from './load.ts';
import { ADMIN_URL } from './postgres.ts';

export interface PgbenchResult {
  script: string;
  protocol: 'extended' | 'prepared';
  clients: number;
  durationSeconds: number;
  transactions: number;
  tps: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  failed: number;
}

export function hasPgbench(): boolean {
  return spawnSync('pgbench', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Runs one pgbench script against `database` with per-transaction logging, and computes the
 * latency percentiles from the logs (pgbench itself prints only the average). `extended` is what
 * node-postgres does (parse every statement every time); `prepared` parses each once per connection.
 */
export async function runPgbench(options: {
  database: string;
  scriptPath: string;
  clients: number;
  durationSeconds: number;
  protocol: 'extended' | 'prepared';
  variables: Record<string, string>;
  logDir: string;
}): Promise<PgbenchResult> {
  const url = new URL(ADMIN_URL);
  const logDir = join(options.logDir, `pgbench-${Date.now()}`);
  mkdirSync(logDir, { recursive: true });
  const args = [
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    decodeURIComponent(url.username || 'postgres'),
    '-n',
    '-M',
    options.protocol,
    '-c',
    String(options.clients),
    '-j',
    '2',
    '-T',
    String(options.durationSeconds),
    '-l',
    '--log-prefix',
    join(logDir, 'tx'),
    '-f',
    options.scriptPath,
    ...Object.entries(options.variables).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
    options.database,
  ];
  const child = spawn('pgbench', args, { cwd: logDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`pgbench exited ${code}:\n${output.slice(-2000)}`);

  // Log lines: client_id transaction_no time_us script_no epoch_s epoch_us
  const latenciesUs: number[] = [];
  for (const file of readdirSync(logDir)) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const fields = line.split(' ');
      if (fields.length >= 3 && fields[2] !== undefined) latenciesUs.push(Number(fields[2]));
    }
  }
  rmSync(logDir, { recursive: true, force: true });
  const sorted = Float64Array.from(latenciesUs, (us) => us / 1000).sort();
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1] ?? Number.NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
  return {
    script: options.scriptPath.split('/').pop() ?? options.scriptPath,
    protocol: options.protocol,
    clients: options.clients,
    durationSeconds: options.durationSeconds,
    transactions: sorted.length,
    tps: round(tps, 0),
    p50Ms: round(percentile(sorted, 0.5)),
    p99Ms: round(percentile(sorted, 0.99)),
    p999Ms: round(percentile(sorted, 0.999)),
    failed,
  };
}

/** The disk's flush rate for one 8 kB write (pg_test_fsync, fdatasync): the floor under a durable commit. */
export function measureFlushRate(dataDirectory: string): number | null {
  const binary = ['/usr/lib/postgresql/15/bin/pg_test_fsync', 'pg_test_fsync'].find(
    (b) => spawnSync(b, ['--version'], { stdio: 'ignore' }).status === 0,
  );
  if (!binary) return null;
  const probe = join(dataDirectory, `bench_fsync_probe_${process.pid}`);
  try {
    const run = spawnSync(binary, ['-s', '1', '-f', probe], { encoding: 'utf8', timeout: 60_000 });
    const match = /fdatasync\s+([\d.]+) ops\/sec/.exec(run.stdout ?? '');
    return match?.[1] ? round(Number(match[1]), 0) : null;
  } finally {
    rmSync(probe, { force: true });
  }
}
