// `npm run bench:webhooks`: signed webhook delivery to a local receiver (its own process, verifying
// every signature), on PostgreSQL (`paygate worker` processes) and on the embedded database (the
// worker inside the producing process, as `npm start` runs it).
//
//   throughput: N events committed in one transaction, then the time until the receiver has all of
//               them: deliveries per second for a backlog.
//   latency:    events committed one per transaction at a steady rate while the workers run: the
//               time from each commit to its first attempt's arrival (p50, p99).
//
//   receiver's limit: autocannon POSTs one signed delivery at the receiver directly, as fast as it
//               answers: the ceiling of any delivery rate on this machine.
//
//   options: --events 5000  --latency-events 1000  --rate 100  --workers 1,3  --only postgres,embedded
//            --service-root <dir>  (the workers of another checkout, for a back-to-back A/B)
//            --cpu-prof  (the worker processes write CPU profiles to bench/tmp/profiles/)
//            --label <name>  (an A/B run: writes bench/tmp/webhook-delivery-<name>.json, not the results)
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  type AppContext,
  createContext,
  createDeliveryWorker,
  createMerchant,
  createWebhookEndpoint,
  type Database,
  migrate,
  newId,
  openDatabase,
  type Queryable,
  recordEvent,
} from '@paygate/server';
import { createFreshDatabase, databaseUrl, dropDatabase } from './lib/postgres.ts';
import { type NodeChild, repoRoot, spawnNodeChild } from './lib/processes.ts';
import { serviceEntry, serviceRoot } from './lib/service.ts';
import { measureReceiverLimit, Receiver, type ReceiverLimit, startCpuWindow } from './lib/webhook-bench.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    'latency-events': { type: 'string', default: '1000' },
    rate: { type: 'string', default: '100' },
    workers: { type: 'string', default: '1,3' },
    only: { type: 'string', default: 'postgres,embedded' },
    'service-root': { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    label: { type: 'string' },
  },
});
if (values['service-root']) process.env.PAYGATE_BENCH_SERVICE_ROOT = values['service-root'];
const EVENTS = Number(values.events);
const LATENCY_EVENTS = Number(values['latency-events']);
const RATE_PER_SECOND = Number(values.rate);
const WORKER_COUNTS = values.workers.split(',').map(Number);

interface RunResult {
  database: 'postgres' | 'embedded';
  workers: string;
  /** Worker processes (0: the worker runs in the producing process). */
  workerProcesses: number;
  throughput: { events: number; seconds: number; deliveriesPerSecond: number; firstArrivalMs: number };
  /** CPU µs per delivery during the backlog: the worker processes, the receiver, PostgreSQL. */
  cpuMicrosPerDelivery: { workers: number | null; receiver: number | null; postgres: number | null } | null;
  /** The workers' CPU µs per delivery split into user and kernel time (/proc utime, stime). */
  workerUserSystem: { user: number; system: number } | null;
  latency: { events: number; ratePerSecond: number; p50Ms: number; p99Ms: number; maxMs: number };
  /** Arrivals of an event already received: a retry after a failed (timed-out) attempt. */
  duplicates: number;
  /** Attempts recorded as failed (on a loaded machine: time-outs), retried in their next slot. */
  failedAttempts: number;
  rejected: number;
}

/** The user and kernel CPU time of some processes over a stretch, in µs per delivery. */
function startUserSystemWindow(pids: number[]) {
  const read = () => {
    let user = 0;
    let system = 0;
    for (const pid of pids) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        user += Number(fields[11]);
        system += Number(fields[12]);
      } catch {
        // Not Linux, or the process is gone.
      }
    }
    return { user, system };
  };
  const before = read();
  return (deliveries: number) => {
    const after = read();
    // Ticks of 10 ms (USER_HZ), as in lib/cpu.ts.
    const micros = (ticks: number) => Math.round((ticks * 10_000) / deliveries);
    return { user: micros(after.user - before.user), system: micros(after.system - before.system) };
  };
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** One `payment_intent.canceled` event in `q`; its id. */
function recordEventFor(ctx: AppContext, q: Queryable, merchantId: string, i: number) {
  const object = {
    id: newId('pi'),
    object: 'payment_intent',
    amount_minor: 1000 + i,
    currency: 'USD',
    status: 'CANCELED',
  };
  return recordEvent(ctx, q, { merchantId, type: 'payment_intent.canceled', object, livemode: false });
}

