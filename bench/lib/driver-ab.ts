// node-postgres against postgres.js on the statements of whole payments (issue 33, item 2).
//
// The statements come from the service itself (bench/lib/statement-trace.ts): its full flow runs for
// a few seconds with the probe's trace on, and the A/B replays exactly what it sent, payment by
// payment (create, the confirm's phases, the delivery worker's claims and acknowledgements in their
// proportion), with every per-payment id renamed so the rows never collide. Each driver runs behind
// the same calls: node-postgres through Paygate's own storage/postgres.ts (pipelined, as the service
// runs it), postgres.js through bench/lib/postgres-js-db.ts, which makes them the same way. The load
// is 10 concurrent payment streams on a pool of 10 connections, in alternating slices A B B A …, so
// a machine shared with other work loads both sides alike. Per slice: the client's CPU (this
// process, process.cpuUsage) per statement and per payment, PostgreSQL's CPU per payment (all its
// backends of the A/B's database, found by process title in /proc), payments per second and the p99 of a payment's statements from its first to
// its last.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@paygate/server';
import { databaseBackendTicks } from './cpu.ts';
import { percentile, round } from './load.ts';
import { openPostgresJs } from './postgres-js-db.ts';
import { repoRoot } from './processes.ts';
import type { PaymentTrace, Segment } from './statement-trace.ts';
import { renamer } from './statement-trace.ts';

