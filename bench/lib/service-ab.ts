// Two checkouts of the service side by side, measured in alternating slices (issues 19 and 33).
//
// Each side runs on its own fresh PostgreSQL database (each migrated by its own service: a commit
// before a migration must not see it) with the simulated gateway in its own process. The load
// (10 connections) goes to one side at a time, A B B A …, so a machine shared with other work loads
// both alike. Per slice: the service process's CPU per request (/proc), and in the full flow
// (create + confirm, the signed webhook to a receiver of its own) the CPU of the service and of
// PostgreSQL (the backends of the side's database, by process title: other work cannot move it)
// per confirmed payment, read from the start of the slice until the receiver has had
// every webhook of the slice, so the deliveries are counted with their payments.
import { loadavg } from 'node:os';
import { type CpuCounters, DatabaseBackendCpu, readCpu } from './cpu.ts';
import { round, runLoad } from './load.ts';
import { createFreshDatabase, databaseUrl, dropDatabase, seedHistory, withClient } from './postgres.ts';
import { WebhookReceiver } from './receiver.ts';
import { CREATE_BODY, createRequests, flowRequests, listRequests, retrieveRequests } from './scenarios.ts';
import {
  type BenchMerchant,
  callAdmin,
  callApi,
  createMerchant,
  type PaygateUnderTest,
  startPaygate,
} from './service.ts';

export type AbScenario = 'create' | 'retrieve' | 'list' | 'flow';
export type Side = 'A' | 'B';

export interface AbTotal {
  scenario: AbScenario;
  side: Side;
  root: string;
  requests: number;
  /** Confirmed payments (flow only). */
  payments: number;
  serviceMicrosPerRequest: number;
  /** CPU of the side's database backends per request. */
  postgresMicrosPerRequest: number;
  /** Flow: service + PostgreSQL CPU per confirmed payment, and each part. */
  serviceMicrosPerPayment?: number;
  postgresMicrosPerPayment?: number;
  cpuMicrosPerPayment?: number;
  rps: number;
}

export interface ServiceAbResult {
  slices: number;
  secondsPerSlice: number;
  totals: AbTotal[];
  lines: string[];
}

interface SideUnderTest {
  side: Side;
  root: string;
  service: PaygateUnderTest;
  merchant: BenchMerchant;
  receiver: WebhookReceiver;
  database: string;
  seededIntent: string;
}

const ticks = (c: CpuCounters | null, name: string) => c?.ticks[name] ?? 0;