async function measure(
  ctx: AppContext,
  merchantId: string,
  receiver: Receiver,
  workerPids: number[],
): Promise<Omit<RunResult, 'database' | 'workers' | 'workerProcesses'>> {
  // Throughput: one commit makes the whole backlog visible at once.
  await receiver.reset();
  // The CPU window opens inside the transaction, once its inserts are done, so it holds the commit
  // and every delivery (the workers start at the commit). Opened after the commit, as before, it
  // missed the deliveries made while the backends were listed (a few hundred ms on a loaded
  // machine: the first arrival came before the window), which made CPU per delivery look smaller
  // and the rate higher.
  let cpu: ReturnType<typeof startCpuWindow<'workers' | 'receiver' | 'postgres'>> | undefined;
  let split: ReturnType<typeof startUserSystemWindow> | undefined;
  await ctx.db.transaction(async (tx) => {
    for (let i = 0; i < EVENTS; i += 1) await recordEventFor(ctx, tx, merchantId, i);
    const backends = await tx.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    cpu = startCpuWindow({
      workers: workerPids,
      receiver: [receiver.child.pid],
      postgres: backends.rows.map((r) => r.pid),
    });
    split = startUserSystemWindow(workerPids);
  });
  const committedAt = Date.now();
  const backlog = await receiver.waitFor(EVENTS, 300_000);
  const workerUserSystem = split?.(EVENTS) ?? null;
  // Backends opened during the backlog (a pool replaces idle connections) count from their start.
  const laterBackends = await ctx.db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const cpuMicrosPerDelivery = cpu?.(EVENTS, { postgres: laterBackends.rows.map((r) => r.pid) }) ?? null;
  const times = backlog.arrivals.map(([, at]) => at);
  const seconds = (Math.max(...times) - committedAt) / 1000;
  const throughput = {
    events: EVENTS,
    seconds: Number(seconds.toFixed(2)),
    deliveriesPerSecond: Math.round(EVENTS / seconds),
    firstArrivalMs: Math.min(...times) - committedAt,
  };

  // Latency: a steady stream of single-event commits, at most half the measured throughput (a
  // stream above capacity measures a growing queue, not latency).
  const ratePerSecond = Math.max(
    1,
    Math.min(RATE_PER_SECOND, Math.floor(throughput.deliveriesPerSecond / 2)),
  );
  await receiver.reset();
  const commits = new Map<string, number>();
  const start = Date.now();
  for (let i = 0; i < LATENCY_EVENTS; i += 1) {
    const due = start + (i * 1000) / ratePerSecond;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    const eventId = await ctx.db.transaction((tx) => recordEventFor(ctx, tx, merchantId, i));
    commits.set(eventId, Date.now());
  }
  const stream = await receiver.waitFor(LATENCY_EVENTS, 120_000);
  const latencies = stream.arrivals
    .map(([id, at]) => at - (commits.get(id) ?? Number.NaN))
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  return {
    throughput,
    cpuMicrosPerDelivery,
    workerUserSystem,
    latency: {
      events: latencies.length,
      ratePerSecond,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: latencies.at(-1) ?? Number.NaN,
    },
    duplicates: backlog.duplicates + stream.duplicates,
    failedAttempts:
      (
        await ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM webhook_attempts WHERE error IS NOT NULL',
        )
      ).rows[0]?.n ?? 0,
    rejected: backlog.rejected + stream.rejected,
  };
}

/** The endpoint secret the receiver verifies with now. */
let currentSecret = '';

async function setUp(db: Database, masterKey: Buffer, receiver: Receiver) {
  await migrate(db);
  const ctx = createContext({ db, masterKey });
  const { merchant } = await createMerchant(ctx, 'Bench shop');
  const merchantId = merchant.id;
  const { secret } = await createWebhookEndpoint(ctx, merchantId, {
    url: `${receiver.base}/hooks`,
    livemode: false,
  });
  await receiver.configure(secret);
  currentSecret = secret;
  return { ctx, merchantId };
}

