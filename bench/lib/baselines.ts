import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePaymentSqlScript } from './payment-sql-script.ts';
import { hasPgbench, runPgbench } from './pgbench.ts';
import { withClient } from './postgres.ts';
import {
  type NodeChild,
  onFreePorts,
  repoRoot,
  startNodeChild,
  stopIfNotReady,
  waitForHttp,
} from './processes.ts';
import type { BenchResults } from './results.ts';
import { createRequests } from './scenarios.ts';
import { CONNECTION_LEVELS, describe, measure } from './service-scenarios.ts';
import { capturePaymentTrace } from './statement-trace.ts';
import type { PostgresBench, SuiteOptions } from './suites.ts';
import { sampleWaits } from './wait-sampler.ts';

/** Dead rows vacuumed, statistics analysed, dirty pages written out: what autovacuum would keep. */
async function steadyDatabase(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query('VACUUM (ANALYZE)');
    await client.query('CHECKPOINT');
  });
}

async function startBaseline(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: NodeChild; baseUrl: string }> {
  return onFreePorts(1, async ([port]) => {
    const child = startNodeChild(name, [script], { ...env, PORT: String(port) });
    const baseUrl = `http://127.0.0.1:${port}`;
    await stopIfNotReady(child, waitForHttp(`${baseUrl}/readyz`, child));
    return { child, baseUrl };
  });
}

/**
 * The parameters of payment-sql.pgbench besides the merchant and the per-payment number. Its
 * instants are fixed and in the past, so its deliveries are due at once for its own claims and
 * never for the service's (whose "now" is later); the ones left unacknowledged when pgbench stops
 * are retired after the run (see PAYMENT_SQL_CLEANUP).
 */
const PAYMENT_SQL_T0 = '2026-01-01T00:00:00Z';
const PAYMENT_SQL_VARIABLES = {
  livemode: 'false',
  amount: '2500',
  currency: 'USD',
  created: 'CREATED',
  succeeded: 'SUCCEEDED',
  charging: 'CHARGING',
  pending: 'PENDING',
  approved: 'APPROVED',
  payment: 'PAYMENT',
  gateway: 'sim',
  metadata: '{}',
  zero: '0',
  one: '1',
  t0: PAYMENT_SQL_T0,
  t1: '2026-01-01T00:00:01Z',
  lease: '2026-01-01T00:10:00Z',
  expires: '2026-01-02T00:00:00Z',
  post: 'POST',
  path: '/v1/payment-intents',
  reqhash: 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
  status200: '200',
  body: 'x'.repeat(520),
  token: 'tok_sim_visa',
  gwref: 'ch_sim_pgbench',
  eventtype: 'payment_intent.succeeded',
  payload: JSON.stringify({ id: 'evt_pgbench', object: 'event', pad: 'x'.repeat(900) }),
  channel: 'paygate_events',
  claimtoken: 'pgbench',
  // The service claims 50 due deliveries per statement when work trickles in (batchSize) and
  // acknowledges a claim's attempts in one statement; the script does the same once per 50 payments.
  batch: '50',
};
const PAYMENT_SQL_CLEANUP = `UPDATE webhook_deliveries SET next_attempt_at = NULL, claim_token = NULL
  WHERE created_at = '${PAYMENT_SQL_T0}' AND next_attempt_at IS NOT NULL`;

/**
 * The three limits every figure is compared with, measured in the same run on the same machine:
 * the HTTP limit (bare Fastify, canned JSON), the database limit (pgbench with the create's SQL),
 * and the minimal service (Fastify + pg doing only the create transaction).
 */
