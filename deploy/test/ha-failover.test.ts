// deploy/ha under faults (issue 30 item 4): payments and refunds stream through two Paygate API
// processes, a delivery worker and the scheduler, all on HAProxy's address in front of a
// two-member Patroni cluster (three etcd members on the v2 API, synchronous replication), while
// the test kills the leader's postmaster, loses the leader node, and freezes then thaws the
// leader. After each fault: every payment and refund answered 2xx is in the database with its
// answered state, nobody is charged twice (the simulator's books), every event reached the
// receiver, and `paygate reconcile` finds nothing. The seconds without writes are printed
// (docs/operations.md records them).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createSimConnector } from '../../packages/server/src/gateways/sim/connector.ts';
import { simSecrets } from '../../packages/server/src/gateways/sim/secrets.ts';
import type { PaygateProcess } from '../../packages/server/test/support/processes.ts';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../packages/server/test/support/webhook-receiver.ts';
import { type HaCluster, type HaMember, startHaCluster } from './ha-cluster.ts';
import { type Stream, startStream } from './ha-stream.ts';
import { buildCli, deployTestsEnabled, freePort, startBuiltPaygate, until } from './support.ts';

const ADMIN = `adm_${randomBytes(16).toString('hex')}`;
const FINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELED']);

if (deployTestsEnabled('deploy/test/ha-failover.test.ts')) {
  describe('deploy/ha: a two-member Patroni cluster (etcd v2, synchronous) behind HAProxy, under faults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-ha-'));
    // The members run as the postgres user: it must reach their directories.
    chmodSync(dir, 0o755);
    let cluster: HaCluster;
    let receiver: WebhookReceiver;
    let databaseUrl = '';
    let env: Record<string, string> = {};
    let apiUrls: string[] = [];
    let apiKey = '';
    const processes: PaygateProcess[] = [];
    const figures: string[] = [];

    const query = async <Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
      await client.connect();
      try {
        return (await client.query<Row>(sql, params)).rows;
      } finally {
        await client.end();
      }
    };
    const admin = async (path: string, body: unknown) => {
      const response = await fetch(`${apiUrls[0]}${path}`, {
        method: 'POST',
        headers: { 'x-admin-token': ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };

    before(async () => {
      // The built CLI, as production runs it (and its processes start in seconds, not tens of them).
      buildCli();
      let started = performance.now();
      cluster = await startHaCluster(join(dir, 'cluster'));
      await cluster.healthy().catch((error: unknown) => {
        throw new Error(`${String(error)}\n${cluster.logs()}`);
      });
      figures.push(
        `cluster up (leader and synchronous standby) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      // Paygate's own role and database, created through HAProxy on whichever member leads.
      const password = randomBytes(12).toString('hex');
      const superuser = new pg.Client({
        connectionString: `postgres://postgres:${cluster.superuserPassword}@127.0.0.1:${cluster.haproxyPort}/postgres`,
      });
      await until('PostgreSQL through HAProxy', async () => {
        await superuser.connect();
        return true;
      });
      await superuser.query(`CREATE ROLE paygate LOGIN PASSWORD '${password}'`);
      await superuser.query('CREATE DATABASE paygate OWNER paygate');
      await superuser.end();
      databaseUrl = `postgres://paygate:${password}@127.0.0.1:${cluster.haproxyPort}/paygate`;

      started = performance.now();
      receiver = await startWebhookReceiver();
      const simPort = await freePort();
      apiUrls = [`http://127.0.0.1:${await freePort()}`, `http://127.0.0.1:${await freePort()}`];
      env = {
        PAYGATE_DATABASE_URL: databaseUrl,
        PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
        PAYGATE_ADMIN_TOKEN: ADMIN,
        PAYGATE_PUBLIC_URL: apiUrls[0] ?? '',
        PAYGATE_SIM_PORT: String(simPort),
        PAYGATE_SIM_URL: `http://127.0.0.1:${simPort}`,
        // The books must outlive the test clock's settling jumps of the three faults.
        PAYGATE_SIM_RETENTION_SECONDS: '31536000',
        PAYGATE_TEST_CLOCK: '1',
        PAYGATE_RATE_LIMIT_PER_SECOND: '100000',
        PAYGATE_WEBHOOK_POLL_MS: '500',
      };
      const migrate = startBuiltPaygate('migrate', ['migrate'], env);
      assert.equal(await migrate.exited(), 0, migrate.output());
      const sim = startBuiltPaygate('sim', ['sim'], env);
      processes.push(sim);
      await sim.printed('Simulated gateway listening');
      apiUrls.forEach((url, i) => {
        processes.push(
          startBuiltPaygate(`api-${i}`, ['start', `--role=${i === 0 ? 'api-main' : 'api'}`], {
            ...env,
            PORT: new URL(url).port,
          }),
        );
      });
      processes.push(
        startBuiltPaygate('worker', ['start', '--role=worker'], { ...env, PAYGATE_LOG_LEVEL: 'info' }),
      );
      processes.push(startBuiltPaygate('scheduler', ['start', '--role=scheduler'], env));
      for (const url of apiUrls) {
        await until(`${url}/healthz`, async () => (await fetch(`${url}/healthz`)).ok, 120_000);
      }
      await processes[3]?.printed('webhook delivery worker started');
      const merchant = await admin('/admin/v1/merchants', { name: 'HA test shop' });
      apiKey = (merchant.api_keys as { secret_test: string }).secret_test;
      await admin(`/admin/v1/merchants/${merchant.id}/webhook-endpoints`, {
        url: receiver.url,
        livemode: false,
      });
      figures.push(`Paygate processes up in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    });

    after(async () => {
      process.stdout.write(`${figures.join('\n')}\n`);
      await Promise.all(processes.map((p) => p.stop()));
      await receiver?.close();
      await cluster?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Streams, injects the fault, waits for writes to come back, stops the stream, checks the books. */
    async function underFault(
      name: string,
      fault: (leader: HaMember) => Promise<void>,
      restore: (leader: HaMember) => Promise<void>,
    ) {
      const leader = await cluster.leader();
      const stream: Stream = startStream(apiUrls, apiKey);
      try {
        await until('payments flowing', async () => stream.answeredWrites() >= 10, 60_000);
        const faultAt = performance.now();
        await fault(leader);
        const backAt = await until(
          'a write answered after the fault',
          async () => stream.firstWriteStartedAfter(faultAt),
          120_000,
        );
        const seconds = (backAt - faultAt) / 1000;
        // The old leader comes back while payments still flow: it must rejoin, not lead beside the new one.
        await restore(leader);
        await cluster.healthy();
        await sleep(3000);
        await stream.stop();
        figures.push(
          `${name}: writes back after ${seconds.toFixed(1)} s; ${stream.intents.size} payments, ${stream.refunds.size} refunds answered, ${stream.failures()} requests failed`,
        );
        await checkBooks(stream);
      } catch (error) {
        await stream.stop();
        process.stderr.write(`${name} failed; cluster:\n${cluster.logs()}\n`);
        for (const p of processes) process.stderr.write(`--- ${p.name}\n${p.output().slice(-3000)}\n`);
        throw error;
      }
    }

    async function checkBooks(stream: Stream) {
      await settle();
      await checkAnswered(stream);
      await checkGatewayBooks();
      await checkDeliveredAndReconciled();
    }

    async function settle() {
      // Let the scheduler settle what a cut-off confirm left open (the test clock moves its checks).
      await until(
        'nothing left open',
        async () => {
          await admin('/admin/v1/test-clock/advance', { seconds: 3600 * 6 });
          const [row] = await query<{ open: number }>(
            `SELECT (SELECT count(*)::int FROM payment_intents WHERE status = 'PROCESSING')
                  + (SELECT count(*)::int FROM refunds WHERE status = 'PENDING')
                  + (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'PENDING') AS open`,
          );
          return row?.open === 0;
        },
        120_000,
      );
    }

    /** Every payment and refund answered 2xx is stored, in the final state it was answered with. */
    async function checkAnswered(stream: Stream) {
      const intents = await query<{ id: string; status: string }>(
        'SELECT id, status FROM payment_intents WHERE id = ANY($1)',
        [[...stream.intents.keys()]],
      );
      const stored = new Map(intents.map((row) => [row.id, row.status]));
      for (const [id, answered] of stream.intents) {
        assert.ok(stored.has(id), `payment ${id} answered ${answered} is missing`);
        if (FINAL.has(answered)) assert.equal(stored.get(id), answered, `payment ${id} answered ${answered}`);
      }
      const refunds = await query<{ id: string; status: string }>(
        'SELECT id, status FROM refunds WHERE id = ANY($1)',
        [[...stream.refunds.keys()]],
      );
      const storedRefunds = new Map(refunds.map((row) => [row.id, row.status]));
      for (const [id, answered] of stream.refunds) {
        assert.ok(storedRefunds.has(id), `refund ${id} answered ${answered} is missing`);
        if (answered !== 'PENDING')
          assert.equal(storedRefunds.get(id), answered, `refund ${id} answered ${answered}`);
      }
    }

    /** The simulator's books: at most one successful charge per payment, and each is SUCCEEDED here. */
    async function checkGatewayBooks() {
      const secrets = simSecrets(Buffer.from(env.PAYGATE_MASTER_KEY ?? '', 'hex'));
      const connector = createSimConnector({
        baseUrl: env.PAYGATE_SIM_URL ?? '',
        apiSecret: secrets.apiSecret,
        notificationSecret: secrets.notificationSecret,
        clock: { now: () => new Date() },
      });
      const books = await connector.readBooks?.({ from: new Date('2000-01-01'), to: new Date('2100-01-01') });
      assert.ok(books, 'the simulator keeps books');
      const charged = new Map<string, number>();
      for (const charge of books.charges.filter((c) => c.status === 'succeeded')) {
        const intentId = charge.idempotencyKey.split(':attempt:')[0] ?? '';
        charged.set(intentId, (charged.get(intentId) ?? 0) + 1);
      }
      assert.deepEqual(
        [...charged].filter(([, count]) => count > 1),
        [],
        'payments charged twice at the gateway',
      );
      const succeeded = await query<{ id: string }>(
        "SELECT id FROM payment_intents WHERE status = 'SUCCEEDED'",
      );
      assert.deepEqual(
        [...charged.keys()].filter((id) => !succeeded.some((row) => row.id === id)),
        [],
        'charged at the gateway but not SUCCEEDED here',
      );
    }

    async function checkDeliveredAndReconciled() {
      // Every event reached the receiver.
      const events = await query<{ id: string }>('SELECT id FROM events WHERE livemode = false');
      await until(
        'every event delivered',
        async () => {
          const received = new Set(
            receiver.received.map((d) => (JSON.parse(d.rawBody.toString('utf8')) as { id?: string }).id),
          );
          return events.every((event) => received.has(event.id));
        },
        90_000,
      );

      const reconcile = startBuiltPaygate(
        'reconcile',
        ['reconcile', '--json', '--dry-run', '--from', '2000-01-01T00:00:00Z'],
        env,
      );
      const code = await reconcile.exited();
      const report = JSON.parse(reconcile.output()) as { differences: unknown[] };
      assert.deepEqual(report.differences, [], 'paygate reconcile found differences');
      assert.equal(code, 0);
    }

    const signal = (pids: number[], name: string) => {
      for (const pid of pids) spawnSync('kill', [`-${name}`, String(pid)]);
    };

    it("kills the leader's postmaster: Patroni starts it again, nothing answered is lost", async () => {
      await underFault(
        "leader's postmaster killed",
        async (leader) => {
          const pid = cluster.postmasterPid(leader);
          assert.ok(pid, 'the leader has a postmaster');
          signal([pid], 'KILL');
        },
        async () => {},
      );
    });

    it('loses the leader node (Patroni and PostgreSQL killed): the synchronous standby takes over', async () => {
      await underFault(
        'leader node lost',
        async (leader) => signal(cluster.nodePids(leader), 'KILL'),
        async (leader) => {
          // The machine comes back: its Patroni rejoins as a replica (pg_rewind if needed).
          cluster.startMember(leader);
        },
      );
    });

    it('freezes the leader (SIGSTOP) past its TTL, then thaws it: it demotes itself, no split brain', async () => {
      let frozen: number[] = [];
      await underFault(
        'leader frozen, then thawed',
        async (leader) => {
          frozen = cluster.nodePids(leader);
          signal(frozen, 'STOP');
        },
        async (leader) => {
          const next = await until('the other member to lead', async () => {
            const current = await cluster.leader();
            return current.name !== leader.name ? current : null;
          });
          await sleep(5000);
          signal(frozen, 'CONT');
          await until('the thawed member not to answer /primary', async () => {
            const response = await fetch(`http://127.0.0.1:${leader.apiPort}/primary`, {
              signal: AbortSignal.timeout(2000),
            }).catch(() => null);
            return response !== null && response.status !== 200;
          });
          assert.equal((await cluster.leader()).name, next.name);
        },
      );
    });
  });
}
