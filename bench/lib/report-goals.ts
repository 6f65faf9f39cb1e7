// The Goals table of issue 33, every row from the same run, and the two A/Bs behind it (the driver,
// and this checkout against the code before the issue). Kept apart from report.ts, which renders
// everything else and hands in what lives in other result files (webhook delivery, the soak).
import { round } from './load.ts';
import { createShareOfLimit } from './report-limits.ts';
import { type BenchResults, findRun, type SoakResult, soakGrowthMBPerMinute } from './results.ts';

const num = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value)
    ? '–'
    : round(value, digits).toLocaleString('en-US');

export interface DeliveryFigures {
  /** The result file they come from (webhook-delivery-<date>.json): a smoke run has none of its own. */
  file: string;
  deliveriesPerSecond: number;
  workerMicrosPerDelivery: number | null;
  receiverLimitPerSecond: number | null;
  commitToFirstAttemptP99Ms: number | null;
  eventsPerSecond: number | null;
}

interface Goal {
  figure: string;
  /** The issue's figure from the quiet run of 2026-11-23, or the code before measured in this run. */
  before: string;
  goal: string;
  measured: string;
  met: boolean | null;
  /** For a missed goal: by how much, and the limit that stands in the way where this run shows it. */
  gap: string;
}

function goal(
  figure: string,
  before: string,
  kind: '≤' | '<' | '≥',
  target: number,
  unit: string,
  measured: number | undefined | null,
  digits = 2,
): Goal {
  const goalText = `${kind} ${num(target, digits)}${unit}`;
  if (measured === undefined || measured === null || Number.isNaN(measured))
    return { figure, before, goal: goalText, measured: 'not measured', met: null, gap: '' };
  const met = kind === '≥' ? measured >= target : kind === '≤' ? measured <= target : measured < target;
  return {
    figure,
    before,
    goal: goalText,
    measured: `${num(measured, digits)}${unit}`,
    met,
    gap: met ? '' : `${num(target === 0 ? 0 : (100 * measured) / target, 0)}% of the goal`,
  };
}

/** Service + PostgreSQL CPU per completed payment of a flow run (its cores over its payments/s). */
export function flowCpuPerPayment(r: BenchResults, connections: number): number | undefined {
  const flow = findRun(r, 'postgres', 'flow', connections);
  if (!flow?.cores || !flow.paymentsPerSecond) return undefined;
  return (((flow.cores.service ?? 0) + (flow.cores.postgres ?? 0)) * 1e6) / flow.paymentsPerSecond;
}

const tps = (r: BenchResults, script: string, clients: number) =>
  r.pgbench.find((p) => p.script === script && p.protocol === 'prepared' && p.clients === clients)?.tps;
const best = (values: (number | undefined)[]) => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length ? Math.max(...known) : undefined;
};
const bestFlow = (r: BenchResults, system: 'postgres' | 'embedded') =>
  best(r.runs.filter((x) => x.system === system && x.scenario === 'flow').map((x) => x.paymentsPerSecond));

