import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { databaseKinds } from './support/databases.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

// A request held up by a row lock is "in flight" in a way a test can control exactly.
if (databaseKinds().includes('postgres')) {
  describe('graceful shutdown (postgres)', () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    before(async () => {
      svc = await startTestService('postgres');
      merchant = await svc.createMerchant();
    });
    after(() => svc.close());

    it('finishes an in-flight request before closing, and refuses new ones meanwhile', async () => {
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey() },
        body: { amount_minor: 1000, currency: 'USD', gateway_id: 'sim' },
      });
      const intentId = created.json().id;
      const address = await svc.app.listen({ port: 0, host: '127.0.0.1' });

      const blocker = new pg.Client({ connectionString: svc.database.url ?? '' });
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM payment_intents WHERE id = $1 FOR UPDATE', [intentId]);

      const inFlight = fetch(`${address}/v1/payment-intents/${intentId}/cancel`, {
        method: 'POST',
        headers: { 'x-api-key': merchant.secretTest },
      });
      // Wait until the cancel is really waiting on the row lock.
      for (let i = 0; i < 100; i++) {
        const { rows } = await blocker.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const closing = svc.app.close();
      await new Promise((r) => setTimeout(r, 100));
      await assert.rejects(fetch(`${address}/healthz`), 'no new connection is accepted while closing');
      await blocker.query('COMMIT');
      await blocker.end();

      const response = await inFlight;
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { status: string }).status, 'CANCELED');
      const closedWithinMs = await Promise.race([
        closing.then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), 5000)),
      ]);
      assert.equal(closedWithinMs, 'closed', 'the close does not wait for keep-alive connections');
    });
  });
}
