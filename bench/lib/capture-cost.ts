// Capture later, measured (issue 43, item 7): what a manual payment (create, confirm to an
// authorisation, capture) costs in service + PostgreSQL CPU against an automatic one (create,
// confirm), in alternating slices on one service and one database, so both meet the same machine;
// and the plans of the two queries over authorisations (the to-capture list, the lapse job's claim)
// at a large history, which must read the partial index, never the whole table.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { claimLapsedAuthorizations, searchPaymentIntents } from '@paygate/server';
import type { RequestSpec } from 'autocannon';
import type pg from 'pg';
import { DatabaseBackendCpu, readCpu } from './cpu.ts';
import { round, runLoad } from './load.ts';
import { createFreshDatabase, databaseUrl, dropDatabase, seedHistory, withClient } from './postgres.ts';
import { WebhookReceiver } from './receiver.ts';
import { CONFIRM_BODY, CREATE_BODY, flowRequests, intentIdOf } from './scenarios.ts';
import { type BenchMerchant, callAdmin, createMerchant, startPaygate } from './service.ts';

/** The budget: a manual payment's authorise + capture at most this many times an automatic one. */
export const CAPTURE_BUDGET_RATIO = 1.5;

export interface CaptureCostResult {
  slices: number;
  secondsPerSlice: number;
  /** Service + PostgreSQL CPU per finished payment, and its two parts, per flow. */
  automatic: FlowCost;
  manual: FlowCost;
  /** manual ÷ automatic, service + PostgreSQL. */
  ratio: number;
  /**
   * The same, for a merchant whose endpoint takes only payment_intent.succeeded: one webhook per
   * payment in both flows, where the budget's merchant gets two for a manual payment.
   */
  oneWebhook?: { automatic: FlowCost; manual: FlowCost; ratio: number };
  met: boolean;
  /** The plans at `historyRows` rows: each query's scan nodes and its time. */
  historyRows: number;
  authorisations: number;
  plans: PlanCheck[];
  lines: string[];
}

export interface FlowCost {
  payments: number;
  serviceMicrosPerPayment: number;
  postgresMicrosPerPayment: number;
  cpuMicrosPerPayment: number;
  paymentsPerSecond: number;
}

export interface PlanCheck {
  query: string;
  /** Every scan of the plan: node type and relation or index. */
  scans: string[];
  /** True when no node reads payment_intents whole (a Seq Scan on it). */
  indexOnly: boolean;
  executionMs: number;
}

/** A merchant of the run, its endpoint's subscription and the receiver behind it. */
interface Shop {
  subscription: 'all events' | 'payment_intent.succeeded only';
  merchant: BenchMerchant;
  receiver: WebhookReceiver;
}

const jsonHeaders = (merchant: BenchMerchant, extra: Record<string, string> = {}) => ({
  'x-api-key': merchant.secretKey,
  'content-type': 'application/json',
  ...extra,
});

/** Create (manual), confirm (an authorisation), capture all of it, on each connection in turn. */
function manualFlowRequests(merchant: BenchMerchant): RequestSpec[] {
  const path = (context: Record<string, unknown>, action: string) =>
    typeof context.intentId === 'string' ? `/v1/payment-intents/${context.intentId}/${action}` : null;
  return [
    {
      method: 'POST',
      path: '/v1/payment-intents',
      headers: jsonHeaders(merchant, { 'idempotency-key': 'manual-[<id>]' }),
      body: JSON.stringify({ ...JSON.parse(CREATE_BODY), capture_method: 'manual' }),
      onResponse: (status, body, context) => {
        context.intentId = status === 200 ? intentIdOf(body) : null;
      },
    },
    {
      method: 'POST',
      headers: jsonHeaders(merchant),
      body: CONFIRM_BODY,
      setupRequest: (request, context) => {
        const to = path(context, 'confirm');
        return to ? { ...request, path: to } : undefined;
      },
    },
    {
      method: 'POST',
      headers: jsonHeaders(merchant, { 'idempotency-key': 'capture-[<id>]' }),
      body: '{}',
      setupRequest: (request, context) => {
        const to = path(context, 'capture');
        return to ? { ...request, path: to } : undefined;
      },
    },
  ];
}

/** The scans of an EXPLAIN (FORMAT JSON) plan, depth first. */
function scansOf(node: Record<string, unknown>, into: string[] = []): string[] {
  const type = String(node['Node Type'] ?? '');
  if (type.includes('Scan')) {
    const on = node['Index Name'] ?? node['Relation Name'] ?? '';
    into.push(`${type} ${on}`.trim());
  }
  for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) scansOf(child, into);
  return into;
}

