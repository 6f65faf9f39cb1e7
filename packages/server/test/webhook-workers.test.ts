import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../src/app/context.ts';
import { createAppContext } from '../src/app/create-context.ts';
import { createWebhookEndpoint } from '../src/app/webhooks/create-webhook-endpoint.ts';
import { systemClock } from '../src/clock.ts';
import { buildEvent } from '../src/domain/events.ts';
import { newId } from '../src/domain/ids.ts';
import { GatewayRegistry } from '../src/gateways/registry.ts';
import { insertEvent } from '../src/storage/repositories/events.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const LEASE_SECONDS = 12;

async function until(
  condition: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Several `paygate worker` processes over one PostgreSQL database (the embedded database belongs to
// one process, so this runs only where PostgreSQL is configured).
for (const kind of databaseKinds().filter((k) => k === 'postgres')) {
  describe(`three paygate worker processes (${kind})`, () => {
    let database: TestDatabase;
    let ctx: AppContext;
    let receiver: WebhookReceiver;
    let merchantId: string;
    const workers: ChildProcess[] = [];
    const masterKey = randomBytes(32);

    function startWorker(url: string): ChildProcess {
      const child = spawn(
        process.execPath,
        ['--conditions=development', '--import', 'tsx', 'packages/server/src/main.ts', 'worker'],
        {
          cwd: repoRoot,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: {
            ...process.env,
            PAYGATE_DATABASE_URL: url,
            PAYGATE_MASTER_KEY: masterKey.toString('hex'),
            PAYGATE_ADMIN_TOKEN: 'worker-test-admin-token',
            PAYGATE_MIGRATE_ON_START: 'false',
            PAYGATE_LOG_LEVEL: 'error',
            PAYGATE_WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
            PAYGATE_WEBHOOK_TIMEOUT_MS: '10000',
            PAYGATE_WEBHOOK_POLL_MS: '500',
          },
        },
      );
      workers.push(child);
      return child;
    }

    /** Commits `count` events in transactions of 250, four at a time, as the use cases do (outbox + fan-out + NOTIFY). */
    async function emitEvents(count: number): Promise<string[]> {
      const chunks: number[][] = [];
      for (let from = 0; from < count; from += 250) {
        chunks.push(Array.from({ length: Math.min(250, count - from) }, (_, i) => from + i));
      }
      const ids: string[] = [];
      const commitChunk = async (chunk: number[]) => {
        await ctx.db.transaction(async (tx) => {
          for (const i of chunk) {
            const objectId = newId('pi');
            const event = buildEvent(
              'payment_intent.canceled',
              {
                id: objectId,
                object: 'payment_intent',
                status: 'CANCELED',
                amount_minor: 100 + i,
                currency: 'USD',
              },
              false,
              ctx.clock.now(),
            );
            await insertEvent(tx, merchantId, objectId, event);
            ids.push(event.envelope.id);
          }
        });
      };
      for (let next = 0; next < chunks.length; next += 4)
        await Promise.all(chunks.slice(next, next + 4).map(commitChunk));
      return ids;
    }

    // Counted as they arrive (parsing every body again while polling would starve the receiver).
    const counts = new Map<string, number>();
    let answerDelayMs = 0;

    before(async () => {
      database = await openTestDatabase('postgres');
      ctx = createAppContext({
        db: database.db,
        clock: systemClock,
        gateways: new GatewayRegistry([]),
        masterKey,
        publicUrl: 'http://localhost:8080',
      });
      receiver = await startWebhookReceiver((delivery, response) => {
        const id = JSON.parse(delivery.rawBody.toString('utf8')).id as string;
        counts.set(id, (counts.get(id) ?? 0) + 1);
        if (answerDelayMs > 0) setTimeout(() => response.end('ok'), answerDelayMs);
        else response.end('ok');
      });
      merchantId = newId('acct');
      await ctx.db.query('INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, $3)', [
        merchantId,
        'Busy shop',
        ctx.clock.now(),
      ]);
      await createWebhookEndpoint(ctx, merchantId, { url: receiver.url, livemode: false });
      const url = database.url;
      assert.ok(url);
      for (let i = 0; i < 3; i += 1) startWorker(url);
    });

    after(async () => {
      for (const child of workers) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      await receiver.close();
      await database.drop();
    });

    it('deliver 5,000 events, every one, with no schedule slot attempted twice', async () => {
      const ids = await emitEvents(5000);
      await until(() => counts.size === 5000, 90_000, 'all 5,000 events to arrive');
      await until(
        async () =>
          (await ctx.db.query("SELECT 1 FROM webhook_deliveries WHERE status <> 'DELIVERED'")).rowCount === 0,
        10_000,
        'every delivery to be recorded',
      );
      assert.deepEqual([...counts.keys()].sort(), [...ids].sort());
      // Every POST the receiver got is a recorded attempt in its own schedule slot. (On a loaded
      // machine an attempt may time out and be retried in its next slot a minute later; that is
      // another slot, recorded as such.)
      const { rows } = await ctx.db.query<{ event_id: string; attempts: number; slots: number }>(
        `SELECT d.event_id, count(a.*)::int AS attempts, count(DISTINCT a.schedule_slot)::int AS slots
           FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
          WHERE d.status = 'DELIVERED' GROUP BY d.event_id`,
      );
      assert.equal(rows.length, 5000);
      // A POST beyond the recorded attempts would be a slot attempted twice. (Fewer is possible: an
      // attempt that timed out before the receiver read it.)
      const repeated = rows.filter(
        (r) => (counts.get(r.event_id) ?? 0) > r.attempts || r.slots !== r.attempts,
      );
      assert.deepEqual(
        repeated,
        [],
        'no event was POSTed more often than its recorded attempts, one per slot',
      );
      const retried = rows.filter((r) => r.attempts > 1).length;
      assert.ok(retried <= 50, `${retried} events needed a second slot`);
      assert.ok(
        workers.every((w) => w.exitCode === null),
        'all three workers are still running',
      );
    });

    it('lose no event when a worker is killed with SIGKILL in the middle of a batch', async () => {
      // Slow answers keep many attempts in flight, so the victim dies holding claims.
      answerDelayMs = 400;
      const before = receiver.received.length;
      const victim = workers[0];
      assert.ok(victim?.pid);
      const ids = await emitEvents(600);
      let held = 0;
      await until(
        async () => {
          const { rows } = await ctx.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM webhook_deliveries WHERE claim_token LIKE $1',
            [`${victim.pid}.%`],
          );
          held = rows[0]?.n ?? 0;
          return held > 0;
        },
        20_000,
        'the victim to hold claims',
      );
      victim.kill('SIGKILL');
      await until(() => victim.signalCode === 'SIGKILL', 5000, 'the victim to die');
      // What it held when it died: these claims stay until their lease runs out.
      const { rows: heldRows } = await ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE claim_token LIKE $1',
        [`${victim.pid}.%`],
      );
      held = heldRows[0]?.n ?? 0;
      assert.ok(held > 0, 'the victim died in the middle of a batch');

      await until(
        async () =>
          (
            await ctx.db.query(
              "SELECT 1 FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.id = ANY ($1::text[]) AND d.status = 'DELIVERED'",
              [ids],
            )
          ).rowCount === ids.length,
        (LEASE_SECONDS + 30) * 1000,
        'every event of the second batch to be delivered',
      );
      for (const id of ids) assert.ok((counts.get(id) ?? 0) >= 1, `event ${id} arrived`);
      const duplicates = ids.reduce((n, id) => n + ((counts.get(id) ?? 0) - 1), 0);
      assert.ok(
        duplicates <= held,
        `only attempts the victim had in flight were repeated (${duplicates} <= ${held})`,
      );
      assert.equal(receiver.received.length - before, ids.length + duplicates);
      const { rows } = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE d.event_id = ANY ($1::text[])`,
        [ids],
      );
      assert.equal(
        rows[0]?.n,
        ids.length,
        'one recorded attempt per delivery: the lost one was made again in its slot',
      );
    });
  });
}
