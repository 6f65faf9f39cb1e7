// An upgrade under load (docs/operations.md, "Upgrades and rolling restarts"): the previous release
// (deploy/previous-release, a commit of this repository's history) is built as production builds
// it and serves payments, refunds and webhooks on PostgreSQL through a balancer; this checkout's
// `paygate migrate` applies the migrations added since while those processes keep serving; this
// checkout's API processes start and join the balancer; the previous ones leave it and stop; then
// the worker and the scheduler are rolled; then the same steps roll back to the previous release
// on the expanded schema. No request may fail, every payment and refund answered reads back as
// answered, every event reaches the merchant's endpoint, and `paygate reconcile` finds nothing.
// A migration that breaks the previous release's processes fails this test.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  MIGRATIONS_PATH,
  migrationsAt,
  previousRelease,
} from '../../packages/server/test/support/previous-release.ts';
import { type PaygateProcess, startPaygate } from '../../packages/server/test/support/processes.ts';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../packages/server/test/support/webhook-receiver.ts';
import { startBalancer } from './balancer.ts';
import {
  createMerchant,
  deployTestsEnabled,
  freePort,
  hostDatabase,
  repoRoot,
  run,
  secrets,
  until,
} from './support.ts';

const CUSTOMERS = 3;
/** Payments answered in each phase before the next step: each phase must have carried traffic. */
const PER_PHASE = 8;

/**
 * The previous release as production builds it: its files from git (no checkout of the
 * repository changes), its own lock file's dependencies, `npm run build`. Kept between runs in
 * the temporary directory, per commit.
 */
function buildRelease(commit: string): string {
  const root = join(tmpdir(), 'paygate-releases', commit);
  if (existsSync(join(root, '.paygate-built'))) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  run('sh', ['-c', `git archive --format=tar ${commit} | tar -x -C '${root}'`]);
  // The build needs the development dependencies (esbuild, tsx) whatever NODE_ENV says here.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV'));
  // `npm install`, not `npm ci`: an older release's lock may lack entries today's npm wants listed
  // (a37b17c's has only this platform's Biome package); install keeps every locked version and
  // only adds what is missing.
  run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: root,
    env,
    timeoutMs: 1_200_000,
  });
  run('npm', ['run', 'build', '--silent'], { cwd: root, env });
  writeFileSync(join(root, '.paygate-built'), `${commit}\n`);
  return root;
}

interface Answered {
  amount: number;
  status: string;
  refunded: number;
}

