// 1 vs 2 API processes: `paygate start --processes N` (node:cluster, rate limits in Redis) under the
// same create and retrieve load, back to back on a fresh database each. On 2 cores shared with
// PostgreSQL and the load generator, a second API process can only use what the first leaves idle:
// the CPU per request says whether it costs more, the idle cores whether there was room.
import { readdirSync, readFileSync } from 'node:fs';
import { backendTicksBetween, readCpu } from './cpu.ts';
import { round, runLoad } from './load.ts';
import { createFreshDatabase, databaseUrl, dropDatabase } from './postgres.ts';
import type { BenchResults, ProcessScalingRun } from './results.ts';
import { createRequests, retrieveRequests, warmUp } from './scenarios.ts';
import { callApi, createMerchant, startPaygate } from './service.ts';

const TICKS_PER_SECOND = 100;
const CONNECTIONS = [10, 50];

/** The processes started by `pid`, and theirs (the supervisor's children), from /proc. */
function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone between the listing and the read
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

export async function runProcessScaling(
  options: { durationSeconds: number; log: (line: string) => void },
  results: BenchResults,
): Promise<void> {
  const redisUrl = process.env.PAYGATE_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const runs: ProcessScalingRun[] = [];
  for (const apiProcesses of [1, 2]) {
    const database = await createFreshDatabase('paygate_bench_processes');
    const service = await startPaygate({
      kind: 'postgres',
      databaseUrl: databaseUrl(database),
      args: ['start', '--processes', String(apiProcesses)],
      env: { PAYGATE_REDIS_URL: redisUrl },
    });
    try {
      const merchant = await createMerchant(service, `Processes ${apiProcesses}`);
      const intent = await callApi(
        service,
        merchant,
        'POST',
        '/v1/payment-intents',
        { amount_minor: 2500, currency: 'USD', gateway_id: 'sim' },
        { 'idempotency-key': `processes-${apiProcesses}-first` },
      );
      // Every API process has started, compiled its hot paths and opened its pool.
      await warmUp(service.baseUrl, merchant);
      const pids = Object.fromEntries(
        [service.child.pid, ...descendantsOf(service.child.pid)].map((pid) => [`paygate${pid}`, pid]),
      );
      for (const scenario of ['create', 'retrieve'] as const) {
        for (const connections of CONNECTIONS) {
          const before = readCpu(pids, service.databaseUrl);
          const ownBefore = process.cpuUsage();
          const load = await runLoad({
            url: service.baseUrl,
            connections,
            durationSeconds: options.durationSeconds,
            requests:
              scenario === 'create'
                ? createRequests(merchant)
                : retrieveRequests(merchant, String(intent.id)),
            idReplacement: scenario === 'create',
          });
          const after = readCpu(pids, service.databaseUrl);
          const own = process.cpuUsage(ownBefore);
          const seconds = before && after ? (after.atMs - before.atMs) / 1000 : 0;
          const micros = (ticks: number) =>
            round(((ticks / TICKS_PER_SECOND) * 1e6) / Math.max(1, load.requests), 0);
          const paygateTicks =
            before && after
              ? Object.keys(pids).reduce(
                  (sum, name) => sum + Math.max(0, (after.ticks[name] ?? 0) - (before.ticks[name] ?? 0)),
                  0,
                )
              : 0;
          const busy = before && after ? after.machineBusy - before.machineBusy : 0;
          const total = before && after ? after.machineTotal - before.machineTotal : 0;
          runs.push({
            apiProcesses,
            scenario: `${scenario}, ${connections} conn.`,
            load,
            cpuMicrosPerRequest:
              before && after
                ? {
                    paygate: micros(paygateTicks),
                    // The service's own backends (their PIDs in pg_stat_activity): other work on
                    // the machine does not move it.
                    postgres: micros(backendTicksBetween(before, after) ?? 0),
                    // This process is the load generator (autocannon runs in it).
                    loadGenerator: round((own.user + own.system) / Math.max(1, load.requests), 0),
                  }
                : null,
            idleCores: seconds > 0 ? round((total - busy) / TICKS_PER_SECOND / seconds, 2) : null,
          });
          options.log(
            `processes ${apiProcesses}: ${scenario} c=${connections} ${load.rps} req/s p99 ${load.p99Ms} ms`,
          );
        }
      }
    } finally {
      await service.child.stop(40_000);
      await dropDatabase(database);
    }
  }
  results.processScaling = runs;
}
