import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AppContext } from '../src/app/context.ts';
import type { Database } from '../src/storage/db.ts';
import { type ClaimedDelivery, claimDueDeliveries } from '../src/storage/repositories/webhook-deliveries.ts';
import { type MadeAttempt, recordAttempts } from '../src/webhooks/attempt-outcomes.ts';
import { createDeliveryWorker, silentLogger } from '../src/webhooks/delivery-worker.ts';
import type { AttemptOutcome } from '../src/webhooks/sender.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from './support/service.ts';
import { emitCanceledEvent } from './support/webhook-events.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const admin = { 'x-admin-token': ADMIN_TOKEN };
const ok: AttemptOutcome = {
  delivered: true,
  statusCode: 200,
  latencyMs: 3,
  error: null,
  responseExcerpt: 'ok',
};
const refused: AttemptOutcome = {
  delivered: false,
  statusCode: 503,
  latencyMs: 4,
  error: 'http_status: 503',
  responseExcerpt: null,
};

/** The database, counting the statements that record attempts. */
function countingRecords(db: Database): { db: Database; records: () => number } {
  let records = 0;
  const counted = new Proxy(db, {
    get(target, property) {
      if (property === 'query') {
        return (sql: string, params?: unknown[]) => {
          if (sql.includes('INSERT INTO webhook_attempts')) records += 1;
          return target.query(sql, params);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: counted, records: () => records };
}

for (const kind of databaseKinds()) {
  describe(`batched webhook acknowledgements (${kind})`, () => {
    let svc: TestService;
    const receivers: WebhookReceiver[] = [];
    before(async () => {
      svc = await startTestService(kind);
    });
    after(async () => {
      await Promise.all(receivers.map((r) => r.close()));
      await svc.close();
    });

    /** An endpoint (nothing listens at its URL unless `url` is given) with `events` events queued. */
    async function endpointWithEvents(events: number, url = 'http://127.0.0.1:9/hooks') {
      const merchant = await svc.createMerchant('Batch shop');
      const response = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: admin,
        body: { url, livemode: false },
      });
      assert.equal(response.statusCode, 201, response.body);
      const endpoint: { id: string } = response.json();
      const eventIds: string[] = [];
      for (let i = 0; i < events; i += 1) eventIds.push((await emitCanceledEvent(svc, merchant)).id);
      return { endpointId: endpoint.id, eventIds };
    }

    async function claimOf(eventIds: string[], token: string): Promise<ClaimedDelivery[]> {
      const now = svc.clock.now();
      const claimed = await claimDueDeliveries(svc.ctx.db, {
        now,
        leaseUntil: new Date(now.getTime() + 60_000),
        claimToken: token,
        limit: 1000,
      });
      const mine = claimed.filter((c) => eventIds.includes(c.delivery.eventId));
      mine.sort((a, b) => eventIds.indexOf(a.delivery.eventId) - eventIds.indexOf(b.delivery.eventId));
      assert.equal(mine.length, eventIds.length);
      return mine;
    }

    const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

    /** A claimed delivery as if its first five attempts had failed, so the next failure makes it FAILED. */
    function onLastSlot(c: ClaimedDelivery, firstAttemptAt: Date): ClaimedDelivery {
      return { ...c, delivery: { ...c.delivery, attemptsMade: 5, firstAttemptAt } };
    }

    async function endpointRow(id: string) {
      const { rows } = await svc.ctx.db.query<{
        status: string;
        failing_since: Date | null;
        failed_deliveries_since_success: number;
      }>(
        'SELECT status, failing_since, failed_deliveries_since_success FROM webhook_endpoints WHERE id = $1',
        [id],
      );
      return rows[0];
    }

    async function deliveryRow(eventId: string) {
      const { rows } = await svc.ctx.db.query<{
        id: string;
        status: string;
        attempts_made: number;
        attempt_count: number;
        next_attempt_at: Date | null;
        claim_token: string | null;
        attempts: number;
      }>(
        `SELECT d.id, d.status, d.attempts_made, d.attempt_count, d.next_attempt_at, d.claim_token,
                (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
           FROM webhook_deliveries d WHERE d.event_id = $1`,
        [eventId],
      );
      return rows[0];
    }

    it('records several outcomes with one statement; a lost claim in the batch writes nothing for its row', async () => {
      const { endpointId, eventIds } = await endpointWithEvents(3);
      const claimed = await claimOf(eventIds, 'batch-claim');
      const [first, lost, third] = claimed;
      assert.ok(first && lost && third);
      // Another worker took the second delivery after this claim's lease ran out.
      await svc.ctx.db.query("UPDATE webhook_deliveries SET claim_token = 'other-worker' WHERE id = $1", [
        lost.delivery.id,
      ]);
      const t0 = svc.clock.now();
      const made: MadeAttempt[] = [
        { claimed: first, claimToken: 'batch-claim', attemptedAt: t0, outcome: ok, manual: false },
        { claimed: lost, claimToken: 'batch-claim', attemptedAt: at(t0, 1), outcome: ok, manual: false },
        {
          claimed: third,
          claimToken: 'batch-claim',
          attemptedAt: at(t0, 2),
          outcome: refused,
          manual: false,
        },
      ];
      const counting = countingRecords(svc.ctx.db);
      const ctx: AppContext = { ...svc.ctx, db: counting.db };
      assert.deepEqual(await recordAttempts(ctx, made, silentLogger), [1, null, 1]);
      assert.equal(counting.records(), 1, 'one statement for the whole batch');

      assert.deepEqual(
        { ...(await deliveryRow(eventIds[0] ?? '')), id: undefined },
        {
          id: undefined,
          status: 'DELIVERED',
          attempts_made: 1,
          attempt_count: 1,
          next_attempt_at: null,
          claim_token: null,
          attempts: 1,
        },
      );
      const untouched = await deliveryRow(eventIds[1] ?? '');
      assert.equal(untouched?.status, 'PENDING');
      assert.equal(untouched?.attempt_count, 0);
      assert.equal(untouched?.attempts, 0);
      assert.equal(untouched?.claim_token, 'other-worker', 'the other worker keeps its claim');
      const retried = await deliveryRow(eventIds[2] ?? '');
      assert.equal(retried?.status, 'PENDING');
      assert.equal(retried?.attempts_made, 1);
      assert.equal(
        retried?.next_attempt_at?.getTime(),
        at(t0, 2 + 60).getTime(),
        'slot 2 is 1 min after the first',
      );
      assert.equal(retried?.attempts, 1);
      // In order: the success, then a failure opening a new history.
      assert.deepEqual(await endpointRow(endpointId), {
        status: 'enabled',
        failing_since: at(t0, 2),
        failed_deliveries_since_success: 0,
      });
    });

    it('counts every FAILED delivery of one endpoint in one batch toward disabling it', async () => {
      const { endpointId, eventIds } = await endpointWithEvents(10);
      const claimed = await claimOf(eventIds, 'failing-claim');
      const t0 = svc.clock.now();
      const failingSince = at(t0, -73 * 3600);
      await svc.ctx.db.query('UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1', [
        endpointId,
        failingSince,
      ]);
      const logged: string[] = [];
      const logger = { ...silentLogger, error: (_: object, message: string) => logged.push(message) };
      const made = claimed.map((c, i) => ({
        claimed: onLastSlot(c, at(t0, -12 * 3600)),
        claimToken: 'failing-claim',
        attemptedAt: at(t0, i),
        outcome: refused,
        manual: false,
      }));
      assert.deepEqual(await recordAttempts(svc.ctx, made, logger), Array(10).fill(1));
      for (const id of eventIds) assert.equal((await deliveryRow(id))?.status, 'FAILED');
      assert.deepEqual(await endpointRow(endpointId), {
        status: 'disabled',
        failing_since: failingSince,
        failed_deliveries_since_success: 10,
      });
      assert.ok(logged.some((m) => m.includes('disabled')));
    });

    it('lets a success within a batch clear only the failures before it', async () => {
      const { endpointId, eventIds } = await endpointWithEvents(4);
      const claimed = await claimOf(eventIds, 'mixed-claim');
      const t0 = svc.clock.now();
      await svc.ctx.db.query(
        "UPDATE webhook_endpoints SET failing_since = $2, failed_deliveries_since_success = 5, status = 'failing' WHERE id = $1",
        [endpointId, at(t0, -30 * 3600)],
      );
      const outcomes = [refused, ok, refused, refused];
      const made = claimed.map((c, i) => ({
        claimed: i === 3 ? c : onLastSlot(c, at(t0, -12 * 3600)),
        claimToken: 'mixed-claim',
        attemptedAt: at(t0, i),
        outcome: outcomes[i] ?? ok,
        manual: false,
      }));
      await recordAttempts(svc.ctx, made, silentLogger);
      assert.deepEqual(
        (await Promise.all(eventIds.map(deliveryRow))).map((d) => d?.status),
        ['FAILED', 'DELIVERED', 'FAILED', 'PENDING'],
      );
      // The FAILED delivery before the success no longer counts; the one after it does.
      assert.deepEqual(await endpointRow(endpointId), {
        status: 'enabled',
        failing_since: at(t0, 2),
        failed_deliveries_since_success: 1,
      });
    });

    it('records a claimed batch with one statement once its last attempt is made', async () => {
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      const { eventIds } = await endpointWithEvents(5, receiver.url);
      const counting = countingRecords(svc.ctx.db);
      // A window far longer than the test: only the batch's completion can trigger the write.
      const worker = createDeliveryWorker({ ...svc.ctx, db: counting.db }, { ackWindowMs: 600_000 });
      try {
        assert.equal(await worker.runOnce(), 5);
      } finally {
        await worker.stop();
      }
      assert.equal(counting.records(), 1);
      assert.equal(receiver.received.length, 5);
      for (const id of eventIds) assert.equal((await deliveryRow(id))?.status, 'DELIVERED');
    });
  });
}