export function goals(r: BenchResults, delivery: DeliveryFigures | null, soak: SoakResult | null): Goal[] {
  const ab = r.serviceAb?.totals.filter((t) => t.scenario === 'flow');
  const abBefore = ab?.find((t) => t.side === 'A')?.cpuMicrosPerPayment;
  const abAfter = ab?.find((t) => t.side === 'B')?.cpuMicrosPerPayment;
  const sqlLimit = best([tps(r, 'payment-sql.pgbench', 10), tps(r, 'payment-sql.pgbench', 50)]);
  const oldLimit = best([tps(r, 'payment-sql-before.pgbench', 10), tps(r, 'payment-sql-before.pgbench', 50)]);
  const old50 = tps(r, 'payment-sql-before.pgbench', 50);
  const old10 = tps(r, 'payment-sql-before.pgbench', 10);
  const new50 = tps(r, 'payment-sql.pgbench', 50);
  const new10 = tps(r, 'payment-sql.pgbench', 10);
  const flowPg = bestFlow(r, 'postgres');
  const flowEmbedded = bestFlow(r, 'embedded');
  const confirmTrips = r.roundTrips.find((t) => t.scenario === 'confirm')?.roundTripsPerUnit;
  const list = findRun(r, 'postgres', 'list', 10);
  const sameRun = (value: string) => `${value} (${r.serviceAb?.before ?? 'before'}, same run)`;
  const rows: Goal[] = [
    goal(
      'CPU per whole payment, service + PostgreSQL (flow, 10 connections)',
      '~10,000 µs',
      '≤',
      3300,
      ' µs',
      flowCpuPerPayment(r, 10),
      0,
    ),
    goal(
      `… the same in the interleaved A/B, this code ÷ the code before (${r.serviceAb?.before ?? 'not run'})`,
      abBefore === undefined ? '1×' : sameRun(`${num(abBefore)} µs`),
      '≤',
      0.33,
      '×',
      abBefore && abAfter !== undefined ? abAfter / abBefore : undefined,
    ),
    goal(
      'payment-SQL limit at 50 clients vs at 10 clients (payment-sql.pgbench)',
      old50 && old10 ? sameRun(`${num(old50 / old10, 2)}× old script`) : '0.04×',
      '≥',
      0.8,
      '×',
      new50 && new10 ? new50 / new10 : undefined,
    ),
    goal('round trips per confirm', '6.4', '≤', 2, '', confirmTrips, 1),
    goal(
      'payment-SQL limit, new script vs the old script (payment-sql-before.pgbench, best of 10/50)',
      oldLimit ? sameRun(`${num(oldLimit)} tps old`) : '1×',
      '≥',
      2.5,
      '×',
      sqlLimit && oldLimit ? sqlLimit / oldLimit : undefined,
    ),
    goal(
      'full flow vs the payment-SQL limit (new script, best of 10/50 each)',
      '39%',
      '≥',
      70,
      '%',
      flowPg !== undefined && sqlLimit ? (100 * flowPg) / sqlLimit : undefined,
      0,
    ),
    goal(
      `deliveries vs the receiver's bare limit (${delivery?.file ?? 'bench:webhooks'})`,
      '24%',
      '≥',
      50,
      '%',
      delivery?.receiverLimitPerSecond
        ? (100 * delivery.deliveriesPerSecond) / delivery.receiverLimitPerSecond
        : undefined,
      0,
    ),
    goal(
      'worker CPU per delivery (claim, sign, send, acknowledge)',
      '466 µs',
      '≤',
      200,
      ' µs',
      delivery?.workerMicrosPerDelivery,
      0,
    ),
    goal(
      'create vs its composed HTTP + database limit, 10 connections',
      '60%',
      '≥',
      80,
      '%',
      createShareOfLimit(r),
      0,
    ),
    goal(
      'embedded flow vs PostgreSQL flow (best of 10/50 each)',
      '27%',
      '≥',
      50,
      '%',
      flowEmbedded !== undefined && flowPg ? (100 * flowEmbedded) / flowPg : undefined,
      0,
    ),
    goal(
      `list p99, page of 100 at ${num(r.historyRows)} rows, 10 connections`,
      '31 ms',
      '<',
      10,
      ' ms',
      list?.load.p99Ms,
    ),
    goal(
      `soak RSS growth${soak ? ` (${soak.seconds} s of whole payments${soak.warmUpSeconds ? ` after ${soak.warmUpSeconds} s of warm-up` : ''})` : ''}`,
      '0.83 MB/min',
      '<',
      1,
      ' MB/min',
      soak ? soakGrowthMBPerMinute(soak) : undefined,
    ),
    goal(
      `outbox wake-up: commit to first attempt p99 at ${delivery?.eventsPerSecond ?? 100} events/s (item 5)`,
      '11 ms',
      '<',
      10,
      ' ms',
      delivery?.commitToFirstAttemptP99Ms,
    ),
  ];
  return rows;
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

export function goalsSection(
  r: BenchResults,
  delivery: DeliveryFigures | null,
  soak: SoakResult | null,
): string {
  const rows = goals(r, delivery, soak);
  const met = rows.filter((g) => g.met === true).length;
  const missed = rows.filter((g) => g.met === false).length;
  const unmeasured = rows.filter((g) => g.met === null).length;
  return [
    `${met} met, ${missed} missed, ${unmeasured} not measured. "Before" is the issue's quiet run of 2026-11-23 unless it names the code before measured in this run.`,
    '',
    table(
      ['figure', 'before', 'goal', 'measured', '', 'gap'],
      rows.map((g) => [
        g.figure,
        g.before,
        g.goal,
        g.measured,
        g.met === null ? '–' : g.met ? 'met' : '**missed**',
        g.gap,
      ]),
    ),
  ].join('\n');
}

/** The driver A/B and the service A/B of this run, as tables. */
export function abSections(r: BenchResults): string {
  const parts: string[] = [];
  const d = r.driverAb;
  if (d) {
    parts.push(
      `**Driver** (issue 33, item 2): node-postgres ${d.versions['node-postgres']} (storage/postgres.ts, pipelined) against postgres.js ${d.versions['postgres.js']} (bench/lib/postgres-js-db.ts), replaying the statements the service sent for ${num(d.capture.payments)} whole payments (${d.capture.statementsPerPayment} statements per payment, ${num(d.capture.roundTrips)} round trips for ${num(d.capture.statements)} statements), ${d.connections} connections, ${d.slices.length / 2} slices of ${d.secondsPerSlice} s per driver, alternating. **${d.verdict}.**`,
      '',
      table(
        [
          'driver',
          'payments/s',
          'client µs/statement',
          'client µs/payment',
          'PostgreSQL µs/payment',
          'p99 ms (median slice)',
          'errors',
        ],
        d.summary.map((s) => [
          s.driver,
          num(s.paymentsPerSecond),
          num(s.clientMicrosPerStatement, 1),
          num(s.clientMicrosPerPayment),
          num(s.postgresMicrosPerPayment),
          num(s.p99Ms, 2),
          num(s.errors),
        ]),
      ),
    );
  }
  const ab = r.serviceAb;
  if (ab) {
    parts.push(
      '',
      `**This code against the code before issue 33** (A = ${ab.before}, checked out by the bench under bench/tmp; B = this checkout), each on its own database, 10 connections, ${ab.slices} slices of ${ab.secondsPerSlice} s per side, alternating; CPU read from /proc (PostgreSQL: the backends of the side's database) from the start of a slice until its last webhook arrived:`,
      '',
      table(
        [
          'scenario',
          'side',
          'req/s (mean)',
          'service µs/request',
          'PostgreSQL µs/request',
          'payments',
          'service µs/payment',
          'PostgreSQL µs/payment',
          'service + PostgreSQL µs/payment',
        ],
        ab.totals.map((t) => [
          t.scenario,
          t.side === 'A' ? `A (${ab.before})` : 'B (this)',
          num(t.rps),
          num(t.serviceMicrosPerRequest),
          num(t.postgresMicrosPerRequest),
          num(t.payments),
          num(t.serviceMicrosPerPayment),
          num(t.postgresMicrosPerPayment),
          num(t.cpuMicrosPerPayment),
        ]),
      ),
    );
  }
  return parts.length ? parts.join('\n') : '_not run_';
}
