import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { round } from './load.ts';
import { repoRoot } from './processes.ts';
import { abSections, type DeliveryFigures, goalsSection } from './report-goals.ts';
import { createShareOfLimit, limitCell, processScalingSection } from './report-limits.ts';
import {
  type BenchResults,
  findRun,
  type ScenarioRun,
  type SoakResult,
  soakGrowthMBPerMinute,
} from './results.ts';

const RESULTS_MD = join(repoRoot, 'bench/RESULTS.md');
const RESULTS_DIR = join(repoRoot, 'bench/results');
const BEGIN = '<!-- bench:generated begin (npm run bench rewrites this block) -->';
const END = '<!-- bench:generated end -->';
const SOAK_BEGIN = '<!-- bench:soak begin (npm run bench -- --soak 300 rewrites this block) -->';
const SOAK_END = '<!-- bench:soak end -->';

const n = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value)
    ? '–'
    : round(value, digits).toLocaleString('en-US');
const breakdown = (m: Record<string, number> | undefined) =>
  m
    ? ` (process.memoryUsage(): JS heap used ${m.heapUsed} of ${m.heapTotal} MB, external ${m.external} MB of which array buffers ${m.arrayBuffers} MB)`
    : '';
const ratio = (value: number | undefined, base: number | undefined) =>
  value !== undefined && base ? `${round(value / base, 2)}×` : '–';

interface TargetRow {
  target: string;
  goal: string;
  measured: string;
  met: boolean | null;
  gap: string;
}

function atLeast(target: string, goal: number, unit: string, measured: number | undefined): TargetRow {
  if (measured === undefined)
    return { target, goal: `≥ ${n(goal)} ${unit}`, measured: 'not measured', met: null, gap: '' };
  const met = measured >= goal;
  return {
    target,
    goal: `≥ ${n(goal)} ${unit}`,
    measured: `${n(measured, 2)} ${unit}`,
    met,
    gap: met ? '' : `short by ${n(goal - measured, 2)} (${n((100 * measured) / goal, 1)}% of the goal)`,
  };
}

function below(target: string, goal: number, unit: string, measured: number | undefined): TargetRow {
  if (measured === undefined)
    return { target, goal: `< ${n(goal)} ${unit}`, measured: 'not measured', met: null, gap: '' };
  const met = measured < goal;
  return {
    target,
    goal: `< ${n(goal)} ${unit}`,
    measured: `${n(measured, 2)} ${unit}`,
    met,
    gap: met ? '' : `over by ${n(measured - goal, 2)} (${n(measured / goal, 1)}× the goal)`,
  };
}

function latestFullRun(): BenchResults | null {
  if (!existsSync(RESULTS_DIR)) return null;
  const files = readdirSync(RESULTS_DIR)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f))
    .sort();
  const last = files[files.length - 1];
  return last ? (JSON.parse(readFileSync(join(RESULTS_DIR, last), 'utf8')) as BenchResults) : null;
}

function latestSoak(): SoakResult | null {
  if (!existsSync(RESULTS_DIR)) return null;
  const files = readdirSync(RESULTS_DIR)
    .filter((f) => f.endsWith('-soak.json'))
    .sort();
  const last = files[files.length - 1];
  return last ? (JSON.parse(readFileSync(join(RESULTS_DIR, last), 'utf8')) as BenchResults).soak : null;
}

export interface DeliveryRun {
  database: string;
  workers: string;
  /** `paygate worker` processes of the run (absent: a worker inside the producing process). */
  workerProcesses?: number;
  throughput: { deliveriesPerSecond: number };
  latency: { p50Ms: number; p99Ms: number; ratePerSecond: number };
  cpuMicrosPerDelivery?: { workers: number; receiver: number; postgres: number } | null;
}

/**
 * How many `paygate worker` processes the deployment the docs recommend runs: deploy/compose.yaml's
 * one worker beside the API processes (docs/operations.md, "Compose").
 */
const RECOMMENDED_WORKER_PROCESSES = 1;

