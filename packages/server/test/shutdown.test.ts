import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
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

    it('finishes an in-flight request before closing, and refuses new ones meanwhile', {
      timeout: 30_000,
    }, async () => {
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
      await waitFor('the cancel waits on the row lock', async () => {
        const { rows } = await blocker.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        return rows[0].n > 0;
      });
      let closed = false;
      const closing = svc.app.close().then(() => {
        closed = true;
      });
      // No new connection is accepted while closing, and the close waits for the held request.
      await waitFor('new connections are refused', () =>
        fetch(`${address}/healthz`).then(
          () => false,
          () => true,
        ),
      );
      assert.equal(closed, false, 'the close waits for the in-flight request');
      await blocker.query('COMMIT');
      await blocker.end();

      const response = await inFlight;
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { status: string }).status, 'CANCELED');
      // The close does not wait for the idle keep-alive connection (Fastify's keep-alive time-out
      // is 72 s, past this test's own time-out).
      await closing;
      assert.equal(closed, true);
    });
  });
}
