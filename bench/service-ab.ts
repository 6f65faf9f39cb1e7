// Two checkouts of the service side by side, measured in alternating slices (issue 19).
//
//   node --conditions=development --import tsx bench/service-ab.ts --a /tmp/base --b /tmp/branch
//   options: --slices <n> (default 8 per side and scenario)  --seconds <s> (default 2 per slice)
//            --scenarios create,retrieve,list (default create,retrieve)  --rows <n> (list history, 200,000)
//
// Both services run at once on one fresh PostgreSQL database; the load (10 connections) goes to
// one of them at a time, A then B then B then A, so a machine shared with other work loads both
// sides alike. Each slice reports the service process's CPU per request, read from /proc, which
// moves far less with the machine's load than the rate does, and the CPU of this database's own
// PostgreSQL backends (found by their process title), which other work on the machine cannot move. Each root is a checkout with its
// node_modules (e.g. `git archive <commit> | tar -x -C /tmp/base`, then `npm install` there).
// The retrieve scenario asks for one intent over and over.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runLoad } from './lib/load.ts';
import { createFreshDatabase, databaseUrl, dropDatabase, seedHistory, withClient } from './lib/postgres.ts';
import { CREATE_BODY, createRequests, listRequests, retrieveRequests } from './lib/scenarios.ts';
import { callApi, createMerchant, type PaygateUnderTest, startPaygate } from './lib/service.ts';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    slices: { type: 'string' },
    seconds: { type: 'string' },
    scenarios: { type: 'string' },
    rows: { type: 'string' },
  },
});
if (!values.a || !values.b) throw new Error('--a <root> and --b <root> are required');
const roots = { A: values.a, B: values.b };
const slices = Number(values.slices ?? 8);
const seconds = Number(values.seconds ?? 2);
const wanted = new Set((values.scenarios ?? 'create,retrieve').split(','));
const historyRows = Number(values.rows ?? 200_000);

/** User plus system CPU of a process, in clock ticks (1/100 s). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU ticks of the PostgreSQL backends connected to `database` (by their process title). */
function databaseTicks(database: string): number {
  // `postgres: [cluster: ]user database host(port) state`; the cluster name is there on Debian.
  const titlePattern = new RegExp(`^postgres: (\\S+: )?\\S+ ${database} `);
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && titlePattern.test(title)) total += cpuTicks(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

const database = await createFreshDatabase('paygate_service_ab');
const services = new Map<'A' | 'B', PaygateUnderTest>();
try {
  for (const side of ['A', 'B'] as const) {
    process.env.PAYGATE_BENCH_SERVICE_ROOT = roots[side];
    services.set(side, await startPaygate({ kind: 'postgres', databaseUrl: databaseUrl(database) }));
  }
  const first = services.get('A') as PaygateUnderTest;
  const merchant = await createMerchant(first, 'Service A/B merchant');
  const seeded = (await callApi(first, merchant, 'POST', '/v1/payment-intents', JSON.parse(CREATE_BODY), {
    'idempotency-key': 'service-ab-seed',
  })) as { id: string };
  if (wanted.has('list'))
    await withClient(databaseUrl(database), (client) => seedHistory(client, merchant.id, historyRows));
  const all = {
    create: createRequests(merchant),
    retrieve: retrieveRequests(merchant, seeded.id),
    list: listRequests(merchant),
  };
  const scenarios = Object.entries(all).filter(([name]) => wanted.has(name));
  const totals = new Map<string, { ticks: number; dbTicks: number; requests: number }>();
  for (const [name, requests] of scenarios) {
    const load = (service: PaygateUnderTest, durationSeconds: number) =>
      runLoad({ url: service.baseUrl, connections: 10, durationSeconds, requests, idReplacement: true });
    // Warm-up, so that the slices compare compiled code rather than the JIT at work.
    for (const service of services.values()) await load(service, 3);
    for (let slice = 0; slice < slices; slice++) {
      for (const side of slice % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const service = services.get(side) as PaygateUnderTest;
        const before = cpuTicks(service.child.pid);
        const dbBefore = databaseTicks(database);
        const result = await load(service, seconds);
        const ticks = cpuTicks(service.child.pid) - before;
        const dbTicks = databaseTicks(database) - dbBefore;
        const key = `${name} ${side}`;
        const total = totals.get(key) ?? { ticks: 0, dbTicks: 0, requests: 0 };
        totals.set(key, {
          ticks: total.ticks + ticks,
          dbTicks: total.dbTicks + dbTicks,
          requests: total.requests + result.requests,
        });
        const perRequest = Math.round((ticks * 10_000) / Math.max(1, result.requests));
        const dbPerRequest = Math.round((dbTicks * 10_000) / Math.max(1, result.requests));
        process.stdout.write(
          `${key} slice ${slice}: ${result.rps} req/s p99 ${result.p99Ms} ms, ${perRequest} µs service / ${dbPerRequest} µs PostgreSQL CPU/req, errors ${result.errors}, load ${loadavg()[0]?.toFixed(1)}\n`,
        );
      }
    }
  }
  for (const [key, total] of totals) {
    const perRequest = Math.round((total.ticks * 10_000) / Math.max(1, total.requests));
    const dbPerRequest = Math.round((total.dbTicks * 10_000) / Math.max(1, total.requests));
    process.stdout.write(
      `${key}: ${perRequest} µs service, ${dbPerRequest} µs PostgreSQL CPU per request over ${total.requests} requests\n`,
    );
  }
} finally {
  for (const service of services.values()) await service.child.stop();
  await dropDatabase(database);
}