export async function runBaselines(
  pg: PostgresBench,
  options: SuiteOptions,
  results: BenchResults,
): Promise<void> {
  const d = options.durationSeconds;
  // The two HTTP baselines take the same creates as the service, at the same concurrencies.
  const servers = [
    { scenario: 'http-limit', name: 'bare fastify', script: 'bench/baselines/bare-http.ts', env: {} },
    {
      scenario: 'minimal-create',
      name: 'minimal service',
      script: 'bench/baselines/minimal-service.ts',
      env: { DATABASE_URL: pg.url },
    },
  ];
  for (const server of servers) {
    const { child, baseUrl } = await startBaseline(server.name, server.script, server.env);
    try {
      for (const c of CONNECTION_LEVELS) {
        const target = { system: 'baseline', pid: child.pid, baseUrl } as const;
        const run = await measure(target, server.scenario, c, d, createRequests(pg.merchant), true);
        results.runs.push(run);
        options.log(describe(run));
      }
    } finally {
      await child.stop();
    }
  }

  if (!hasPgbench()) {
    results.notes.push('pgbench is not installed (apt-get install postgresql-contrib): no database limit');
    return;
  }
  const keyhash = createHash('sha256').update(pg.merchant.secretKey).digest('hex');
  // payment-sql.pgbench is written from what the service sends now (bench/lib/payment-sql-script.ts);
  // a full run also keeps it in bench/baselines/ for reading. Without a capture, the kept one runs.
  let paymentSql = join(repoRoot, 'bench/baselines/payment-sql.pgbench');
  let paymentSqlVariables: Record<string, string> = {};
  if (pg.webhookSecret) {
    try {
      const { trace } = await capturePaymentTrace({
        databaseUrl: pg.url,
        tmpDir: options.tmpDir,
        seconds: options.smoke ? 2 : 3,
        log: options.log,
      });
      const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
        cwd: repoRoot,
        encoding: 'utf8',
      }).trim();
      const written = writePaymentSqlScript(
        trace,
        [
          '-- The SQL of one whole payment as the service sends it: WRITTEN BY THE BENCH (bench/lib/payment-sql-script.ts)',
          `-- from the statements the service of ${commit} sent for ${trace.payments} payments of the full flow, on ${results.date}.`,
          '-- :n is one random number per payment (its ids, keys and locks); :pN are the captured values of the other',
          '-- parameters, passed with -D by bench/lib/baselines.ts. The code before issue 33: payment-sql-before.pgbench.',
        ].join('\n'),
      );
      paymentSql = join(options.tmpDir, 'payment-sql.pgbench');
      writeFileSync(paymentSql, written.script);
      // Its -D values beside it, so the script can be rerun by hand (pgbench -D from this JSON).
      writeFileSync(
        join(options.tmpDir, 'payment-sql.variables.json'),
        JSON.stringify({ merchant: pg.merchant.id, ...PAYMENT_SQL_VARIABLES, ...written.variables }, null, 1),
      );
      if (!options.smoke)
        writeFileSync(join(repoRoot, 'bench/baselines/payment-sql.pgbench'), written.script);
      paymentSqlVariables = written.variables;
      options.log(
        `payment-sql.pgbench written from the service: ${written.statements} statements per payment in ${written.transactions} transactions, plus the worker's batched tail`,
      );
    } catch (error) {
      results.notes.push(
        `payment-sql.pgbench could not be written from the service (${error instanceof Error ? error.message.slice(0, 200) : String(error)}): the kept script ran`,
      );
    }
  }
  const variants = [
    { script: 'create-same-sql.pgbench', protocol: 'extended', clients: CONNECTION_LEVELS },
    { script: 'create-same-sql.pgbench', protocol: 'prepared', clients: [10] },
    { script: 'create-one-statement.pgbench', protocol: 'prepared', clients: CONNECTION_LEVELS },
    // One whole payment's SQL needs a webhook endpoint to queue its delivery (the flow registers it).
    // The old script (the SQL before issue 33) beside the new one, so the gain of the SQL itself shows.
    ...(pg.webhookSecret
      ? ([
          { script: 'payment-sql.pgbench', protocol: 'prepared', clients: CONNECTION_LEVELS },
          { script: 'payment-sql-before.pgbench', protocol: 'prepared', clients: CONNECTION_LEVELS },
        ] as const)
      : []),
  ] as const;
  for (const variant of variants) {
    for (const clients of variant.clients) {
      let result: Awaited<ReturnType<typeof runPgbench>>;
      // Each run starts from a steady database: this machine's PostgreSQL runs with autovacuum off
      // (conf.d/90-ci.conf), so without this every run would inherit the dead rows and stale
      // statistics of the scenarios and runs before it, which a production server's autovacuum
      // would have cleared (the 50-client run always came after the 10-client one).
      await steadyDatabase(pg.url);
      // Where a payment script's backends wait, sampled through the run (bench/lib/wait-sampler.ts).
      const waits = variant.script.startsWith('payment-sql') ? await sampleWaits(pg.url) : null;
      try {
        result = await runPgbench({
          database: pg.database,
          scriptPath:
            variant.script === 'payment-sql.pgbench'
              ? paymentSql
              : join(repoRoot, 'bench/baselines', variant.script),
          clients,
          durationSeconds: d,
          protocol: variant.protocol,
          variables: {
            keyhash,
            merchant: pg.merchant.id,
            ...PAYMENT_SQL_VARIABLES,
            ...(variant.script === 'payment-sql.pgbench' ? paymentSqlVariables : {}),
          },
          logDir: options.tmpDir,
        });
      } catch (error) {
        // PostgreSQL is shared (max_connections); one failed variant must not lose the whole run.
        const reason =
          error instanceof Error
            ? (error.message.split('\n').find((l) => l.includes('error')) ?? error.message)
            : String(error);
        results.notes.push(
          `pgbench ${variant.script} -M ${variant.protocol} c=${clients} failed: ${reason.slice(0, 200)}`,
        );
        options.log(`pgbench ${variant.script} c=${clients} failed`);
        await waits?.stop();
        continue;
      }
      if (waits) {
        const waited = await waits.stop();
        results.notes.push(
          `pgbench ${variant.script} c=${clients}: ${result.tps} tps; backends sampled: ${waited}`,
        );
        options.log(`pgbench ${variant.script} c=${clients} waits: ${waited}`);
      }
      results.pgbench.push(result);
      options.log(
        `pgbench ${result.script} ${result.protocol} c=${clients}: ${result.tps} tps p50 ${result.p50Ms} p99 ${result.p99Ms} ms, failed ${result.failed}`,
      );
    }
  }
  // The deliveries of payments pgbench stopped in the middle of must not reach the receiver later.
  if (pg.webhookSecret) await withClient(pg.url, (c) => c.query(PAYMENT_SQL_CLEANUP));
}
