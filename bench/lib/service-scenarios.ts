import type { RequestSpec } from 'autocannon';
import { cpuSplit, readCpu } from './cpu.ts';
import { type LoadResult, round, runLoad } from './load.ts';
import { memoryOf, resetPeakMemory } from './processes.ts';
import type { WebhookReceiver } from './receiver.ts';
import type { ScenarioRun, SystemKind } from './results.ts';
import {
  CREATE_BODY,
  confirmRequests,
  createRequests,
  flowRequests,
  IntentPool,
  listRequests,
  replayRequests,
  retrieveRequests,
  warmUp,
} from './scenarios.ts';
import { type BenchMerchant, callAdmin, callApi, type PaygateUnderTest } from './service.ts';

export const CONNECTION_LEVELS = [10, 50] as const;

export interface ScenarioOptions {
  durationSeconds: number;
  smoke: boolean;
  log: (line: string) => void;
  /** Only these scenarios (`--scenarios list,create`), for a quick A/B of one path; all when null. */
  scenarios: Set<string> | null;
}

const MB = 1024 * 1024;

/** What a load run is aimed at: the service or a baseline, by its process and address. */
export interface Target {
  system: ScenarioRun['system'];
  pid: number;
  baseUrl: string;
  /** The webhook receiver's process, when the scenario delivers webhooks (its CPU is counted apart). */
  receiverPid?: number;
  /** The service's own database: PostgreSQL's CPU is its backends' alone (cpu.ts serviceBackendPids). */
  databaseUrl?: string;
}

export function targetOf(service: PaygateUnderTest): Target {
  return {
    system: service.kind,
    pid: service.child.pid,
    baseUrl: service.baseUrl,
    ...(service.databaseUrl ? { databaseUrl: service.databaseUrl } : {}),
  };
}

/** One load run, with the target process's peak RSS during it. */
export async function measure(
  target: Target,
  scenario: string,
  connections: number,
  durationSeconds: number,
  requests: RequestSpec[],
  idReplacement = false,
): Promise<ScenarioRun & { load: LoadResult }> {
  const resetWorked = resetPeakMemory(target.pid);
  // autocannon runs in this process: its CPU is the load generator's.
  const pids: Record<string, number> = { service: target.pid, loadGenerator: process.pid };
  if (target.receiverPid !== undefined) pids.receiver = target.receiverPid;
  const cpuBefore = readCpu(pids, target.databaseUrl);
  const load = await runLoad({ url: target.baseUrl, connections, durationSeconds, requests, idReplacement });
  const cores = cpuSplit(cpuBefore, readCpu(pids, target.databaseUrl));
  const memory = memoryOf(target.pid);
  return {
    system: target.system,
    scenario,
    load,
    peakRssMB: round(memory.peakRssBytes / MB, 0),
    cores,
    ...(resetWorked ? {} : { note: 'peak RSS is cumulative since start (clear_refs refused)' }),
  };
}

export function describe(run: ScenarioRun): string {
  const l = run.load;
  const flow = run.paymentsPerSecond !== undefined ? ` payments/s ${run.paymentsPerSecond}` : '';
  return `${run.system} ${run.scenario} c=${l.connections}: ${l.rps} rps p50 ${l.p50Ms} p99 ${l.p99Ms} p99.9 ${l.p999Ms} ms, errors ${l.errors}, peak ${run.peakRssMB} MB${flow}`;
}