/**
 * The figures of the newest bench:webhooks run the goals of issue 33 are held to: the PostgreSQL
 * run of the configuration the docs recommend (issue 41: not the best of several configurations).
 */
export function recommendedDeliveryRun<R extends DeliveryRun>(runs: readonly R[]): R | undefined {
  return runs.find((d) => d.database === 'postgres' && d.workerProcesses === RECOMMENDED_WORKER_PROCESSES);
}

function deliveryFigures(): DeliveryFigures | null {
  const deliveries = latestDelivery();
  const best = deliveries ? recommendedDeliveryRun(deliveries.runs) : undefined;
  if (!best) return null;
  return {
    file: deliveries?.file ?? 'bench:webhooks',
    deliveriesPerSecond: best.throughput.deliveriesPerSecond,
    workerMicrosPerDelivery: best.cpuMicrosPerDelivery?.workers ?? null,
    receiverLimitPerSecond: deliveries?.receiverLimit?.perSecond ?? null,
    commitToFirstAttemptP99Ms: best.latency.p99Ms,
    eventsPerSecond: best.latency.ratePerSecond,
  };
}

/** The newest `npm run bench:webhooks` result (its own command: it needs its own processes). */
function latestDelivery(): {
  file: string;
  runs: DeliveryRun[];
  receiverLimit: { perSecond: number } | null;
} | null {
  if (!existsSync(RESULTS_DIR)) return null;
  const files = readdirSync(RESULTS_DIR)
    .filter((f) => f.startsWith('webhook-delivery-') && f.endsWith('.json'))
    .sort();
  const last = files[files.length - 1];
  if (!last) return null;
  const parsed = JSON.parse(readFileSync(join(RESULTS_DIR, last), 'utf8')) as {
    runs: DeliveryRun[];
    receiverLimit?: { perSecond: number } | null;
  };
  return { file: last, runs: parsed.runs, receiverLimit: parsed.receiverLimit ?? null };
}

/**
 * CPU of the service (which also runs the delivery worker and the simulated gateway in the bench)
 * and of PostgreSQL per completed payment: a flow request is half a payment (create, then confirm).
 */
function cpuPerPayment(flow: ReturnType<typeof findRun>): number | undefined {
  if (!flow?.cores || !flow.paymentsPerSecond) return undefined;
  return (((flow.cores.service ?? 0) + (flow.cores.postgres ?? 0)) * 1e6) / flow.paymentsPerSecond;
}