function packageVersion(name: string): string {
  const path = join(repoRoot, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

export const DRIVERS = ['node-postgres', 'postgres.js'] as const;
export type DriverName = (typeof DRIVERS)[number];

type Db = Awaited<ReturnType<typeof openPostgresJs>>;

export interface DriverSlice {
  driver: DriverName;
  slice: number;
  paymentsPerSecond: number;
  clientMicrosPerStatement: number;
  clientMicrosPerPayment: number;
  postgresMicrosPerPayment: number | null;
  p99Ms: number;
  errors: number;
  loadAverage: number;
}

export interface DriverSummary {
  driver: DriverName;
  slices: number;
  paymentsPerSecond: number;
  clientMicrosPerStatement: number;
  clientMicrosPerPayment: number;
  postgresMicrosPerPayment: number | null;
  p99Ms: number;
  errors: number;
}

export interface DriverAbResult {
  /** node-postgres version and postgres.js version, as installed. */
  versions: Record<DriverName, string>;
  connections: number;
  secondsPerSlice: number;
  capture: { payments: number; statements: number; roundTrips: number; statementsPerPayment: number };
  slices: DriverSlice[];
  summary: DriverSummary[];
  /** postgres.js's client CPU per payment relative to node-postgres's (0.7 = 30% less). */
  clientCpuRatio: number | null;
  verdict: string;
}

/** A payment's segments (or a segment of the worker's) with its ids renamed for one replay. */
interface Rendered {
  segments: Segment[];
  statements: number;
  /** A payment's chain (timed, counted) or the delivery worker's share (neither). */
  payment: boolean;
}

function render(segments: Segment[], tag: string, payment: boolean): Rendered {
  const copy = renamer(tag);
  let statements = 0;
  const rendered = segments.map((s) => ({
    ...s,
    groups: s.groups.map((g) =>
      g.map((st) => {
        statements += 1;
        return { sql: st.sql, params: st.params.map(copy) as unknown[] };
      }),
    ),
  }));
  return { segments: rendered, statements, payment };
}

/**
 * The work of one slice, rendered before it starts so that renaming ids costs the measured client
 * nothing: the trace's payments in order, the worker's segments spread among them.
 */
function renderWork(trace: PaymentTrace, count: number, tag: string): Rendered[] {
  const work: Rendered[] = [];
  const ratio = trace.other.length / trace.byIntent.length;
  let others = 0;
  for (let i = 0; i < count; i++) {
    const chain = trace.byIntent[i % trace.byIntent.length] as Segment[];
    work.push(render(chain, `${tag}:${i}`, true));
    for (; others < Math.floor((i + 1) * ratio); others++) {
      const segment = trace.other[others % trace.other.length] as Segment;
      work.push(render([segment], `${tag}:o${others}`, false));
    }
  }
  return work;
}

async function runSegment(db: Db, segment: Segment): Promise<void> {
  if (!segment.transaction) {
    for (const group of segment.groups) await Promise.all(group.map((s) => db.query(s.sql, s.params)));
    return;
  }
  await db.transaction(async (tx) => {
    for (const group of segment.groups) {
      // Written together, as the service wrote them; a failure is thrown once all have answered.
      const settled = await Promise.allSettled(group.map((s) => tx.query(s.sql, s.params)));
      for (const r of settled) if (r.status === 'rejected') throw r.reason;
    }
  });
}

async function slice(
  db: Db,
  work: Rendered[],
  connections: number,
  seconds: number,
): Promise<{
  chains: number;
  statements: number;
  latenciesMs: number[];
  errors: number;
  firstError: string | null;
}> {
  let next = 0;
  let chains = 0;
  let statements = 0;
  let errors = 0;
  let firstError: string | null = null;
  const latenciesMs: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const stream = async () => {
    while (performance.now() < deadline && next < work.length) {
      const item = work[next++] as Rendered;
      const started = performance.now();
      try {
        for (const segment of item.segments) await runSegment(db, segment);
        if (item.payment) {
          latenciesMs.push(performance.now() - started);
          chains += 1;
        }
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
      statements += item.statements;
    }
  };
  await Promise.all(Array.from({ length: connections }, stream));
  return { chains, statements, latenciesMs, errors, firstError };
}

export async function runDriverAb(options: {
  /** The database's name, for its backends' CPU (by process title), and its URL. */
  database: string;
  databaseUrl: string;
  trace: PaymentTrace;
  slices: number;
  secondsPerSlice: number;
  connections?: number;
  log: (line: string) => void;
}): Promise<DriverAbResult> {
  const { trace } = options;
  const connections = options.connections ?? 10;
  if (trace.byIntent.length === 0 || trace.payments === 0)
    throw new Error('the captured trace holds no payment');
  // Intents seen in the trace per confirmed payment (a few were cut at the capture's edges).
  const paymentsPerChain = trace.payments / trace.byIntent.length;
  const dbs: Record<DriverName, Db> = {
    'node-postgres': await openDatabase({ databaseUrl: options.databaseUrl, maxConnections: connections }),
    'postgres.js': await openPostgresJs({
      connectionString: options.databaseUrl,
      maxConnections: connections,
    }),
  };
  const versions: Record<DriverName, string> = {
    'node-postgres': packageVersion('pg'),
    'postgres.js': packageVersion('postgres'),
  };
  const slices: DriverSlice[] = [];
  const rate: Record<DriverName, number> = { 'node-postgres': 500, 'postgres.js': 500 };
  let firstError: string | null = null;
  try {
    // Warm-up: both drivers prepare their statements on every connection and the JIT settles.
    for (const driver of DRIVERS) {
      await slice(dbs[driver], renderWork(trace, 400, `warm-${driver}`), connections, 1);
    }
    for (let s = 0; s < options.slices; s++) {
      for (const driver of s % 2 === 0 ? DRIVERS : ([...DRIVERS].reverse() as DriverName[])) {
        const count = Math.max(200, Math.ceil(rate[driver] * options.secondsPerSlice * 2));
        const work = renderWork(trace, count, `${s}-${driver}`);
        const cpuBefore = process.cpuUsage();
        const pgBefore = process.platform === 'linux' ? databaseBackendTicks(options.database) : null;
        const started = performance.now();
        const r = await slice(dbs[driver], work, connections, options.secondsPerSlice);
        const elapsed = (performance.now() - started) / 1000;
        const cpu = process.cpuUsage(cpuBefore);
        const pgAfter = pgBefore === null ? null : databaseBackendTicks(options.database);
        const clientMicros = cpu.user + cpu.system;
        const payments = r.chains * paymentsPerChain;
        const pgMicros = pgBefore === null || pgAfter === null ? null : (pgAfter - pgBefore) * 10_000;
        const sorted = Float64Array.from(r.latenciesMs).sort();
        firstError ??= r.firstError;
        rate[driver] = payments / elapsed;
        const row: DriverSlice = {
          driver,
          slice: s,
          paymentsPerSecond: round(payments / elapsed, 0),
          clientMicrosPerStatement: round(clientMicros / Math.max(1, r.statements), 1),
          clientMicrosPerPayment: round(clientMicros / Math.max(1, payments), 0),
          postgresMicrosPerPayment: pgMicros === null ? null : round(pgMicros / Math.max(1, payments), 0),
          p99Ms: round(percentile(sorted, 0.99)),
          errors: r.errors,
          loadAverage: round(loadavg()[0] ?? 0, 1),
        };
        slices.push(row);
        options.log(
          `driver A/B slice ${s} ${driver}: ${row.paymentsPerSecond} payments/s, client ${row.clientMicrosPerStatement} µs/statement (${row.clientMicrosPerPayment} µs/payment), PostgreSQL ${row.postgresMicrosPerPayment} µs/payment, p99 ${row.p99Ms} ms, errors ${row.errors}, load ${row.loadAverage}`,
        );
      }
    }
  } finally {
    for (const db of Object.values(dbs)) await db.close();
  }
  const summary = DRIVERS.map((driver): DriverSummary => {
    const rows = slices.filter((x) => x.driver === driver);
    const mean = (f: (x: DriverSlice) => number) =>
      rows.reduce((a, x) => a + f(x), 0) / Math.max(1, rows.length);
    const pg = rows.every((x) => x.postgresMicrosPerPayment !== null)
      ? round(
          mean((x) => x.postgresMicrosPerPayment ?? 0),
          0,
        )
      : null;
    // The median slice's p99 rather than the worst: one slice hit by a neighbour's burst is not the driver.
    const p99s = rows.map((x) => x.p99Ms).sort((a, b) => a - b);
    return {
      driver,
      slices: rows.length,
      paymentsPerSecond: round(
        mean((x) => x.paymentsPerSecond),
        0,
      ),
      clientMicrosPerStatement: round(
        mean((x) => x.clientMicrosPerStatement),
        1,
      ),
      clientMicrosPerPayment: round(
        mean((x) => x.clientMicrosPerPayment),
        0,
      ),
      postgresMicrosPerPayment: pg,
      p99Ms: p99s[Math.floor(p99s.length / 2)] ?? 0,
      errors: rows.reduce((a, x) => a + x.errors, 0),
    };
  });
  const [a, b] = summary as [DriverSummary, DriverSummary];
  const clientCpuRatio = a.clientMicrosPerPayment
    ? round(b.clientMicrosPerPayment / a.clientMicrosPerPayment, 2)
    : null;
  const saving = clientCpuRatio === null ? null : round(100 * (1 - clientCpuRatio), 0);
  const verdict =
    a.errors + b.errors > 0
      ? `errors in the replay (${a.errors} node-postgres, ${b.errors} postgres.js; first: ${firstError?.slice(0, 200)}): no verdict`
      : saving === null
        ? 'not measured'
        : saving > 20 && b.p99Ms <= a.p99Ms * 1.1
          ? `postgres.js wins: ${saving}% less client CPU per payment, p99 ${b.p99Ms} vs ${a.p99Ms} ms`
          : saving < -20
            ? `node-postgres wins: postgres.js needs ${-saving}% more client CPU per payment`
            : `no clear winner (postgres.js ${saving >= 0 ? `${saving}% less` : `${-saving}% more`} client CPU per payment, p99 ${b.p99Ms} vs ${a.p99Ms} ms): node-postgres stays`;
  return {
    versions,
    connections,
    secondsPerSlice: options.secondsPerSlice,
    capture: {
      payments: trace.payments,
      statements: trace.statements,
      roundTrips: trace.roundTrips,
      statementsPerPayment: round(trace.statements / trace.payments, 1),
    },
    slices,
    summary,
    clientCpuRatio,
    verdict,
  };
}
