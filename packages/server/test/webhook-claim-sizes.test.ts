import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId, recordEvent } from '../src/index.ts';
import type { Database, Queryable } from '../src/storage/db.ts';
import { claimSizeMax, createDeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { databaseKinds } from './support/databases.ts';
import { eventually } from './support/eventually.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from './support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

/** The database, noting the row limit of every claim statement. */
function notingClaims(db: Database): { db: Database; limits: number[] } {
  const limits: number[] = [];
  const noted = new Proxy(db, {
    get(target, property) {
      if (property === 'query') {
        return (sql: string, params?: unknown[]) => {
          if (sql.includes('FOR UPDATE SKIP LOCKED') && sql.includes('webhook_deliveries')) {
            limits.push(Number(params?.[3]));
          }
          return target.query(sql, params);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: noted, limits };
}

describe('webhook claim sizes', () => {
  it('lets one claim take only what the lease covers when every attempt times out', () => {
    // 60 s lease, 10 s time-out: one claim's attempts run in at most two rounds of 64.
    assert.equal(claimSizeMax({ concurrency: 64, leaseMs: 60_000, timeoutMs: 10_000 }), 128);
    assert.equal(claimSizeMax({ concurrency: 8, leaseMs: 3_600_000, timeoutMs: 10_000 }), 960);
    // A lease barely longer than an attempt still allows one round.
    assert.equal(claimSizeMax({ concurrency: 16, leaseMs: 11_000, timeoutMs: 10_000 }), 16);
  });
});

for (const kind of databaseKinds()) {
  describe(`webhook claims grow with a backlog (${kind})`, () => {
    let svc: TestService;
    let receiver: WebhookReceiver;
    before(async () => {
      svc = await startTestService(kind);
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await receiver.close();
      await svc.close();
    });

    it('doubles each full claim up to the lease bound, delivers all once, and claims small again after', async () => {
      const merchant = await svc.createMerchant('Backlog shop');
      const created = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { url: receiver.url, livemode: false },
      });
      assert.equal(created.statusCode, 201, created.body);
      const emit = (i: number, q: Queryable = svc.ctx.db) =>
        recordEvent(svc.ctx, q, {
          merchantId: merchant.id,
          type: 'payment_intent.canceled',
          object: { id: newId('pi'), object: 'payment_intent', amount_minor: 100 + i, status: 'CANCELED' },
          livemode: false,
        });
      const backlog = 300;
      await svc.ctx.db.transaction(async (tx) => {
        for (let i = 0; i < backlog; i += 1) await emit(i, tx);
      });
      const noting = notingClaims(svc.ctx.db);
      // Bound: 20 in flight × 4 rounds of 5 s in a third of the 60 s lease = 80 rows per claim.
      const worker = createDeliveryWorker(
        { ...svc.ctx, db: noting.db },
        { batchSize: 10, concurrency: 20, timeoutMs: 5000, leaseSeconds: 60, pollIntervalMs: 3_600_000 },
      );
      try {
        await worker.start();
        await eventually(
          'the backlog delivered',
          async () => receiver.received.length,
          (n) => n >= backlog,
        );
        await worker.idle();
        assert.deepEqual(noting.limits.slice(0, 4), [10, 20, 40, 80]);
        assert.equal(Math.max(...noting.limits), 80);
        const ids = receiver.received.map((r) => JSON.parse(r.rawBody.toString('utf8')).id as string);
        assert.equal(new Set(ids).size, backlog, 'every event arrived exactly once');

        const claimsBefore = noting.limits.length;
        await emit(backlog);
        worker.wake();
        await eventually(
          'the next event delivered',
          async () => receiver.received.length,
          (n) => n > backlog,
        );
        await worker.idle();
        assert.equal(noting.limits[claimsBefore], 10, 'a trickle is claimed in small batches again');
      } finally {
        await worker.stop();
      }
    });
  });
}