/** Runs `run` against a recording connection to learn the exact statement it sends, then explains it. */
async function checkPlan(
  client: pg.Client,
  name: string,
  run: (q: { query: (text: string, params?: unknown[]) => Promise<{ rows: never[] }> }) => Promise<unknown>,
): Promise<PlanCheck> {
  let sent: { text: string; params: unknown[] } | null = null;
  await run({
    query: async (text, params = []) => {
      sent ??= { text, params };
      return { rows: [] };
    },
  });
  if (!sent) throw new Error(`${name}: no statement was sent`);
  const { text, params } = sent as { text: string; params: unknown[] };
  // FOR UPDATE needs a transaction to explain with ANALYZE; it is rolled back.
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': Record<string, unknown>[] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
      params,
    );
    const plan = rows[0]?.['QUERY PLAN'][0] ?? {};
    const scans = scansOf(plan.Plan as Record<string, unknown>);
    return {
      query: name,
      scans,
      indexOnly: !scans.some((scan) => scan === 'Seq Scan payment_intents'),
      executionMs: round(Number(plan['Execution Time'] ?? 0), 2),
    };
  } finally {
    await client.query('ROLLBACK');
  }
}

/** One merchant's authorisations waiting for their capture, their deadlines over the next 7 days. */
async function seedAuthorisations(client: pg.Client, merchantId: string, count: number): Promise<void> {
  await client.query(
    `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
                                  metadata, expires_at, created_at, updated_at, capture_method, capture_before)
     SELECT 'pi_auth' || lpad(g::text, 20, '0'), $1, false, 2500, 'USD', 'REQUIRES_CAPTURE', 'sim', '{}'::jsonb,
            now() + interval '1 day', now() - g * interval '1 second', now(), 'manual',
            now() + (g % 604800) * interval '1 second'
       FROM generate_series(1, $2::int) AS g`,
    [merchantId, count],
  );
  await client.query('ANALYZE payment_intents');
}