async function startSide(side: Side, root: string, historyRows: number): Promise<SideUnderTest> {
  const database = await createFreshDatabase(`paygate_ab_${side.toLowerCase()}`);
  const receiver = await WebhookReceiver.start();
  const previousRoot = process.env.PAYGATE_BENCH_SERVICE_ROOT;
  process.env.PAYGATE_BENCH_SERVICE_ROOT = root;
  try {
    const service = await startPaygate({
      kind: 'postgres',
      databaseUrl: databaseUrl(database),
      simulator: 'own-process',
    });
    const merchant = await createMerchant(service, `Service A/B merchant ${side}`);
    const endpoint = await callAdmin(service, `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
      url: `${receiver.url}/webhooks`,
      livemode: false,
    });
    await receiver.reset(String(endpoint.secret));
    const seeded = (await callApi(service, merchant, 'POST', '/v1/payment-intents', JSON.parse(CREATE_BODY), {
      'idempotency-key': `service-ab-seed-${side}`,
    })) as { id: string };
    if (historyRows > 0)
      await withClient(databaseUrl(database), (client) => seedHistory(client, merchant.id, historyRows));
    return { side, root, service, merchant, receiver, database, seededIntent: seeded.id };
  } catch (error) {
    await receiver.stop();
    await dropDatabase(database);
    throw error;
  } finally {
    if (previousRoot === undefined) delete process.env.PAYGATE_BENCH_SERVICE_ROOT;
    else process.env.PAYGATE_BENCH_SERVICE_ROOT = previousRoot;
  }
}

export async function runServiceAb(options: {
  roots: Record<Side, string>;
  scenarios: AbScenario[];
  slices: number;
  secondsPerSlice: number;
  /** History seeded for the list scenario (intents + transactions of the merchant). */
  historyRows?: number;
  log: (line: string) => void;
}): Promise<ServiceAbResult> {
  const sides: SideUnderTest[] = [];
  const lines: string[] = [];
  const totals = new Map<string, AbTotal & { ticks: number; pgTicks: number }>();
  const say = (line: string) => {
    lines.push(line);
    options.log(line);
  };
  try {
    const rows = options.scenarios.includes('list') ? (options.historyRows ?? 200_000) : 0;
    for (const side of ['A', 'B'] as const) sides.push(await startSide(side, options.roots[side], rows));
    for (const scenario of options.scenarios) {
      const load = async (s: SideUnderTest, seconds: number) => {
        let confirmed = 0;
        const requests =
          scenario === 'create'
            ? createRequests(s.merchant)
            : scenario === 'retrieve'
              ? retrieveRequests(s.merchant, s.seededIntent)
              : scenario === 'list'
                ? listRequests(s.merchant)
                : flowRequests(s.merchant);
        if (scenario === 'flow') {
          const confirm = requests[requests.length - 1];
          if (confirm)
            confirm.onResponse = (status) => {
              if (status >= 200 && status < 300) confirmed += 1;
            };
        }
        const result = await runLoad({
          url: s.service.baseUrl,
          connections: 10,
          durationSeconds: seconds,
          requests,
          idReplacement: true,
        });
        return { result, confirmed };
      };
      // Each database's backends, those the pool closes on the way counted too (cpu.ts).
      const pgCpu = new Map(sides.map((s) => [s, new DatabaseBackendCpu(s.database)]));
      // Warm-up, so that the slices compare compiled code rather than the JIT at work.
      for (const s of sides) await load(s, 3);
      for (const s of sides)
        await s.receiver.settle('payment_intent.succeeded', Number.POSITIVE_INFINITY, 500);
      for (let slice = 0; slice < options.slices; slice++) {
        for (const s of slice % 2 === 0 ? sides : [...sides].reverse()) {
          const delivered = (await s.receiver.stats()).byType['payment_intent.succeeded'] ?? 0;
          const before = readCpu({ service: s.service.child.pid });
          const pgBefore = pgCpu.get(s)?.ticks() ?? 0;
          const { result, confirmed } = await load(s, options.secondsPerSlice);
          // The deliveries of this slice's payments belong to its CPU.
          if (scenario === 'flow')
            await s.receiver.settle('payment_intent.succeeded', delivered + confirmed, 500, 10_000);
          const after = readCpu({ service: s.service.child.pid });
          const serviceTicks = ticks(after, 'service') - ticks(before, 'service');
          const pgTicks = (pgCpu.get(s)?.ticks() ?? 0) - pgBefore;
          const key = `${scenario} ${s.side}`;
          const total = totals.get(key) ?? {
            scenario,
            side: s.side,
            root: s.root,
            requests: 0,
            payments: 0,
            serviceMicrosPerRequest: 0,
            postgresMicrosPerRequest: 0,
            rps: 0,
            ticks: 0,
            pgTicks: 0,
          };
          total.requests += result.requests;
          total.payments += confirmed;
          total.ticks += serviceTicks;
          total.pgTicks += pgTicks;
          total.rps += result.rps / options.slices;
          totals.set(key, total);
          const perRequest = Math.round((serviceTicks * 10_000) / Math.max(1, result.requests));
          const pgPerRequest = Math.round((pgTicks * 10_000) / Math.max(1, result.requests));
          const perPayment =
            scenario === 'flow'
              ? `, ${Math.round(((serviceTicks + pgTicks) * 10_000) / Math.max(1, confirmed))} µs service + PostgreSQL CPU/payment (${confirmed} payments)`
              : '';
          say(
            `${key} slice ${slice}: ${result.rps} req/s p99 ${result.p99Ms} ms, ${perRequest} µs service / ${pgPerRequest} µs PostgreSQL CPU/req${perPayment}, errors ${result.errors}, load ${loadavg()[0]?.toFixed(1)}`,
          );
        }
      }
      for (const cpu of pgCpu.values()) cpu.stop();
    }
  } finally {
    for (const s of sides) {
      await s.service.child.stop();
      await s.receiver.stop();
      await dropDatabase(s.database);
    }
  }
  const result: AbTotal[] = [];
  for (const [key, t] of totals) {
    const { ticks: serviceTicks, pgTicks, ...rest } = t;
    const total: AbTotal = {
      ...rest,
      rps: round(t.rps, 0),
      serviceMicrosPerRequest: Math.round((serviceTicks * 10_000) / Math.max(1, t.requests)),
      postgresMicrosPerRequest: Math.round((pgTicks * 10_000) / Math.max(1, t.requests)),
    };
    if (t.scenario === 'flow' && t.payments > 0) {
      total.serviceMicrosPerPayment = Math.round((serviceTicks * 10_000) / t.payments);
      total.postgresMicrosPerPayment = Math.round((pgTicks * 10_000) / t.payments);
      total.cpuMicrosPerPayment = total.serviceMicrosPerPayment + total.postgresMicrosPerPayment;
    }
    result.push(total);
    say(
      `${key}: ${total.serviceMicrosPerRequest} µs service, ${total.postgresMicrosPerRequest} µs PostgreSQL CPU per request over ${t.requests} requests${total.cpuMicrosPerPayment === undefined ? '' : `; ${total.cpuMicrosPerPayment} µs service + PostgreSQL per payment (${total.serviceMicrosPerPayment} + ${total.postgresMicrosPerPayment}) over ${t.payments} payments`}`,
    );
  }
  return { slices: options.slices, secondsPerSlice: options.secondsPerSlice, totals: result, lines };
}
