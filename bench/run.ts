// `npm run bench`: the payment flow under load beside its physical limits, on this machine.
//
//   npm run bench                  full run (about 26 minutes on 2 cores): every scenario, the limits, the
//                                  driver A/B, the interleaved A/B against the code before issue 33 (made
//                                  by the bench from git), webhook delivery and a soak (6 + 5 min); writes
//                                  bench/results/<date>.json and the generated parts of bench/RESULTS.md
//   npm run bench -- --smoke       1 s per scenario, 10,000 history rows, a 20 s soak; writes only to bench/tmp/
//   npm run bench -- --soak 300    the no-growth check alone: 360 s of warm-up, then 300 s measured, memory read every 10 s
//   options: --duration <s>  --rows <n>  --soak-seconds <s> (the soak of a full run, measured, default 300)  --before <commit>
//            --only postgres,embedded,baselines,profiles,processes,driver,ab,webhooks,capture,soak  --keep-db
//            --scenarios create,replay,retrieve,confirm,list,flow  (a subset, for a quick A/B)
//            --service-root <dir>  (measure the service of another checkout, e.g. a `git archive` of a commit)
//            --sim in-process|own-process  (where the PostgreSQL scenarios run the simulated gateway; default own-process)
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBaselines } from './lib/baselines.ts';
import { BEFORE_ISSUE_33, checkoutBefore } from './lib/before.ts';
import { runCaptureCost, writeCaptureReport } from './lib/capture-cost.ts';
import { runDriverAb } from './lib/driver-ab.ts';
import { createFreshDatabase, databaseUrl, dropDatabase } from './lib/postgres.ts';
import { runProcessScaling } from './lib/process-scaling.ts';
import { repoRoot } from './lib/processes.ts';
import { WebhookReceiver } from './lib/receiver.ts';
import { writeReport } from './lib/report.ts';
import type { BenchResults } from './lib/results.ts';
import { countRoundTrips } from './lib/round-trips.ts';
import { runServiceAb } from './lib/service-ab.ts';
import { runSoak } from './lib/soak.ts';
import { capturePaymentTrace } from './lib/statement-trace.ts';
import { runEmbeddedSuite, runPostgresSuite, runProfiles, type SuiteOptions } from './lib/suites.ts';

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    soak: { type: 'string' },
    duration: { type: 'string' },
    rows: { type: 'string' },
    only: { type: 'string' },
    scenarios: { type: 'string' },
    'keep-db': { type: 'boolean', default: false },
    'service-root': { type: 'string' },
    'soak-seconds': { type: 'string' },
    before: { type: 'string' },
    sim: { type: 'string', default: 'own-process' },
  },
});
if (values['service-root']) process.env.PAYGATE_BENCH_SERVICE_ROOT = values['service-root'];

const simulator: SuiteOptions['simulator'] | null =
  values.sim === 'in-process' || values.sim === 'own-process' ? values.sim : null;
if (simulator === null) throw new Error(`--sim must be in-process or own-process, not ${values.sim}`);
const smoke = values.smoke === true;
const soakSeconds = values.soak ? Number(values.soak) : null;
const durationSeconds = Number(values.duration ?? (smoke ? 1 : 8));
const historyRows = Number(values.rows ?? (smoke ? 10_000 : 1_000_000));
const parts = new Set(
  (values.only ?? 'postgres,embedded,baselines,profiles,processes,driver,ab,webhooks,capture,soak').split(
    ',',
  ),
);

const date = new Date().toISOString().slice(0, 10);
const results: BenchResults = {
  date,
  mode: soakSeconds ? 'soak' : smoke ? 'smoke' : 'full',
  durationSeconds,
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    postgres: null,
    loadAverageBefore: loadavg().map((l) => Math.round(l * 100) / 100),
    loadAverageAfter: [],
    diskFlushesPerSecond: null,
  },
  historyRows,
  idleRssMB: {},
  idleMemoryMB: {},
  runs: [],
  pgbench: [],
  profiles: [],
  roundTrips: [],
  soak: null,
  notes: [],
};