function targets(r: BenchResults): TargetRow[] {
  const create = findRun(r, 'postgres', 'create', 10);
  const minimal = findRun(r, 'baseline', 'minimal-create', 10);
  const flows = r.runs.filter((x) => x.system === 'postgres' && x.scenario === 'flow');
  const bestFlow = flows.length ? Math.max(...flows.map((f) => f.paymentsPerSecond ?? 0)) : undefined;
  const list = findRun(r, 'postgres', 'list', 10);
  // The database's limit for the flow: one whole payment's SQL, with nothing else on the cores.
  const paymentSql = r.pgbench.filter((p) => p.script === 'payment-sql.pgbench');
  const paymentSqlLimit = paymentSql.length ? Math.max(...paymentSql.map((p) => p.tps)) : undefined;
  const soak = r.soak ?? latestSoak();
  const rows = [
    atLeast('create, 10 connections (PostgreSQL)', 6000, 'req/s', create?.load.rps),
    below('create p99, 10 connections', 5, 'ms', create?.load.p99Ms),
    atLeast('create vs its composed HTTP + database limit, 10 connections', 80, '%', createShareOfLimit(r)),
    atLeast(
      'create vs the minimal service, 10 connections',
      80,
      '%',
      create && minimal ? (100 * create.load.rps) / minimal.load.rps : undefined,
    ),
    atLeast('full flow, completed payments (best of 10/50 connections)', 1500, 'payments/s', bestFlow),
    atLeast(
      'full flow vs the payment-SQL limit (pgbench payment-sql.pgbench, best of 10/50)',
      60,
      '%',
      bestFlow !== undefined && paymentSqlLimit ? (100 * bestFlow) / paymentSqlLimit : undefined,
    ),
    below(
      'CPU per full payment, service + PostgreSQL (flow, 10 connections)',
      1200,
      'µs',
      cpuPerPayment(findRun(r, 'postgres', 'flow', 10)),
    ),
    below(`list p99, page of 100 at ${n(r.historyRows)} rows, 10 connections`, 10, 'ms', list?.load.p99Ms),
    below('idle memory (PostgreSQL)', 150, 'MB', r.idleRssMB.postgres),
    below('idle memory (embedded)', 150, 'MB', r.idleRssMB.embedded),
    below(
      `RSS growth in the soak${soak ? ` (${soak.seconds} s)` : ''}`,
      1,
      'MB/min',
      soak ? soakGrowthMBPerMinute(soak) : undefined,
    ),
  ];
  const deliveries = latestDelivery();
  // The best PostgreSQL run (1 or 3 worker processes) is the figure held to the goals.
  const delivery = deliveries?.runs
    .filter((d) => d.database === 'postgres')
    .sort((a, b) => b.throughput.deliveriesPerSecond - a.throughput.deliveriesPerSecond)[0];
  const receiverLimit = deliveries?.receiverLimit?.perSecond;
  rows.push(
    atLeast(
      `webhook delivery alone, backlog (PostgreSQL, ${delivery?.workers ?? 'npm run bench:webhooks'})`,
      10000,
      'deliveries/s',
      delivery?.throughput.deliveriesPerSecond,
    ),
    atLeast(
      "webhook delivery vs the receiver's bare limit (same run of bench:webhooks)",
      50,
      '%',
      delivery && receiverLimit ? (100 * delivery.throughput.deliveriesPerSecond) / receiverLimit : undefined,
    ),
    below(
      `webhook commit-to-first-attempt p99 (PostgreSQL, ${delivery?.latency.ratePerSecond ?? '–'} events/s)`,
      10,
      'ms',
      delivery?.latency.p99Ms,
    ),
  );
  return rows;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function scenarioTable(r: BenchResults, system: 'postgres' | 'embedded'): string {
  const runs = r.runs.filter((x) => x.system === system);
  if (!runs.length) return '_not run_';
  return table(
    [
      'scenario',
      'conn.',
      'req/s',
      'p50 ms',
      'p99 ms',
      'p99.9 ms',
      'errors',
      'peak RSS MB',
      'cores: service / PG / load gen. / other / idle',
      '× HTTP limit',
      '× its limit',
      '× minimal',
      '× pgbench',
      'payments/s',
    ],
    runs.map((run) => {
      const c = run.load.connections;
      const http = findRun(r, 'baseline', 'http-limit', c)?.load.rps;
      const isCreate = run.scenario === 'create';
      const minimal = isCreate ? findRun(r, 'baseline', 'minimal-create', c)?.load.rps : undefined;
      const pgb = isCreate
        ? r.pgbench.find(
            (p) => p.script === 'create-same-sql.pgbench' && p.protocol === 'extended' && p.clients === c,
          )?.tps
        : undefined;
      return [
        run.scenario,
        String(c),
        ...loadCells(run),
        coresCell(run),
        ratio(run.load.rps, http),
        limitCell(r, run),
        ratio(run.load.rps, minimal),
        ratio(run.load.rps, pgb),
        run.paymentsPerSecond !== undefined
          ? `${n(run.paymentsPerSecond)} (drain ${n(run.webhookDrainMs)} ms, missing ${n(run.webhooksMissing)})`
          : '',
      ];
    }),
  );
}

/** req/s, p50, p99, p99.9, errors and peak RSS of one run: the columns every table shares. */
function loadCells(run: ScenarioRun): string[] {
  const l = run.load;
  return [n(l.rps), n(l.p50Ms, 2), n(l.p99Ms, 2), n(l.p999Ms, 2), errorsOf(run), n(run.peakRssMB)];
}

/** Where the 2 cores went during the run (the receiver, in the flow, is counted in "other"). */
function coresCell(run: ScenarioRun): string {
  const c = run.cores;
  if (!c) return '–';
  const other = (c.other ?? 0) + (c.receiver ?? 0);
  return [c.service, c.postgres, c.loadGenerator, other, c.idle].map((v) => n(v ?? 0, 2)).join(' / ');
}

function errorsOf(run: ScenarioRun): string {
  const l = run.load;
  if (l.errors === 0) return '0';
  const codes = Object.entries(l.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${count}×${code}`)
    .join(' ');
  return `${l.errors} (${[codes, l.timeouts ? `${l.timeouts} timeouts` : ''].filter(Boolean).join(', ')})`;
}

function baselineTable(r: BenchResults): string {
  const http = r.runs.filter((x) => x.system === 'baseline');
  const lines = http.map((run) => [
    run.scenario === 'http-limit'
      ? 'HTTP limit: bare Fastify, canned JSON'
      : 'minimal service: Fastify + pg, create only',
    String(run.load.connections),
    ...loadCells(run),
    coresCell(run),
  ]);
  for (const p of r.pgbench) {
    lines.push([
      `database limit: pgbench ${p.script} (-M ${p.protocol})`,
      String(p.clients),
      n(p.tps),
      n(p.p50Ms, 2),
      n(p.p99Ms, 2),
      n(p.p999Ms, 2),
      String(p.failed),
      '–',
      '–',
    ]);
  }
  return table(
    [
      'baseline',
      'conn.',
      'req/s (tps)',
      'p50 ms',
      'p99 ms',
      'p99.9 ms',
      'errors',
      'peak RSS MB',
      'cores: server / PG / load gen. / other / idle',
    ],
    lines,
  );
}

/**
 * CPU time per request of each part, from the cores each used during the run: what one request
 * costs the machine, and so the most the 2 cores could serve if nothing else ran and nothing waited.
 */
function cpuBudgetTable(r: BenchResults): string {
  const runs = r.runs.filter((x) => x.cores && x.load.rps > 0 && x.load.connections === 10);
  if (!runs.length) return '_not measured (no /proc)_';
  const us = (cores: number | undefined, rps: number) => n(((cores ?? 0) * 1e6) / rps);
  return table(
    [
      'system',
      'scenario (10 conn.)',
      'req/s',
      'service µs/req',
      'PostgreSQL µs/req',
      'load gen. µs/req',
      'other µs/req',
      'idle cores',
      '2-core ceiling req/s',
    ],
    runs.map((run) => {
      const c = run.cores ?? {};
      const rps = run.load.rps;
      const busy =
        (c.service ?? 0) + (c.postgres ?? 0) + (c.loadGenerator ?? 0) + (c.other ?? 0) + (c.receiver ?? 0);
      return [
        run.system,
        run.scenario,
        n(rps),
        us(c.service, rps),
        us(c.postgres, rps),
        us(c.loadGenerator, rps),
        us((c.other ?? 0) + (c.receiver ?? 0), rps),
        n(c.idle ?? 0, 2),
        busy > 0 ? n((rps * r.machine.cpus) / busy) : '–',
      ];
    }),
  );
}

function profileSection(r: BenchResults): string {
  if (!r.profiles.length) return '_no profiles in this run_';
  return r.profiles
    .map((p) =>
      [
        `**${p.file}** (${n(p.totalMs)} ms profiled, ${n(p.idlePercent, 1)}% idle): top self time`,
        '',
        table(
          ['self %', 'function', 'where'],
          p.topFunctions.slice(0, 12).map((f) => [n(f.percent, 1), `\`${f.name}\``, `\`${f.where}\``]),
        ),
        '',
        'by module:',
        '',
        table(
          ['self %', 'module'],
          p.byModule.slice(0, 12).map((m) => [n(m.percent, 1), `\`${m.name}\``]),
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

function roundTripSection(r: BenchResults): string {
  if (!r.roundTrips.length) return '_not counted in this run_';
  return r.roundTrips
    .map((t) =>
      [
        `**${t.scenario}**: ${t.perUnit} statements${t.roundTripsPerUnit === undefined ? '' : ` in ${t.roundTripsPerUnit} round trips`} per ${t.scenario === 'flow' ? 'completed payment' : 'request'} (${n(t.units)} counted)`,
        '',
        table(
          ['per unit', 'statement'],
          t.statements.map((s) => [n(s.perUnit, 2), `\`${s.sql.replaceAll('|', '\\|')}\``]),
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

function soakSection(soak: SoakResult | null): string {
  if (!soak) return '_No soak yet: `npm run bench -- --soak 300`._';
  const samples = soak.samples.map((s) => `${s.atSeconds}s ${s.rssMB}`).join(', ');
  return [
    soak.webhooksVerified === undefined
      ? `${soak.seconds} s of create + retrieve at 10 connections against PostgreSQL-backed Paygate: ${n(soak.requests)} requests (${n(soak.rps)} req/s), ${n(soak.errors)} errors.`
      : `${soak.seconds} s of create, retrieve and whole payments (create + confirm + signed webhook) at 10 connections against PostgreSQL-backed Paygate: ${n(soak.requests)} requests (${n(soak.rps)} req/s), ${n(soak.errors)} errors; the receiver verified ${n(soak.webhooksVerified)} webhooks and rejected ${n(soak.webhooksRejected ?? 0)}.`,
    soak.envelopeGrowthMBPerMinute === undefined
      ? `RSS slope after warm-up: **${soak.slopeMBPerMinute} MB/min**. Samples (MB): ${samples}.`
      : [
          `After ${soak.warmUpSeconds} s of the same load not counted (V8 sizing its heap to the rate), over the ${soak.seconds} s measured: `,
          soak.troughGrowthMBPerMinute === undefined
            ? `RSS growth (its peaks, second half against first) **${soak.envelopeGrowthMBPerMinute} MB/min**; `
            : `RSS growth (its troughs, after full collections, second half against first) **${soak.troughGrowthMBPerMinute} MB/min**; its peaks ${soak.envelopeGrowthMBPerMinute} MB/min (one swing decides them); `,
          `least-squares slope ${soak.slopeMBPerMinute} MB/min (read with the saw of the full collections); `,
          `RSS ${soak.rssRangeMB?.[0]}-${soak.rssRangeMB?.[1]} MB; `,
          `the heap left by each full collection ${soak.liveHeapSlopeMBPerMinute} MB/min (what a leak grows). `,
          `Samples (s: RSS MB / live heap MB): ${soak.samples.map((s) => `${s.atSeconds} ${s.rssMB}/${s.liveHeapMB ?? '-'}`).join(', ')}.`,
        ].join(''),
    soak.simMaxCharges === undefined
      ? ''
      : `The simulated gateway in the service process kept at most ${n(soak.simMaxCharges)} charges (PAYGATE_SIM_MAX_CHARGES; settled ones beyond it are forgotten).`,
  ].join('\n\n');
}

export function renderGenerated(r: BenchResults): string {
  const m = r.machine;
  const targetRows = targets(r).map((t) => [
    t.target,
    t.goal,
    t.measured,
    t.met === null ? '–' : t.met ? 'met' : '**missed**',
    t.gap,
  ]);
  return [
    BEGIN,
    `## Run of ${r.date} (${r.mode}, ${r.durationSeconds} s per scenario)`,
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}; Node ${m.node}; ${m.postgres ?? 'PostgreSQL not used'} (synchronous_commit on, fsync on); disk flushes (pg_test_fsync, fdatasync, one 8 kB write): ${n(m.diskFlushesPerSecond)}/s. Load average before ${m.loadAverageBefore.join(' ')}, after ${m.loadAverageAfter.join(' ')}.`,
    'The load generator (autocannon, in the bench process), PostgreSQL, the service, the simulated gateway, the webhook receiver and the baselines all share the same 2 cores: every figure is what one small machine does when it is also its own client.',
    '',
    '### Goals of issue 33 (same run)',
    '',
    goalsSection(r, deliveryFigures(), r.soak ?? latestSoak()),
    '',
    '### A/B in this run: the driver, and this code against the code before issue 33',
    '',
    abSections(r),
    '',
    '### Earlier targets (issues 8 and 19)',
    '',
    table(['target', 'goal', 'measured', '', 'gap'], targetRows),
    '',
    '### PostgreSQL-backed service',
    '',
    `History for the list: ${n(r.historyRows)} intents and ${n(r.historyRows)} transactions of the bench merchant. Idle RSS after start: ${n(r.idleRssMB.postgres)} MB${breakdown(r.idleMemoryMB.postgres)}.`,
    '',
    scenarioTable(r, 'postgres'),
    '',
    '### Embedded (PGlite) service',
    '',
    `Idle RSS after start: ${n(r.idleRssMB.embedded)} MB${breakdown(r.idleMemoryMB.embedded)}.`,
    '',
    scenarioTable(r, 'embedded'),
    '',
    '### Baselines (same run)',
    '',
    baselineTable(r),
    '',
    '### CPU per request, and what 2 fully busy cores would allow',
    '',
    'A flow request is half a payment (its create or its confirm), and in the bench the service process also runs the delivery worker and the simulated gateway: CPU per payment is twice the flow row (the targets show it).',
    '',
    cpuBudgetTable(r),
    '',
    '### Database statements and round trips per request (PostgreSQL; pipelined statements share a round trip)',
    '',
    roundTripSection(r),
    '',
    '### 1 vs 2 API processes',
    '',
    processScalingSection(r),
    '',
    '### CPU profiles (create, list and the full flow, at 10 connections; PostgreSQL)',
    '',
    profileSection(r),
    '',
    ...(r.notes.length ? ['### Notes of this run', '', ...r.notes.map((x) => `- ${x}`), ''] : []),
    END,
  ].join('\n');
}

function replaceBlock(text: string, begin: string, end: string, block: string): string {
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a >= 0 && b > a) return text.slice(0, a) + block + text.slice(b + end.length);
  return `${text.trimEnd()}\n\n${block}\n`;
}

/** Writes the JSON and the generated blocks of RESULTS.md (smoke runs write only to bench/tmp). */
export function writeReport(r: BenchResults, options: { smoke: boolean }): string[] {
  const tmp = join(repoRoot, 'bench/tmp');
  const jsonPath = options.smoke
    ? join(tmp, `smoke-${r.date}.json`)
    : join(RESULTS_DIR, r.mode === 'soak' ? `${r.date}-soak.json` : `${r.date}.json`);
  const mdPath = options.smoke ? join(tmp, 'smoke-RESULTS.md') : RESULTS_MD;
  mkdirSync(join(jsonPath, '..'), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(r, null, 2)}\n`);
  const current = existsSync(mdPath) ? readFileSync(mdPath, 'utf8') : '# Benchmark results\n';
  let next = current;
  if (r.mode === 'soak') {
    next = replaceBlock(
      next,
      SOAK_BEGIN,
      SOAK_END,
      [SOAK_BEGIN, '## Soak', '', soakSection(r.soak), SOAK_END].join('\n'),
    );
    // The targets table of the recorded run reads the newest soak: render it again with this one.
    const full = options.smoke ? null : latestFullRun();
    if (full) next = replaceBlock(next, BEGIN, END, renderGenerated(full));
  } else {
    next = replaceBlock(next, BEGIN, END, renderGenerated(r));
    // A full run includes its soak (issue 33): its block too.
    if (r.soak)
      next = replaceBlock(
        next,
        SOAK_BEGIN,
        SOAK_END,
        [SOAK_BEGIN, '## Soak', '', soakSection(r.soak), SOAK_END].join('\n'),
      );
  }
  writeFileSync(mdPath, next);
  return [jsonPath.slice(repoRoot.length), mdPath.slice(repoRoot.length)];
}
