// Each scenario against its own limit, measured in the same run (issue 19), and the 1 vs 2 API
// processes comparison. Kept apart from report.ts, which renders everything else.
import { round } from './load.ts';
import type { BenchResults, ScenarioRun } from './results.ts';

const num = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value)
    ? '–'
    : round(value, digits).toLocaleString('en-US');

/**
 * The limit a scenario is held to, and its name. Create: the HTTP limit composed with the
 * database's limit for the create's one statement (pgbench create-one-statement, prepared, same
 * clients): each request needs both, on the same cores, so their costs add:
 * 1 / (1/http + 1/database). The flow: the payment-SQL pgbench limit (payments/s). The others:
 * the HTTP limit alone (no database limit is measured for them).
 */
export function limitOf(r: BenchResults, run: ScenarioRun): { perSecond: number; name: string } | null {
  const c = run.load.connections;
  const http = r.runs.find(
    (x) => x.system === 'baseline' && x.scenario === 'http-limit' && x.load.connections === c,
  )?.load.rps;
  const pgbench = (script: string) =>
    r.pgbench.find((p) => p.script === script && p.protocol === 'prepared' && p.clients === c)?.tps;
  if (run.scenario === 'create') {
    const database = pgbench('create-one-statement.pgbench');
    return http && database ? { perSecond: 1 / (1 / http + 1 / database), name: 'HTTP ∘ database' } : null;
  }
  if (run.scenario === 'flow') {
    const database = pgbench('payment-sql.pgbench');
    return database ? { perSecond: database, name: 'payment SQL' } : null;
  }
  return http ? { perSecond: http, name: 'HTTP' } : null;
}

/** "0.42× HTTP ∘ database": the scenario's rate (payments/s for the flow) over its limit. */
export function limitCell(r: BenchResults, run: ScenarioRun): string {
  const limit = limitOf(r, run);
  const rate = run.scenario === 'flow' ? run.paymentsPerSecond : run.load.rps;
  if (!limit || rate === undefined) return '–';
  return `${round(rate / limit.perSecond, 2)}× ${limit.name} (${num(limit.perSecond)}/s)`;
}

/** Create at 10 connections as a share of its composed limit, for the targets table. */
export function createShareOfLimit(r: BenchResults): number | undefined {
  const create = r.runs.find(
    (x) => x.system === 'postgres' && x.scenario === 'create' && x.load.connections === 10,
  );
  const limit = create ? limitOf(r, create) : null;
  return create && limit ? (100 * create.load.rps) / limit.perSecond : undefined;
}

export function processScalingSection(r: BenchResults): string {
  const runs = r.processScaling ?? [];
  if (!runs.length) return '_not run (`--only processes`)_';
  const one = (scenario: string) => runs.find((x) => x.apiProcesses === 1 && x.scenario === scenario);
  const rows = runs.map((x) => {
    const base = one(x.scenario);
    const cpu = x.cpuMicrosPerRequest;
    return `| ${x.apiProcesses} | ${x.scenario} | ${num(x.load.rps)} | ${x.apiProcesses === 1 || !base?.load.rps ? '' : `${round(x.load.rps / base.load.rps, 2)}×`} | ${num(x.load.p50Ms, 2)} | ${num(x.load.p99Ms, 2)} | ${x.load.errors} | ${cpu ? `${num(cpu.paygate)} / ${num(cpu.postgres)} / ${num(cpu.loadGenerator)}` : '–'} | ${num(x.idleCores, 2)} |`;
  });
  return [
    '`paygate start --processes N` (node:cluster; rate limits in Redis; the webhook worker, the scheduler and the simulator in processes of their own), each N on a fresh database, back to back. CPU µs per request: every Paygate process / PostgreSQL (all its processes on the machine) / the load generator.',
    '',
    '| API processes | scenario | req/s | vs 1 process | p50 ms | p99 ms | errors | CPU µs per request: Paygate / PostgreSQL / load gen. | idle cores |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    ...rows,
  ].join('\n');
}