async function runPostgres(receiver: Receiver, workerCount: number): Promise<RunResult> {
  const name = await createFreshDatabase('paygate_bench_webhooks');
  const url = databaseUrl(name);
  const masterKey = randomBytes(32);
  const db = await openDatabase({ databaseUrl: url, maxConnections: 10 });
  const workers: NodeChild[] = [];
  try {
    const { ctx, merchantId } = await setUp(db, masterKey, receiver);
    // The workers run as `paygate worker` runs in production: compiled, from this checkout or the
    // one named by --service-root.
    const root = serviceRoot();
    const { runtimeFlags, entry } = serviceEntry(root);
    const profileFlags = values['cpu-prof']
      ? ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', join(repoRoot, 'bench/tmp/profiles')]
      : [];
    for (let i = 0; i < workerCount; i += 1) {
      workers.push(
        spawnNodeChild(
          `worker ${i + 1}`,
          [...runtimeFlags, ...profileFlags, entry, 'worker'],
          {
            PAYGATE_DATABASE_URL: url,
            PAYGATE_MASTER_KEY: masterKey.toString('hex'),
            PAYGATE_ADMIN_TOKEN: `bench-admin-token-${randomBytes(8).toString('hex')}`,
            PAYGATE_MIGRATE_ON_START: 'false',
            PAYGATE_LOG_LEVEL: 'info',
            NODE_ENV: 'production',
          },
          root,
        ),
      );
    }
    const deadline = Date.now() + 60_000;
    while (!workers.every((w) => w.output().includes('worker started'))) {
      if (Date.now() > deadline)
        throw new Error(`workers did not start:\n${workers.map((w) => w.output()).join('\n')}`);
      await sleep(100);
    }
    const result = await measure(
      ctx,
      merchantId,
      receiver,
      workers.map((w) => w.pid),
    );
    samplePayload ??= await storedPayload(db);
    const plural = workerCount === 1 ? 'process' : 'processes';
    return {
      database: 'postgres',
      workers: `${workerCount} paygate worker ${plural}`,
      workerProcesses: workerCount,
      ...result,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await db.close();
    await dropDatabase(name);
  }
}

/** One event's stored bytes, exactly as a worker sends them (for the receiver's bare limit). */
let samplePayload: { payload: string; secret: string } | undefined;
async function storedPayload(db: Database): Promise<{ payload: string; secret: string }> {
  const { rows } = await db.query<{ payload: string }>('SELECT payload FROM events LIMIT 1');
  const payload = rows[0]?.payload;
  if (!payload) throw new Error('no stored event to measure the receiver with');
  return { payload, secret: currentSecret };
}

async function runEmbedded(receiver: Receiver): Promise<RunResult> {
  const db = await openDatabase({});
  const { ctx, merchantId } = await setUp(db, randomBytes(32), receiver);
  const worker = createDeliveryWorker(ctx);
  await worker.start();
  try {
    const result = await measure(ctx, merchantId, receiver, [process.pid]);
    samplePayload ??= await storedPayload(db);
    return {
      database: 'embedded',
      workers: '1 worker in the producing process',
      workerProcesses: 0,
      ...result,
    };
  } finally {
    await worker.stop();
    await db.close();
  }
}

const RESULTS_DIR = join(repoRoot, 'bench/results');
const RESULTS_MD = join(repoRoot, 'bench/RESULTS.md');
const BEGIN = '<!-- bench:webhooks begin (npm run bench:webhooks rewrites this block) -->';
const END = '<!-- bench:webhooks end -->';

interface Report {
  date: string;
  machine: string;
  loadBefore: number[];
  loadAfter: number[];
  receiverLimit: ReceiverLimit | null;
  runs: RunResult[];
}

function renderMarkdown(report: Report): string {
  const limit = report.receiverLimit;
  const cell = (value: number | null | undefined) =>
    value === null || value === undefined ? '–' : String(value);
  const rows = report.runs.map((r) => {
    const ratio = limit ? `${(r.throughput.deliveriesPerSecond / limit.perSecond).toFixed(2)}×` : '–';
    const cpu = r.cpuMicrosPerDelivery;
    return `| ${r.database} | ${r.workers} | ${r.throughput.deliveriesPerSecond} | ${ratio} | ${cell(cpu?.workers)} / ${cell(cpu?.postgres)} / ${cell(cpu?.receiver)} | ${r.latency.ratePerSecond} | ${r.latency.p50Ms} | ${r.latency.p99Ms} | ${r.latency.maxMs} | ${r.failedAttempts} | ${r.duplicates} |`;
  });
  return [
    BEGIN,
    '## Webhook delivery',
    '',
    `${report.date}, ${report.machine}; load average (1/5/15 min) ${report.loadBefore.join(' / ')} before and ` +
      `${report.loadAfter.join(' / ')} after (other work on the machine shares the cores).`,
    `Receiver: a local process verifying every signature and answering 200. Throughput: ${EVENTS} events ` +
      `committed at once. Latency: ${LATENCY_EVENTS} events committed one by one (at ${RATE_PER_SECOND}/s, or half ` +
      'the measured throughput if lower), from commit to the first arrival. A failed attempt (a time-out on a ' +
      'starved process) is retried in its next slot a minute later; its event may then arrive twice.',
    limit
      ? `The receiver's bare limit (its limit for deliveries): ${limit.perSecond} signed deliveries/s verified and answered ` +
        `when autocannon POSTs a stored event straight at it (${limit.connections} kept-alive connections, ${limit.seconds} s, ` +
        `p99 ${limit.p99Ms} ms; the receiver spent ${cell(limit.receiverMicrosPerDelivery)} µs of CPU per delivery).`
      : '',
    'CPU µs per delivery is read from /proc over the backlog (workers / PostgreSQL / receiver); PostgreSQL counts every ' +
      "postgres process on the machine, other sessions' included.",
    '',
    '| database | workers | deliveries/s | × receiver limit | CPU µs per delivery: workers / PostgreSQL / receiver | stream rate (/s) | commit→first attempt p50 (ms) | p99 (ms) | max (ms) | failed attempts | repeated arrivals |',
    '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    ...ceilings(report),
    `Raw figures: \`bench/results/webhook-delivery-${report.date}.json\`.`,
    END,
  ].join('\n');
}

/**
 * What the machine's cores allow at the CPU each delivery cost in the run (workers + PostgreSQL +
 * receiver, all on the same cores), and the share of that the run reached: a delivery rate bound
 * by CPU rises only as that sum falls. The receiver's bare limit is a different quantity (the
 * receiver alone with autocannon, 32 connections always busy, so each wake-up answers many
 * requests), which is why it is quoted beside this one.
 */
function ceilings(report: Report): string[] {
  const cores = cpus().length;
  const lines = report.runs.flatMap((r) => {
    const cpu = r.cpuMicrosPerDelivery;
    if (!cpu || cpu.workers === null || cpu.receiver === null) return [];
    const total = cpu.workers + (cpu.postgres ?? 0) + cpu.receiver;
    const ceiling = Math.round((cores * 1e6) / total);
    const split = r.workerUserSystem
      ? ` (workers: ${r.workerUserSystem.user} user, ${r.workerUserSystem.system} kernel)`
      : '';
    return [
      `- ${r.database}, ${r.workers}: ${total} µs of CPU per delivery in all${split}; ${cores} cores allow ${ceiling}/s at that cost, the run reached ${Math.round((100 * r.throughput.deliveriesPerSecond) / ceiling)}% of it.`,
    ];
  });
  return lines.length > 0
    ? [
        'CPU-bound ceiling of each run (cores × 1,000,000 / CPU µs per delivery of workers + PostgreSQL + receiver):',
        '',
        ...lines,
        '',
      ]
    : [];
}

async function main(): Promise<void> {
  const parts = new Set(values.only.split(','));
  const loadBefore = loadavg().map((l) => Number(l.toFixed(2)));
  const receiver = await Receiver.start();
  const runs: RunResult[] = [];
  let receiverLimit: ReceiverLimit | null = null;
  try {
    if (parts.has('postgres'))
      for (const count of WORKER_COUNTS) runs.push(await runPostgres(receiver, count));
    if (parts.has('embedded')) runs.push(await runEmbedded(receiver));
    // Measured after the runs, with every worker stopped: the receiver alone with its client.
    if (samplePayload)
      receiverLimit = await measureReceiverLimit(receiver, samplePayload.payload, samplePayload.secret);
  } finally {
    await receiver.child.stop();
  }
  const report: Report & { options: object } = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
    loadBefore,
    loadAfter: loadavg().map((l) => Number(l.toFixed(2))),
    options: {
      events: EVENTS,
      latencyEvents: LATENCY_EVENTS,
      ratePerSecond: RATE_PER_SECOND,
      workers: WORKER_COUNTS,
      serviceRoot: values['service-root'] ?? null,
    },
    receiverLimit,
    runs,
  };
  console.log(JSON.stringify(report, null, 2));
  // An A/B run (another checkout's workers, or a label) writes only to bench/tmp/.
  if (values['service-root'] || values.label) {
    const dir = join(repoRoot, 'bench/tmp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `webhook-delivery-${values.label ?? 'ab'}.json`),
      `${JSON.stringify(report, null, 2)}\n`,
    );
    return;
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    join(RESULTS_DIR, `webhook-delivery-${report.date}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  const block = renderMarkdown(report);
  const current = existsSync(RESULTS_MD) ? readFileSync(RESULTS_MD, 'utf8') : '# Benchmark results\n';
  const from = current.indexOf(BEGIN);
  const to = current.indexOf(END);
  const next =
    from !== -1 && to > from
      ? `${current.slice(0, from)}${block}${current.slice(to + END.length)}`
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS_MD, next);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