if (deployTestsEnabled('deploy/test/upgrade.test.ts')) {
  describe('an upgrade from the previous release under load', () => {
    const processes: PaygateProcess[] = [];
    const cleanups: (() => Promise<unknown>)[] = [];
    const figures: string[] = [];
    after(async () => {
      process.stdout.write(`${figures.join('\n')}\n`);
      await Promise.all(processes.map((p) => p.stop()));
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    let previousMain: string;
    let newMain: string;
    before(() => {
      const commit = previousRelease();
      let started = performance.now();
      previousMain = join(buildRelease(commit), 'packages/server/dist/main.js');
      figures.push(`previous release ${commit.slice(0, 12)} built in ${seconds(started)} s`);
      started = performance.now();
      run('npm', ['run', 'build', '--silent']);
      newMain = join(repoRoot, 'packages/server/dist/main.js');
      figures.push(`this checkout built in ${seconds(started)} s`);
    });

    it('serves every request while the new schema is applied, the API processes and workers are replaced, and back', async () => {
      const startedAt = performance.now();
      const commit = previousRelease();
      const database = await hostDatabase();
      cleanups.push(database.drop);
      const receiver: WebhookReceiver = await startWebhookReceiver();
      cleanups.push(() => receiver.close());
      const ports = async () => [await freePort(), await freePort()] as const;
      const [old1, old2] = await ports();
      const [new1, new2] = await ports();
      const [back1, back2] = await ports();
      const simPort = await freePort();
      const balancer = await startBalancer([old1, old2]);
      cleanups.push(balancer.close);
      const env = {
        ...secrets(),
        PAYGATE_DATABASE_URL: database.url,
        PAYGATE_SIM_PORT: String(simPort),
        PAYGATE_SIM_URL: `http://127.0.0.1:${simPort}`,
        PAYGATE_PUBLIC_URL: balancer.url,
        // The upgrade's order: migrations run as their own step, never at a process's start.
        PAYGATE_MIGRATE_ON_START: 'false',
        PAYGATE_RATE_LIMIT_PER_SECOND: '100000',
        PAYGATE_WEBHOOK_POLL_MS: '500',
      };
      const previous = (name: string, args: string[], extra: Record<string, string> = {}) => {
        const started = startPaygate(`previous ${name}`, args, { ...env, ...extra }, { main: previousMain });
        processes.push(started);
        return started;
      };
      const current = (name: string, args: string[], extra: Record<string, string> = {}) => {
        const started = startPaygate(`new ${name}`, args, { ...env, ...extra }, { main: newMain });
        processes.push(started);
        return started;
      };
      const ready = (port: number) =>
        until(`API ${port} ready`, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
      const exitedCleanly = async (process: PaygateProcess) => {
        await process.stop();
        assert.equal(await process.exited(), 0, `${process.name} did not stop cleanly:\n${process.output()}`);
      };

      // The previous release in production: its schema, two API processes, its worker and scheduler.
      const oldMigrate = previous('migrate', ['migrate']);
      assert.equal(await oldMigrate.exited(), 0, oldMigrate.output());
      // The gateway is outside the upgrade: the simulator runs throughout.
      const sim = current('sim', ['sim']);
      await sim.printed('Simulated gateway listening');
      const oldApis = [previous('api 1', ['start', '--role=api'], { PORT: String(old1) })];
      oldApis.push(previous('api 2', ['start', '--role=api'], { PORT: String(old2) }));
      const oldWorker = previous('worker', ['start', '--role=worker'], { PAYGATE_LOG_LEVEL: 'info' });
      const oldScheduler = previous('scheduler', ['start', '--role=scheduler']);
      await Promise.all([ready(old1), ready(old2), oldWorker.printed('webhook delivery worker started')]);
      const merchant = await createMerchant(balancer.url, env.PAYGATE_ADMIN_TOKEN);
      const endpoint = await fetch(`${balancer.url}/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
        method: 'POST',
        headers: { 'x-admin-token': env.PAYGATE_ADMIN_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, livemode: false }),
      });
      assert.ok(endpoint.ok, await endpoint.text());

      const stream = startStream(balancer.url, merchant.key);
      cleanups.push(() => stream.stop());
      const phase = async (name: string) => {
        const before = stream.answeredPayments();
        const started = performance.now();
        await until(
          `${PER_PHASE} payments answered ${name}`,
          async () => stream.answeredPayments() >= before + PER_PHASE || stream.failures.length > 0,
          180_000,
        );
        assert.deepEqual(stream.failures, [], `requests failed ${name}`);
        figures.push(`${name}: ${stream.answeredPayments() - before} payments in ${seconds(started)} s`);
      };
      await phase('on the previous release');

      // 1. Migrate with the new release while the previous one serves.
      let started = performance.now();
      const migrate = current('migrate', ['migrate']);
      assert.equal(await migrate.exited(), 0, migrate.output());
      const released = migrationsAt(commit);
      const expected = migrationNames().filter((name) => !released.has(`${name}.sql`));
      assert.ok(expected.length > 0, 'no migration since the previous release: nothing would be tested');
      assert.match(migrate.output(), new RegExp(`applied: ${expected.join(', ')}`));
      figures.push(`migrations ${expected.join(', ')} applied under load in ${seconds(started)} s`);
      await phase('by the previous release on the new schema');

      // 2. The new API processes start and join the balancer beside the previous ones.
      started = performance.now();
      const newApis = [current('api 1', ['start', '--role=api'], { PORT: String(new1) })];
      newApis.push(current('api 2', ['start', '--role=api'], { PORT: String(new2) }));
      await Promise.all([ready(new1), ready(new2)]);
      balancer.setServers([old1, new1, old2, new2]);
      figures.push(`new API processes ready in ${seconds(started)} s`);
      await phase('by both releases side by side');

      // 3. The previous API processes leave the balancer, finish what they have and stop.
      balancer.setServers([new1, new2]);
      for (const api of oldApis) await exitedCleanly(api);
      await phase('by the new API processes with the previous worker');

      // 4. Then the worker and the scheduler.
      const newWorker = current('worker', ['start', '--role=worker'], { PAYGATE_LOG_LEVEL: 'info' });
      const newScheduler = current('scheduler', ['start', '--role=scheduler']);
      await newWorker.printed('webhook delivery worker started');
      await exitedCleanly(oldWorker);
      await exitedCleanly(oldScheduler);
      await phase('by the new release alone');

      // 5. A rollback: the previous release again, on the expanded schema and the rows the new
      // release wrote (nothing is migrated back), in the same order.
      started = performance.now();
      const backApis = [previous('api 1 again', ['start', '--role=api'], { PORT: String(back1) })];
      backApis.push(previous('api 2 again', ['start', '--role=api'], { PORT: String(back2) }));
      await Promise.all([ready(back1), ready(back2)]);
      balancer.setServers([back1, back2]);
      for (const api of newApis) await exitedCleanly(api);
      const backWorker = previous('worker again', ['start', '--role=worker'], { PAYGATE_LOG_LEVEL: 'info' });
      const backScheduler = previous('scheduler again', ['start', '--role=scheduler']);
      await backWorker.printed('webhook delivery worker started');
      await exitedCleanly(newWorker);
      await exitedCleanly(newScheduler);
      figures.push(`rolled back in ${seconds(started)} s`);
      await phase('after a rollback to the previous release');
      await stream.stop();
      assert.deepEqual(stream.failures, [], 'requests failed');

      // Every payment and refund answered reads back as answered.
      const read = async (path: string) => {
        const response = await fetch(`${balancer.url}${path}`, { headers: { 'x-api-key': merchant.key } });
        assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
        return (await response.json()) as Record<string, unknown>;
      };
      for (const [id, amount] of stream.refunds) {
        await until(
          `refund ${id} settled`,
          async () => (await read(`/v1/refunds/${id}`)).status === 'SUCCEEDED',
          60_000,
        );
        assert.equal((await read(`/v1/refunds/${id}`)).amount_minor, amount);
      }

      for (const [id, answered] of stream.intents) {
        const intent = await read(`/v1/payment-intents/${id}`);
        assert.deepEqual(
          { status: intent.status, amount: intent.amount_minor, refunded: intent.amount_refunded_minor },
          answered,
          `payment ${id}`,
        );
      }
      // Every event reached the merchant's endpoint, whichever release's worker sent it.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const events = (await client.query<{ id: string; type: string }>('SELECT id, type FROM events')).rows;
      await client.end();
      const succeeded = events.filter((event) => event.type === 'payment_intent.succeeded').length;
      assert.equal(succeeded, stream.intents.size, 'one payment_intent.succeeded per payment');
      await until(
        'every event delivered',
        async () => {
          const received = new Set(
            receiver.received.map((d) => (JSON.parse(d.rawBody.toString('utf8')) as { id: string }).id),
          );
          return events.every((event) => received.has(event.id));
        },
        120_000,
      );

      // The gateway's books and Paygate's agree.
      const reconcile = current('reconcile', [
        'reconcile',
        '--json',
        '--dry-run',
        '--from',
        '2000-01-01T00:00:00Z',
      ]);
      assert.equal(await reconcile.exited(), 0, reconcile.output());
      const report = JSON.parse(reconcile.output()) as {
        differences: unknown[];
        gateways: { charges: number }[];
      };
      assert.deepEqual(report.differences, [], 'paygate reconcile found differences');
      assert.equal(report.gateways[0]?.charges, stream.intents.size);

      for (const process of [backWorker, backScheduler, ...backApis]) await exitedCleanly(process);
      figures.push(
        `upgrade test: ${stream.intents.size} payments, ${stream.refunds.size} refunds, ${events.length} events, ${seconds(startedAt)} s`,
      );
    });
  });
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

/** This checkout's migration names, in order (as `paygate migrate` prints them). */
function migrationNames(): string[] {
  return readdirSync(join(repoRoot, MIGRATIONS_PATH))
    .filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name))
    .map((name) => name.replace(/\.sql$/, ''))
    .sort();
}

/**
 * Customers paying through the balancer: create, confirm, and for every third payment a partial
 * refund. What was answered 2xx is remembered; anything else is a failure, with its answer.
 */
function startStream(baseUrl: string, key: string) {
  const intents = new Map<string, Answered>();
  const refunds = new Map<string, number>();
  const failures: string[] = [];
  let running = true;
  let count = 0;
  const post = async (path: string, body: unknown, idempotencyKey?: string) => {
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      if (!response.ok) {
        failures.push(`${path}: ${response.status} ${text.slice(0, 300)}`);
        return null;
      }
      return JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      failures.push(`${path}: ${String(error)}`);
      return null;
    }
  };
  const customer = async (n: number) => {
    for (let i = 0; running; i++) {
      // Ending in 50: an amount ending in 13 is the simulator's delayed charge (PROCESSING).
      const amount = 1050 + 100 * ((n * 31 + i * 17) % 90);
      const idempotencyKey = `upgrade-${n}-${i}-${Date.now()}`;
      const created = await post(
        '/v1/payment-intents',
        { amount_minor: amount, currency: 'USD', gateway_id: 'sim' },
        idempotencyKey,
      );
      if (!created) continue;
      const id = String(created.id);
      const confirmed = await post(`/v1/payment-intents/${id}/confirm`, {
        payment_method_token: 'tok_sim_approve',
      });
      if (!confirmed) continue;
      if (confirmed.status !== 'SUCCEEDED') {
        failures.push(`payment ${id} answered ${String(confirmed.status)}`);
        continue;
      }
      const answered = { status: 'SUCCEEDED', amount, refunded: 0 };
      intents.set(id, answered);
      count += 1;
      if (i % 3 === 2) {
        const refund = await post(
          '/v1/refunds',
          { payment_intent_id: id, amount_minor: 500 },
          `${idempotencyKey}-refund`,
        );
        if (refund) {
          refunds.set(String(refund.id), 500);
          answered.refunded = 500;
        }
      }
    }
  };
  const customers = Array.from({ length: CUSTOMERS }, (_, n) => customer(n));
  let stopped: Promise<unknown> | null = null;
  return {
    intents,
    refunds,
    failures,
    answeredPayments: () => count,
    stop() {
      running = false;
      stopped ??= Promise.all(customers);
      return stopped;
    },
  };
}