const log = (line: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const tmpDir = join(repoRoot, 'bench/tmp');
const options = {
  durationSeconds,
  historyRows,
  smoke,
  keepDatabase: values['keep-db'] === true,
  simulator,
  scenarios: values.scenarios ? new Set(values.scenarios.split(',')) : null,
  tmpDir,
  log,
};
const started = performance.now();

if (soakSeconds) {
  results.soak = await runSoak(soakSeconds, options, results);
} else {
  const needsPostgres = ['postgres', 'baselines', 'profiles'].some((p) => parts.has(p));
  const pg = needsPostgres ? await runPostgresSuite(options, results, parts.has('postgres')) : null;
  // A part that fails is written down and the run goes on: the other parts' figures still count.
  const part = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.notes.push(`${name} failed: ${message.slice(0, 300)}`);
      log(`${name} failed: ${message}`);
    }
  };
  try {
    if (pg && parts.has('baselines')) await part('baselines', () => runBaselines(pg, options, results));
    if (parts.has('embedded')) {
      const receiver = pg?.receiver ?? (await WebhookReceiver.start());
      await part('embedded', () => runEmbeddedSuite(options, results, receiver));
      if (!pg) await receiver.stop();
    }
    if (pg && parts.has('profiles')) {
      await part('round trips', () => countRoundTrips(pg, options, results));
      if (!smoke) await part('profiles', () => runProfiles(pg, options, results, pg.webhookSecret));
    }
  } finally {
    await pg?.close();
  }
  // 1 vs 2 API processes (`paygate start --processes N`, Redis-shared limits), each on its own database.
  if (parts.has('processes') && !values.scenarios) {
    await part('processes', () => runProcessScaling(options, results));
  }
  // The driver A/B (issue 33, item 2): the statements of whole payments, captured from this
  // checkout's service, replayed through node-postgres and postgres.js in alternating slices.
  if (parts.has('driver') && !values.scenarios) {
    await part('driver A/B', async () => {
      const database = await createFreshDatabase('paygate_driver_ab');
      try {
        const url = databaseUrl(database);
        const { trace } = await capturePaymentTrace({
          databaseUrl: url,
          tmpDir,
          seconds: smoke ? 2 : 3,
          log,
        });
        results.driverAb = await runDriverAb({
          database,
          databaseUrl: url,
          trace,
          slices: smoke ? 1 : 6,
          secondsPerSlice: smoke ? 1 : 3,
          log,
        });
        log(`driver A/B: ${results.driverAb.verdict}`);
      } finally {
        await dropDatabase(database);
      }
    });
  }
  // This checkout against the code before issue 33, interleaved: the full flow's CPU per payment.
  if (parts.has('ab') && !values.scenarios) {
    await part('service A/B', async () => {
      const before = values.before ?? BEFORE_ISSUE_33;
      const ab = await runServiceAb({
        roots: { A: checkoutBefore(before, log), B: values['service-root'] ?? repoRoot },
        scenarios: ['flow'],
        slices: smoke ? 1 : 6,
        secondsPerSlice: smoke ? 1 : 3,
        log,
      });
      results.serviceAb = { ...ab, before };
    });
  }
  // Webhook delivery alone needs its own worker processes and database: it is its own script
  // (`npm run bench:webhooks`), run here too so one command measures everything. It writes its own
  // result file and block, and the targets table below reads them. Not in smoke runs or quick
  // A/B runs of some scenarios: it always records.
  if (parts.has('webhooks') && !smoke && !values.scenarios) {
    await part('webhook delivery', runWebhookDelivery);
  }
  // Capture later (issue 43): a manual payment's CPU against an automatic one's, same run, and the
  // plans over authorisations at the run's history size; its block of RESULTS.md is its own.
  if (parts.has('capture') && !values.scenarios) {
    await part('capture', async () => {
      results.capture = await runCaptureCost({
        slices: smoke ? 1 : 8,
        secondsPerSlice: smoke ? 1 : 6,
        historyRows,
        log,
      });
      if (!smoke) writeCaptureReport(results.capture, repoRoot);
    });
  }
  // The no-growth check, last: 5 minutes of whole payments (20 s in a smoke run, to see that it works).
  if (parts.has('soak') && !values.scenarios) {
    const seconds = Number(values['soak-seconds'] ?? (smoke ? 20 : 300));
    await part('soak', async () => {
      // The soak's service runs the simulator in its process: its idle memory is not the suite's.
      const idle = { rss: { ...results.idleRssMB }, memory: { ...results.idleMemoryMB } };
      results.soak = await runSoak(seconds, options, results);
      results.idleRssMB = idle.rss;
      results.idleMemoryMB = idle.memory;
    });
  }
}

function runWebhookDelivery(): Promise<void> {
  log('webhook delivery: npm run bench:webhooks');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=development', '--import', 'tsx', 'bench/webhook-delivery.ts'],
      { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`bench/webhook-delivery.ts exited with ${code}`)),
    );
  });
}

results.machine.loadAverageAfter = loadavg().map((l) => Math.round(l * 100) / 100);
// Partial runs (--only, --scenarios) and smoke runs are for development: they never replace the recorded results.
const written = writeReport(results, {
  smoke: smoke || values.only !== undefined || values.scenarios !== undefined,
});
log(`done in ${Math.round((performance.now() - started) / 1000)} s; wrote ${written.join(', ')}`);
process.exit(0);
