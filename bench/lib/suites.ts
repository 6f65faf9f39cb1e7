import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { round, runLoad } from './load.ts';
import { measureFlushRate } from './pgbench.ts';
import {
  createFreshDatabase,
  databaseUrl,
  dropDatabase,
  seedCreatedIntents,
  seedHistory,
  withClient,
} from './postgres.ts';
import { memoryOf } from './processes.ts';
import { summariseProfile } from './profile.ts';
import { WebhookReceiver } from './receiver.ts';
import type { BenchResults } from './results.ts';
import { createRequests, flowRequests, listRequests } from './scenarios.ts';
import { type BenchMerchant, createMerchant, type PaygateUnderTest, startPaygate } from './service.ts';
import { runServiceScenarios, type ScenarioOptions } from './service-scenarios.ts';

export interface SuiteOptions extends ScenarioOptions {
  historyRows: number;
  keepDatabase: boolean;
  /** Where the PostgreSQL scenarios run the simulated gateway (`--sim`; default its own process). */
  simulator: 'in-process' | 'own-process';
  tmpDir: string;
}

/** The PostgreSQL side of a run: one fresh database with the bench merchant and its history. */
export interface PostgresBench {
  database: string;
  url: string;
  merchant: BenchMerchant;
  receiver: WebhookReceiver;
  /** The secret of the webhook endpoint the full flow registered, if it could. */
  webhookSecret: string | null;
  close(): Promise<void>;
}

const MB = 1024 * 1024;

/** RSS of the idle service, and what it is made of, recorded in the results. */
export async function recordIdleMemory(service: PaygateUnderTest, results: BenchResults): Promise<number> {
  // Start-up garbage is collected lazily; wait a moment so "idle" is idle.
  await sleep(2000);
  const rssMB = round(memoryOf(service.child.pid).rssBytes / MB, 0);
  results.idleRssMB[service.kind] = rssMB;
  const usage = await service.memoryUsage();
  const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  results.idleMemoryMB[service.kind] = {
    ...Object.fromEntries(
      Object.entries(usage ?? {})
        .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[0] !== 'majorGcs')
        .map(([k, v]) => [k, round(v / MB, 0)]),
    ),
    // Anonymous memory is the process's own; file-backed is mostly the node binary's mapped code.
    rssAnon: round(kB('RssAnon') / 1024, 0),
    rssFile: round(kB('RssFile') / 1024, 0),
  };
  return rssMB;
}

/**
 * Creates the database, starts PostgreSQL-backed Paygate (which migrates it), creates the bench
 * merchant through the operator API and seeds its history, then runs the scenarios.
 */
export async function runPostgresSuite(
  options: SuiteOptions,
  results: BenchResults,
  runScenarios: boolean,
): Promise<PostgresBench> {
  const database = await createFreshDatabase('paygate_bench');
  const url = databaseUrl(database);
  const receiver = await WebhookReceiver.start();
  const service = await startPaygate({
    kind: 'postgres',
    databaseUrl: url,
    simulator: options.simulator,
  }).catch(async (error: unknown) => {
    // Nothing else will stop the receiver or drop the database if the service does not come up.
    await receiver.stop();
    await dropDatabase(database);
    throw error;
  });
  try {
    await recordIdleMemory(service, results);
    options.log(`postgres: service up (pid ${service.child.pid}), idle RSS ${results.idleRssMB.postgres} MB`);
    const merchant = await createMerchant(service, 'Bench merchant');
    await withClient(url, async (client) => {
      const version = await client.query<{ v: string }>('SELECT version() AS v');
      results.machine.postgres = version.rows[0]?.v.split(' on ')[0] ?? null;
      if (!options.smoke) {
        const dir = await client.query<{ d: string }>(`SELECT current_setting('data_directory') AS d`);
        const dataDirectory = dir.rows[0]?.d;
        if (dataDirectory && existsSync(dataDirectory)) {
          results.machine.diskFlushesPerSecond = measureFlushRate(dataDirectory);
        }
      }
      const t = performance.now();
      await seedHistory(client, merchant.id, options.historyRows);
      options.log(
        `postgres: seeded ${options.historyRows} intents + transactions in ${Math.round(performance.now() - t)} ms`,
      );
    });
    let webhookSecret: string | null = null;
    if (runScenarios) {
      let batch = 0;
      const { runs, webhookSecret: secret } = await runServiceScenarios(
        {
          service,
          merchant,
          withList: true,
          receiver,
          makePool: (count) =>
            withClient(url, (c) => seedCreatedIntents(c, merchant.id, count, `c${batch++}`)),
        },
        options,
        results.notes,
      );
      results.runs.push(...runs);
      webhookSecret = secret;
    }
    return {
      database,
      url,
      merchant,
      receiver,
      webhookSecret,
      async close() {
        await receiver.stop();
        if (!options.keepDatabase) await dropDatabase(database);
      },
    };
  } finally {
    await service.child.stop();
  }
}

