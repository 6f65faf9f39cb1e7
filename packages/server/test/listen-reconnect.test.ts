import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import pg from 'pg';
import {
  createDeliveryWorker,
  type DeliveryWorker,
  type WorkerLogger,
} from '../src/webhooks/delivery-worker.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { emitCanceledEvent } from './support/webhook-events.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

// Only PostgreSQL has a LISTEN connection that can be lost: the embedded database is in-process.
if (databaseKinds().includes('postgres')) {
  describe('the delivery worker loses its LISTEN connection (postgres)', () => {
    let svc: TestService;
    let worker: DeliveryWorker;
    let receiver: WebhookReceiver;
    let merchant: MerchantKeys;
    const logged: { level: string; message: string; details: Record<string, unknown> }[] = [];
    const logger: WorkerLogger = {
      info: (details, message) => logged.push({ level: 'info', message, details: { ...details } }),
      warn: (details, message) => logged.push({ level: 'warn', message, details: { ...details } }),
      error: (details, message) => logged.push({ level: 'error', message, details: { ...details } }),
    };

    before(async () => {
      svc = await startTestService('postgres');
      receiver = await startWebhookReceiver();
      merchant = await svc.createMerchant('Listen shop');
      const endpoint = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { url: receiver.url, livemode: false },
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      // No fallback poll within the test: only a notification (or the reconnect) can wake it.
      worker = createDeliveryWorker(svc.ctx, { pollIntervalMs: 3_600_000, logger });
      await worker.start();
    });
    after(async () => {
      await worker.stop();
      await receiver.close();
      await svc.close();
    });

    /** Terminates the worker's LISTEN backend as an operator or a failover would. */
    async function terminateListenBackend(): Promise<number> {
      const admin = new pg.Client({ connectionString: svc.database.url ?? '' });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ terminated: boolean }>(
          `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
        );
        return rows.filter((row) => row.terminated).length;
      } finally {
        await admin.end();
      }
    }

    it('delivers at once while listening', async () => {
      await emitCanceledEvent(svc, merchant);
      await waitFor('the first delivery', () => receiver.received.length === 1);
    });

    it('logs the loss, reconnects with back-off, and is woken by notifications again', async () => {
      assert.equal(await terminateListenBackend(), 1);
      await waitFor('the loss logged', () =>
        logged.some((l) => l.level === 'warn' && /connection lost/.test(l.message)),
      );
      await waitFor('the reconnection logged', () =>
        logged.some((l) => l.level === 'info' && /re-established/.test(l.message)),
      );
      const lost = logged.find((l) => /connection lost/.test(l.message));
      assert.equal(typeof lost?.details.error, 'string');

      await emitCanceledEvent(svc, merchant);
      await waitFor('a delivery woken by NOTIFY after the reconnect', () => receiver.received.length === 2);
    });
  });
}
