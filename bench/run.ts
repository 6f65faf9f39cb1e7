// `npm run bench`: the payment flow under load beside its physical limits, on this machine.
//
//   npm run bench                  full run (about 7 minutes on 2 cores), writes bench/results/<date>.json
//                                  and the generated part of bench/RESULTS.md
//   npm run bench -- --smoke       1 s per scenario, 10,000 history rows; writes only to bench/tmp/
//   npm run bench -- --soak 300    the no-growth check: 300 s of load, RSS sampled every 10 s
//   options: --duration <s>  --rows <n>  --only postgres,embedded,baselines,profiles,processes,webhooks  --keep-db
//            --scenarios create,replay,retrieve,confirm,list,flow  (a subset, for a quick A/B)
//            --service-root <dir>  (measure the service of another checkout, e.g. a `git archive` of a commit)
//            --sim in-process|own-process  (where the PostgreSQL scenarios run the simulated gateway; default own-process)
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBaselines } from './lib/baselines.ts';
import { runProcessScaling } from './lib/process-scaling.ts';
import { repoRoot } from './lib/processes.ts';
import { WebhookReceiver } from './lib/receiver.ts';
import { writeReport } from './lib/report.ts';
import type { BenchResults } from './lib/results.ts';
import { countRoundTrips } from './lib/round-trips.ts';
import { runEmbeddedSuite, runPostgresSuite, runProfiles, runSoak, type SuiteOptions } from './lib/suites.ts';

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
const parts = new Set((values.only ?? 'postgres,embedded,baselines,profiles,processes,webhooks').split(','));

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
  // Webhook delivery alone needs its own worker processes and database: it is its own script
  // (`npm run bench:webhooks`), run here too so one command measures everything. It writes its own
  // result file and block, and the targets table below reads them. Not in smoke runs or quick
  // A/B runs of some scenarios: it always records.
  if (parts.has('webhooks') && !smoke && !values.scenarios) {
    await part('webhook delivery', runWebhookDelivery);
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