/** The embedded default, as `npm start` runs it with no configuration, in a fresh data dir. */
export async function runEmbeddedSuite(
  options: SuiteOptions,
  results: BenchResults,
  receiver: WebhookReceiver,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-bench-'));
  const service = await startPaygate({ kind: 'embedded', dataDir });
  try {
    await recordIdleMemory(service, results);
    options.log(`embedded: service up (pid ${service.child.pid}), idle RSS ${results.idleRssMB.embedded} MB`);
    const merchant = await createMerchant(service, 'Bench merchant');
    const { runs } = await runServiceScenarios(
      {
        service,
        merchant,
        withList: false,
        receiver,
        // PGlite lives inside the service, so the pool comes from the intents the create runs made,
        // topped up over HTTP when they are not enough.
        makePool: async (count, created) => {
          const pool = created.splice(0, count);
          if (pool.length < count) {
            await runLoad({
              url: service.baseUrl,
              connections: 10,
              durationSeconds: Math.max(1, Math.ceil((count - pool.length) / 500)),
              requests: createRequests(merchant, (id) => pool.push(id)),
              idReplacement: true,
            });
          }
          return pool;
        },
      },
      options,
      results.notes,
    );
    results.runs.push(...runs);
  } finally {
    await service.child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * CPU profiles of the PostgreSQL-backed service, one process per scenario so each profile shows
 * one hot path: the create, the list (a page of 100), and the full flow (create + confirm +
 * delivery) when it exists.
 */
export async function runProfiles(
  pg: PostgresBench,
  options: SuiteOptions,
  results: BenchResults,
  flowSecret: string | null,
): Promise<void> {
  const dir = join(options.tmpDir, 'profiles');
  mkdirSync(dir, { recursive: true });
  const scenarios: { name: string; requests: ReturnType<typeof createRequests> }[] = [
    { name: 'create', requests: createRequests(pg.merchant) },
    { name: 'list', requests: listRequests(pg.merchant) },
  ];
  if (flowSecret) scenarios.push({ name: 'flow', requests: flowRequests(pg.merchant) });
  for (const scenario of scenarios) {
    const name = `${scenario.name}-postgres.cpuprofile`;
    const path = join(dir, name);
    rmSync(path, { force: true });
    const service = await startPaygate({
      kind: 'postgres',
      databaseUrl: pg.url,
      env: { BENCH_CPU_PROFILE: path },
      simulator: options.simulator,
    });
    try {
      if (scenario.name === 'flow' && flowSecret) await pg.receiver.reset(flowSecret);
      // A short warm-up, so the profile shows the steady state rather than the JIT at work.
      await runLoad({
        url: service.baseUrl,
        connections: 10,
        durationSeconds: 1,
        requests: scenario.requests,
        idReplacement: true,
      });
      service.child.signal('SIGUSR2');
      await runLoad({
        url: service.baseUrl,
        connections: 10,
        durationSeconds: options.durationSeconds,
        requests: scenario.requests,
        idReplacement: true,
      });
      service.child.signal('SIGUSR2');
      for (let i = 0; i < 100 && !existsSync(path); i++) await sleep(50);
    } finally {
      await service.child.stop();
    }
    if (existsSync(path)) {
      const summary = summariseProfile(path);
      results.profiles.push({ ...summary, file: `bench/tmp/profiles/${name}` });
      options.log(
        `profile ${name}: top ${summary.topFunctions[0]?.name} ${summary.topFunctions[0]?.percent}%`,
      );
    } else {
      results.notes.push(`profile ${name} was not written`);
    }
  }
}

/** Least-squares slope of y over x. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}