/** Sends one request to find out whether an endpoint exists yet (others are still building it). */
async function available(probe: () => Promise<unknown>, what: string, notes: string[]): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    notes.push(`${what} skipped: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
    return false;
  }
}

export interface ServiceSuiteInput {
  service: PaygateUnderTest;
  merchant: BenchMerchant;
  /** Bulk-creates `count` intents in CREATED for the confirm scenario. */
  makePool(count: number, createdSoFar: string[]): Promise<string[]>;
  withList: boolean;
  receiver: WebhookReceiver;
}

/**
 * The scenarios of issue 8 against one running service, each at 10 and 50 connections: create,
 * replay, retrieve, confirm, list (PostgreSQL), and the full flow with verified webhooks.
 */
export async function runServiceScenarios(
  input: ServiceSuiteInput,
  options: ScenarioOptions,
  notes: string[],
): Promise<{ runs: ScenarioRun[]; webhookSecret: string | null }> {
  const { service, merchant } = input;
  const d = options.durationSeconds;
  const runs: ScenarioRun[] = [];
  const record = (run: ScenarioRun) => {
    runs.push(run);
    options.log(describe(run));
  };
  const kind: SystemKind = service.kind;
  const target = targetOf(service);
  const wanted = (scenario: string) => options.scenarios === null || options.scenarios.has(scenario);

  if (!options.smoke) await warmUp(service.baseUrl, merchant);

  const created: string[] = [];
  for (const c of wanted('create') ? CONNECTION_LEVELS : []) {
    record(
      await measure(
        target,
        'create',
        c,
        d,
        createRequests(merchant, (id) => created.push(id)),
        true,
      ),
    );
  }

  const replayKey = `bench-replay-${Date.now()}`;
  const first = await callApi(service, merchant, 'POST', '/v1/payment-intents', JSON.parse(CREATE_BODY), {
    'idempotency-key': replayKey,
  });
  for (const c of wanted('replay') ? CONNECTION_LEVELS : [])
    record(await measure(target, 'replay', c, d, replayRequests(merchant, replayKey)));
  for (const c of wanted('retrieve') ? CONNECTION_LEVELS : []) {
    record(await measure(target, 'retrieve', c, d, retrieveRequests(merchant, String(first.id))));
  }

  const probeIds = await input.makePool(1, created);
  const canConfirm = await available(
    () =>
      callApi(service, merchant, 'POST', `/v1/payment-intents/${probeIds[0]}/confirm`, {
        payment_method_token: 'tok_sim_approve',
      }),
    `${kind} confirm`,
    notes,
  );
  if (canConfirm && wanted('confirm')) {
    for (const c of CONNECTION_LEVELS) {
      // Generous: a confirm is slower than a create; a run that outruns its pool reports it.
      const pool = new IntentPool(await input.makePool(Math.max(2000, 3000 * d), created));
      const run = await measure(target, 'confirm', c, d, confirmRequests(merchant, pool));
      if (pool.reused > 0)
        run.note = `pool of ${pool.size} ran dry: ${pool.reused} confirms reused an intent (4xx)`;
      record(run);
    }
  }

  if (input.withList && wanted('list')) {
    const canList = await available(
      () => callApi(service, merchant, 'GET', '/v1/transactions?limit=100'),
      `${kind} list`,
      notes,
    );
    if (canList)
      for (const c of CONNECTION_LEVELS) record(await measure(target, 'list', c, d, listRequests(merchant)));
  }

  let secret: string | null = null;
  if (canConfirm && wanted('flow')) {
    const canDeliver = await available(
      async () => {
        const endpoint = await callAdmin(service, `/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
          url: `${input.receiver.url}/webhooks`,
          livemode: false,
        });
        secret = String(endpoint.secret);
      },
      `${kind} full flow (webhook endpoints)`,
      notes,
    );
    if (canDeliver && secret) {
      for (const c of CONNECTION_LEVELS) record(await measureFlow(input, secret, c, d));
    }
  }
  return { runs, webhookSecret: secret };
}

/**
 * Create + confirm per payment on each connection; a payment is complete when the receiver has
 * verified its signed `payment_intent.succeeded` webhook. Rate = completed payments over the time
 * from the start of the load to the last webhook.
 */
async function measureFlow(
  input: ServiceSuiteInput,
  secret: string,
  connections: number,
  d: number,
): Promise<ScenarioRun> {
  await input.receiver.reset(secret);
  let confirmed = 0;
  const requests = flowRequests(input.merchant);
  const confirm = requests[1];
  if (confirm) {
    confirm.onResponse = (status) => {
      if (status === 200) confirmed += 1;
    };
  }
  const startedAtMs = Date.now();
  const target = { ...targetOf(input.service), receiverPid: input.receiver.child.pid };
  const run = await measure(target, 'flow', connections, d, requests, true);
  const endedAtMs = Date.now();
  const stats = await input.receiver.settle('payment_intent.succeeded', confirmed);
  const completed = stats.byType['payment_intent.succeeded'] ?? 0;
  const spanSeconds = Math.max(d, (stats.lastAtMs - startedAtMs) / 1000);
  run.paymentsPerSecond = round(completed / spanSeconds, 0);
  run.webhookDrainMs = stats.lastAtMs > endedAtMs ? stats.lastAtMs - endedAtMs : 0;
  run.webhooksMissing = Math.max(0, confirmed - completed);
  if (stats.rejected > 0) run.note = `${stats.rejected} deliveries failed verification`;
  return run;
}
