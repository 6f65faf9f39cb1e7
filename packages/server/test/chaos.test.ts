// Issue 12 item 6: the chaos test. Three API processes and three delivery workers on one
// PostgreSQL database share one simulated gateway; a seeded stream of creates, confirms
// (approve, decline, challenge, hang, delayed), cancels and refunds goes through the reference
// client (its retries) while processes are SIGKILLed and database backends terminated. Then
// everything is restarted, the workers and the test clock settle it, and the books are checked.
// Runs when PAYGATE_TEST_DATABASE_URL is set; PAYGATE_CHAOS_LONG=1 runs longer,
// PAYGATE_CHAOS_SEED=<n> replays a seed (printed on failure).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Paygate, PaygateError } from '@paygate/node';
import { CHAOS_ADMIN_TOKEN, type Cluster, startCluster } from './support/chaos-cluster.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { eventually } from './support/eventually.ts';
import { startPaygate } from './support/processes.ts';

const LONG = process.env.PAYGATE_CHAOS_LONG === '1';
const INTENTS = LONG ? 600 : 90;
const CONCURRENCY = 6;
const SEED = Number(process.env.PAYGATE_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: a small seeded generator, so that a failing run can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`chaos: kills and dropped connections never unbalance the books (${kind}, seed ${SEED})`, () => {
    const random = seeded(SEED);
    let database: TestDatabase;
    let cluster: Cluster;
    let paygate: Paygate;
    const received = new Set<string>();
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string }).id;
        if (id) received.add(id);
        response.writeHead(200).end('ok');
      });
    });

    const admin = async (path: string, body: unknown) => {
      const response = await fetch(`${cluster.lbUrl}${path}`, {
        method: 'POST',
        headers: { 'x-admin-token': CHAOS_ADMIN_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    const query = async <Row>(sql: string, params: unknown[] = []) =>
      (await database.db.query<Row>(sql, params)).rows;

    before(async () => {
      database = await openTestDatabase('postgres');
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      cluster = await startCluster({ databaseUrl: database.url ?? '', apiProcesses: 3, workerProcesses: 3 });
      const merchant = await admin('/admin/v1/merchants', { name: 'Chaos' });
      const keys = merchant.json.api_keys as { secret_test: string };
      const { port } = receiver.address() as AddressInfo;
      const endpoint = await admin(`/admin/v1/merchants/${merchant.json.id}/webhook-endpoints`, {
        url: `http://127.0.0.1:${port}/hooks`,
        livemode: false,
      });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.json));
      paygate = new Paygate({
        apiKey: keys.secret_test,
        baseUrl: cluster.lbUrl,
        maxRetries: 6,
        timeoutMs: 20_000,
        random,
      });
    });
    after(async () => {
      await cluster?.stop();
      receiver.close();
      await database?.drop();
    });

    /** One customer's story: create, confirm with a behaviour, maybe cancel, maybe refund. */
    async function story(n: number): Promise<void> {
      const pick = random();
      // Delayed (amount-13) charges too may meet an outage: they must not stay PROCESSING.
      const delayed = random() < 0.12;
      const amountMinor = (10 + Math.floor(random() * 90)) * 100 + (delayed ? 13 : 0);
      const outcomes = delayed
        ? (['tok_sim_approve', 'tok_sim_decline', 'tok_sim_unavailable'] as const)
        : ([
            'tok_sim_approve',
            'tok_sim_decline',
            'tok_sim_challenge',
            'tok_sim_hang',
            'tok_sim_unavailable',
          ] as const);
      const weights = delayed ? [0.6, 0.8, 1] : [0.45, 0.6, 0.85, 0.93, 1];
      const token = outcomes[weights.findIndex((w) => pick < w)] ?? 'tok_sim_approve';
      // A quarter authorise now and capture later: captured, in part, voided, or left to lapse.
      const manual = random() < 0.25;
      const intent = await paygate.paymentIntents.create(
        {
          amount_minor: amountMinor,
          currency: 'USD',
          gateway_id: 'sim',
          ...(manual ? { capture_method: 'manual' as const } : {}),
        },
        { idempotencyKey: `chaos-${SEED}-${n}` },
      );
      let status: string = intent.status;
      let redirectUrl: string | null = null;
      try {
        const confirmed = await paygate.paymentIntents.confirm(intent.id, { payment_method_token: token });
        status = confirmed.status;
        redirectUrl = confirmed.redirect_url ?? null;
      } catch (error) {
        if (!(error instanceof PaygateError)) throw error;
        // A decline, an outage, or a confirm whose answer was lost: read what became of it.
        const read = await paygate.paymentIntents.retrieve(intent.id);
        status = read.status;
        redirectUrl = read.redirect_url ?? null;
      }
      if (status === 'REQUIRES_ACTION' && redirectUrl) {
        const choice = random();
        if (choice < 0.35) await cancelQuietly(intent.id);
        const decision = choice < 0.2 || (choice >= 0.35 && choice < 0.7) ? 'approve' : 'decline';
        // Some payers answer after the merchant canceled: a late capture.
        if (choice < 0.2 || choice >= 0.35) {
          await fetch(redirectUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `decision=${decision}`,
            redirect: 'manual',
          }).catch(() => undefined);
        }
      }
      if (manual && status === 'REQUIRES_CAPTURE') status = await captureOrVoid(intent.id, amountMinor, n);
      if (status === 'SUCCEEDED' && random() < 0.6) {
        const part = random();
        const amount = part < 0.15 ? 1013 : part < 0.25 ? 199 : 500;
        await refundQuietly(intent.id, amount, `chaos-${SEED}-${n}-r1`);
        if (random() < 0.5) await refundQuietly(intent.id, undefined, `chaos-${SEED}-${n}-r2`);
      }
    }
    /**
     * What a merchant does with an authorisation: capture all, capture part (an amount ending in 13,
     * whose answer the sim withholds, now and then), void it, or forget it until it lapses.
     */
    async function captureOrVoid(id: string, amountMinor: number, n: number): Promise<string> {
      const choice = random();
      try {
        if (choice < 0.4) {
          return (await paygate.paymentIntents.capture(id, {}, { idempotencyKey: `chaos-${SEED}-${n}-c` }))
            .status;
        }
        if (choice < 0.7) {
          const part = random() < 0.3 ? 1013 : Math.floor(amountMinor / 2);
          const captured = await paygate.paymentIntents.capture(
            id,
            { amount_minor: part },
            { idempotencyKey: `chaos-${SEED}-${n}-c` },
          );
          return captured.status;
        }
        if (choice < 0.85) return (await paygate.paymentIntents.cancel(id)).status;
      } catch (error) {
        if (!(error instanceof PaygateError)) throw error;
      }
      return (await paygate.paymentIntents.retrieve(id)).status;
    }
    async function cancelQuietly(id: string): Promise<void> {
      try {
        await paygate.paymentIntents.cancel(id);
      } catch (error) {
        if (!(error instanceof PaygateError)) throw error;
      }
    }
    async function refundQuietly(id: string, amountMinor: number | undefined, key: string): Promise<void> {
      try {
        await paygate.refunds.create(
          amountMinor === undefined
            ? { payment_intent_id: id }
            : { payment_intent_id: id, amount_minor: amountMinor },
          { idempotencyKey: key },
        );
      } catch (error) {
        if (!(error instanceof PaygateError)) throw error;
      }
    }

    it('keeps every intent, charge, refund, event and delivery in order', async () => {
      try {
        let done = 0;
        let next = 0;
        const clientErrors: string[] = [];
        const customers = Array.from({ length: CONCURRENCY }, async () => {
          while (next < INTENTS) {
            const n = next++;
            await story(n).catch((error: unknown) => {
              // Retries exhausted while everything was being killed: the client gave up, the
              // books must be right anyway.
              clientErrors.push(error instanceof Error ? error.message : String(error));
            });
            done += 1;
          }
        });
        const harm = (async () => {
          while (done < INTENTS) {
            await sleep(800 + random() * 1500);
            if (random() < 0.6) await cluster.killRandom(random);
            else await cluster.terminateBackends(random);
          }
        })();
        await Promise.all([...customers, harm]);
        process.stdout.write(
          `chaos seed ${SEED}: ${INTENTS} intents, ${cluster.kills} kills, ${cluster.terminatedBackends} backends terminated, ` +
            `${cluster.crashes.length} crashes on their own, ${clientErrors.length} client give-ups` +
            `${clientErrors.length ? ` (first: ${clientErrors[0]})` : ''}\n` +
            cluster.crashes
              .map(
                (crash) =>
                  `  crash: ${crash.split('\n').find((line) => /error/i.test(line)) ?? crash.slice(0, 200)}\n`,
              )
              .join(''),
        );
        await cluster.allUp();

        // Settle: move the test clock a day at a time (expiry, delayed charges, late refunds,
        // reconciliation back-off, webhook retries and leases all follow it) until nothing waits.
        await eventually(
          'everything settles',
          async () => {
            await admin('/admin/v1/test-clock/advance', { seconds: 3600 * 6 });
            const [row] = await query<{
              intents: number;
              refunds: number;
              captures: number;
              deliveries: number;
            }>(
              // An authorisation waits until it is captured, voided or lapsed (7 days of the clock).
              `SELECT (SELECT count(*)::int FROM payment_intents WHERE status IN ('PROCESSING', 'REQUIRES_CAPTURE'))
                    + (SELECT count(*)::int FROM authorization_operations WHERE status = 'PENDING') AS intents,
                      (SELECT count(*)::int FROM refunds WHERE status = 'PENDING') AS refunds,
                      (SELECT count(*)::int FROM late_captures WHERE repair_status IN ('REFUND_DUE', 'REFUND_PENDING')) AS captures,
                      (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'PENDING') AS deliveries`,
            );
            return row;
          },
          (row) => row !== undefined && row.intents + row.refunds + row.captures + row.deliveries === 0,
          { timeoutMs: 120_000, intervalMs: 1500 },
        );

        // Every final state change has exactly one event of its own.
        const missingEvents = await query<{ id: string; status: string; events: number }>(
          `SELECT i.id, i.status, (SELECT count(*)::int FROM events e
                                     WHERE e.object_id = i.id AND e.type = 'payment_intent.' || lower(i.status)) AS events
             FROM payment_intents i
            WHERE i.status IN ('SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED')
           UNION ALL
           SELECT r.id, r.status, (SELECT count(*)::int FROM events e
                                     WHERE e.object_id = r.id AND e.type = 'refund.' || lower(r.status)) AS events
             FROM refunds r WHERE r.status IN ('SUCCEEDED', 'FAILED')`,
        );
        assert.deepEqual(
          missingEvents.filter((row) => row.events !== 1),
          [],
          'final states without exactly one event',
        );

        // Every event reached the healthy receiver at least once.
        const events = await query<{ id: string }>('SELECT id FROM events WHERE livemode = false');
        await eventually(
          'every event is received',
          async () => events.filter((e) => !received.has(e.id)).length,
          (n) => n === 0,
          {
            timeoutMs: 60_000,
          },
        );

        // Every charge and refund at the gateway is recorded exactly once.
        const attempts = await query<{ n: number }>(
          `SELECT count(*)::int AS n FROM (SELECT payment_intent_id FROM charge_attempts WHERE status = 'SUCCEEDED'
             GROUP BY payment_intent_id HAVING count(*) > 1) twice`,
        );
        assert.equal(attempts[0]?.n, 0, 'an intent charged twice');
        // Every authorisation captured at most once, and a captured intent's amount is its capture's.
        const captures = await query<{ id: string; captured: string | null; operations: string }>(
          `SELECT i.id, i.amount_captured_minor::text AS captured,
                  string_agg(o.amount_minor::text, ',') AS operations
             FROM payment_intents i JOIN authorization_operations o
               ON o.payment_intent_id = i.id AND o.kind = 'capture' AND o.status = 'SUCCEEDED'
            GROUP BY i.id, i.amount_captured_minor`,
        );
        assert.deepEqual(
          captures.filter((row) => row.operations.includes(',') || row.operations !== row.captured),
          [],
          'an authorisation captured twice, or not what its capture took',
        );
        const manualIntents = await query<{ n: number }>(
          "SELECT count(*)::int AS n FROM payment_intents WHERE capture_method = 'manual'",
        );
        assert.ok((manualIntents[0]?.n ?? 0) > 0, 'the stream authorised some payments to capture later');

        // And reconciliation, with nothing to repair, finds nothing.
        const reconcile = startPaygate(
          'reconcile',
          ['reconcile', '--json', '--dry-run', '--from', '2000-01-01T00:00:00Z'],
          cluster.env,
        );
        const code = await reconcile.exited();
        const report = JSON.parse(reconcile.output()) as {
          differences: unknown[];
          gateways: { charges: number }[];
        };
        assert.deepEqual(report.differences, [], 'reconciliation differences');
        assert.equal(code, 0);
        assert.ok((report.gateways[0]?.charges ?? 0) > INTENTS / 4, 'the gateway saw the stream');
        assert.ok(cluster.kills > 0, 'no process was killed');
      } catch (error) {
        process.stderr.write(`chaos test failed with seed ${SEED} (replay: PAYGATE_CHAOS_SEED=${SEED})\n`);
        const stuck = await query(
          `SELECT i.id, i.status, i.amount_minor, a.attempt_number, a.status AS attempt, a.checks, a.next_check_at,
                  a.payment_method_token, a.gateway_reference
             FROM payment_intents i JOIN charge_attempts a ON a.payment_intent_id = i.id
            WHERE i.status = 'PROCESSING' ORDER BY i.id, a.attempt_number`,
        ).catch(() => []);
        process.stderr.write(`intents still PROCESSING: ${JSON.stringify(stuck)}\n`);
        for (const crash of cluster.crashes) process.stderr.write(`${crash}\n`);
        throw error;
      }
    });
  });
}