export async function runCaptureCost(options: {
  slices: number;
  secondsPerSlice: number;
  historyRows: number;
  log: (line: string) => void;
}): Promise<CaptureCostResult> {
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    options.log(line);
  };
  const database = await createFreshDatabase('paygate_bench_capture');
  const url = databaseUrl(database);
  const service = await startPaygate({ kind: 'postgres', databaseUrl: url, simulator: 'own-process' });
  const shops: Shop[] = [];
  const cleanups: (() => void)[] = [];
  try {
    // Two merchants in one run: one whose endpoint takes every event (the budget's figure: a
    // manual payment delivers requires_capture and succeeded), one whose endpoint takes only
    // payment_intent.succeeded (one webhook per payment in both flows: what the rest costs).
    for (const subscription of ['all events', 'payment_intent.succeeded only'] as const) {
      const receiver = await WebhookReceiver.start();
      const merchant = await createMerchant(service, `Capture bench merchant (${subscription})`);
      shops.push({ subscription, merchant, receiver });
      const endpoint = await callAdmin(service, `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
        url: `${receiver.url}/webhooks`,
        livemode: false,
        ...(subscription === 'all events' ? {} : { enabled_events: ['payment_intent.succeeded'] }),
      });
      await receiver.reset(String(endpoint.secret));
    }
    const [everything, outcomeOnly] = shops as [Shop, Shop];
    const merchant = everything.merchant;

    type Run = { shop: Shop; flow: 'automatic' | 'manual' };
    const runs: Run[] = shops.flatMap((shop) => [
      { shop, flow: 'automatic' as const },
      { shop, flow: 'manual' as const },
    ]);
    const totals = new Map(runs.map((run) => [run, { payments: 0, serviceTicks: 0, pgTicks: 0, rps: 0 }]));
    const load = async ({ shop, flow }: Run, seconds: number) => {
      let finished = 0;
      const requests = flow === 'automatic' ? flowRequests(shop.merchant) : manualFlowRequests(shop.merchant);
      const last = requests[requests.length - 1];
      if (last)
        last.onResponse = (status) => {
          if (status === 200) finished += 1;
        };
      const result = await runLoad({
        url: service.baseUrl,
        connections: 10,
        durationSeconds: seconds,
        requests,
        idReplacement: true,
      });
      return { result, finished };
    };
    const pgCpu = new DatabaseBackendCpu(database);
    cleanups.push(() => pgCpu.stop());
    // Warm-up, so that the slices compare compiled code rather than the JIT at work.
    for (const run of runs) await load(run, 3);
    for (const shop of shops)
      await shop.receiver.settle('payment_intent.succeeded', Number.POSITIVE_INFINITY, 500);
    for (let slice = 0; slice < options.slices; slice++) {
      const order = slice % 2 === 0 ? runs : [...runs].reverse();
      for (const run of order) {
        const { receiver } = run.shop;
        const delivered = (await receiver.stats()).byType['payment_intent.succeeded'] ?? 0;
        const before = readCpu({ service: service.child.pid });
        const pgBefore = pgCpu.ticks();
        const { result, finished } = await load(run, options.secondsPerSlice);
        // The webhooks of this slice's payments belong to its CPU.
        await receiver.settle('payment_intent.succeeded', delivered + finished, 500, 10_000);
        const after = readCpu({ service: service.child.pid });
        const serviceTicks = (after?.ticks.service ?? 0) - (before?.ticks.service ?? 0);
        const pgTicks = pgCpu.ticks() - pgBefore;
        const total = totals.get(run);
        if (!total) continue;
        total.payments += finished;
        total.serviceTicks += serviceTicks;
        total.pgTicks += pgTicks;
        total.rps += finished / options.secondsPerSlice / options.slices;
        say(
          `${run.flow} (${run.shop.subscription}) slice ${slice}: ${finished} payments, ${Math.round(((serviceTicks + pgTicks) * 10_000) / Math.max(1, finished))} µs service + PostgreSQL CPU/payment, errors ${result.errors}, non-2xx ${result.non2xx}, load ${loadavg()[0]?.toFixed(1)}`,
        );
      }
    }
    const cost = (run: Run | undefined): FlowCost => {
      const t = (run && totals.get(run)) ?? { payments: 0, serviceTicks: 0, pgTicks: 0, rps: 0 };
      const serviceMicros = Math.round((t.serviceTicks * 10_000) / Math.max(1, t.payments));
      const postgresMicros = Math.round((t.pgTicks * 10_000) / Math.max(1, t.payments));
      return {
        payments: t.payments,
        serviceMicrosPerPayment: serviceMicros,
        postgresMicrosPerPayment: postgresMicros,
        cpuMicrosPerPayment: serviceMicros + postgresMicros,
        paymentsPerSecond: round(t.rps, 0),
      };
    };
    const costOf = (shop: Shop, flow: Run['flow']) =>
      cost(runs.find((r) => r.shop === shop && r.flow === flow));
    const ratioOf = (manual: FlowCost, automatic: FlowCost) =>
      round(manual.cpuMicrosPerPayment / Math.max(1, automatic.cpuMicrosPerPayment), 2);
    const automatic = costOf(everything, 'automatic');
    const manual = costOf(everything, 'manual');
    const ratio = ratioOf(manual, automatic);
    const oneWebhook = {
      automatic: costOf(outcomeOnly, 'automatic'),
      manual: costOf(outcomeOnly, 'manual'),
      ratio: 0,
    };
    oneWebhook.ratio = ratioOf(oneWebhook.manual, oneWebhook.automatic);
    for (const [name, a, m, r] of [
      ['all events', automatic, manual, ratio],
      ['succeeded only', oneWebhook.automatic, oneWebhook.manual, oneWebhook.ratio],
    ] as const) {
      say(
        `${name}: automatic: ${a.cpuMicrosPerPayment} µs (${a.serviceMicrosPerPayment} + ${a.postgresMicrosPerPayment}) per payment over ${a.payments}; manual: ${m.cpuMicrosPerPayment} µs (${m.serviceMicrosPerPayment} + ${m.postgresMicrosPerPayment}) over ${m.payments}; ratio ${r} (budget ≤ ${CAPTURE_BUDGET_RATIO})`,
      );
    }

    // The plans, at a large history: the bench merchant's payments, 1% of them authorisations.
    const authorisations = Math.max(100, Math.round(options.historyRows / 100));
    const plans = await withClient(url, async (client) => {
      await seedHistory(client, merchant.id, options.historyRows);
      await seedAuthorisations(client, merchant.id, authorisations);
      const scope = { merchantId: merchant.id, livemode: false };
      return [
        await checkPlan(
          client,
          'to-capture list (dashboard search, status REQUIRES_CAPTURE, a page of 20)',
          (q) => searchPaymentIntents(q as never, scope, { status: 'REQUIRES_CAPTURE' }, null, 20),
        ),
        await checkPlan(client, 'lapse job claim (capture_before passed, 100 at a time)', (q) =>
          claimLapsedAuthorizations(q as never, new Date(Date.now() + 86_400_000), 100),
        ),
      ];
    });
    for (const plan of plans) {
      say(
        `${plan.query}: ${plan.scans.join(', ')}; ${plan.executionMs} ms${plan.indexOnly ? '' : ' (READS THE TABLE)'}`,
      );
    }
    return {
      slices: options.slices,
      secondsPerSlice: options.secondsPerSlice,
      automatic,
      manual,
      ratio,
      oneWebhook,
      met: ratio <= CAPTURE_BUDGET_RATIO && plans.every((plan) => plan.indexOnly),
      historyRows: options.historyRows,
      authorisations,
      plans,
      lines,
    };
  } finally {
    for (const cleanup of cleanups) cleanup();
    await service.child.stop();
    for (const shop of shops) await shop.receiver.stop();
    await dropDatabase(database);
  }
}

const BEGIN = '<!-- bench:capture begin (npm run bench:capture, and npm run bench, rewrite this block) -->';
const END = '<!-- bench:capture end -->';

/** The RESULTS.md block of a run: the budget's row, the slices' totals and the plans. */
export function captureBlock(r: CaptureCostResult, date: string): string {
  const row = (name: string, c: FlowCost) =>
    `| ${name} | ${c.payments} | ${c.paymentsPerSecond} | ${c.serviceMicrosPerPayment} | ${c.postgresMicrosPerPayment} | **${c.cpuMicrosPerPayment}** |`;
  return [
    BEGIN,
    `## Capture later (issue 43): run of ${date}`,
    '',
    `${r.slices} alternating slices of ${r.secondsPerSlice} s per flow, 10 connections, one service on PostgreSQL with the simulated gateway in its own process; CPU of the service process and of its database's backends per finished payment, its webhooks delivered. **Budget: manual ≤ ${CAPTURE_BUDGET_RATIO}× automatic: ${r.ratio}× (${r.met ? 'met' : '**missed**'}).**`,
    '',
    '| flow | payments | payments/s | service µs | PostgreSQL µs | service + PostgreSQL µs |',
    '|---|---|---|---|---|---|',
    row('automatic: create, confirm', r.automatic),
    row('manual: create, confirm (authorise), capture', r.manual),
    ...(r.oneWebhook
      ? [
          row('automatic, endpoint taking payment_intent.succeeded only', r.oneWebhook.automatic),
          row('manual, endpoint taking payment_intent.succeeded only', r.oneWebhook.manual),
          '',
          `The first two rows are the budget's (the endpoint takes every event: a manual payment's webhooks are requires_capture and succeeded). The last two are a second merchant in the same slices whose endpoint takes only payment_intent.succeeded, so that each payment delivers one webhook: manual ${r.oneWebhook.ratio}× automatic.`,
        ]
      : []),
    '',
    `Plans at ${r.historyRows.toLocaleString('en')} payments of the merchant, ${r.authorisations.toLocaleString('en')} of them authorisations waiting (EXPLAIN ANALYZE of the exact statements the service sends):`,
    '',
    '| query | scans | time | |',
    '|---|---|---|---|',
    ...r.plans.map(
      (p) =>
        `| ${p.query} | ${p.scans.join(', ')} | ${p.executionMs} ms | ${p.indexOnly ? 'index' : '**reads the table**'} |`,
    ),
    END,
  ].join('\n');
}

/** Writes the run's JSON under bench/results/ and its block into bench/RESULTS.md. */
export function writeCaptureReport(r: CaptureCostResult, root: string): void {
  const date = new Date().toISOString().slice(0, 10);
  writeFileSync(join(root, `bench/results/${date}-capture.json`), `${JSON.stringify(r, null, 2)}\n`);
  const path = join(root, 'bench/RESULTS.md');
  const text = readFileSync(path, 'utf8');
  const block = captureBlock(r, date);
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  writeFileSync(
    path,
    a >= 0 && b > a
      ? text.slice(0, a) + block + text.slice(b + END.length)
      : `${text.trimEnd()}\n\n${block}\n`,
  );
}
