// Issue 21 item 6: under `npm start` (the whole service: its own simulator, scheduler and test
// clock), a test-mode refund ending in 13 settles when the test clock passes its delay, like a
// delayed payment; and the test clock, kept in the database, survives a restart.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { type RunningService, startService } from '../src/service.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.ts';
import { eventually, readJson } from './support/eventually.ts';
import { freePort } from './support/processes.ts';

const ADMIN = 'admin-token-for-the-test-clock-test';

for (const kind of databaseKinds()) {
  describe(`the test clock of npm start settles late refunds (${kind})`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paygate-clock-'));
    let database: TestDatabase | null = null;
    let env: Record<string, string>;
    let service: RunningService;
    let baseUrl: string;

    const boot = async () => {
      service = await startService(loadConfig(env));
      const address = service.http.server.address();
      if (address === null || typeof address !== 'object') throw new Error('not listening');
      baseUrl = `http://127.0.0.1:${address.port}`;
    };
    const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await readJson(response) };
    };
    const admin = (path: string, body: unknown) => call('POST', path, { 'x-admin-token': ADMIN }, body);

    before(async () => {
      env = {
        PORT: '0',
        HOST: '127.0.0.1',
        PAYGATE_SIM_PORT: String(await freePort()),
        PAYGATE_DATA_DIR: dataDir,
        PAYGATE_TEST_CLOCK: '1',
        PAYGATE_ADMIN_TOKEN: ADMIN,
        PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
        PAYGATE_LOG_LEVEL: 'silent',
      };
      if (kind === 'postgres') {
        database = await openTestDatabase('postgres');
        env.PAYGATE_DATABASE_URL = database.url ?? '';
      }
      await boot();
    });
    after(async () => {
      await service.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('settles a refund ending in 13 once the test clock passes 60 seconds', async () => {
      const merchant = (await admin('/admin/v1/merchants', { name: 'Clocked' })).json;
      const key = { 'x-api-key': merchant.api_keys.secret_test };
      const created = await call(
        'POST',
        '/v1/payment-intents',
        { ...key, 'idempotency-key': 'pi-1' },
        {
          amount_minor: 5000,
          currency: 'USD',
          gateway_id: 'sim',
        },
      );
      const paid = await call('POST', `/v1/payment-intents/${created.json.id}/confirm`, key, {
        payment_method_token: 'tok_sim_approve',
      });
      assert.equal(paid.json.status, 'SUCCEEDED');
      const refund = await call(
        'POST',
        '/v1/refunds',
        { ...key, 'idempotency-key': 're-1' },
        {
          payment_intent_id: created.json.id,
          amount_minor: 1013,
        },
      );
      assert.equal(refund.json.status, 'PENDING');
      assert.equal((await admin('/admin/v1/test-clock/advance', { seconds: 61 })).status, 200);
      const settled = await eventually(
        'the refund settles',
        async () => (await call('GET', `/v1/refunds/${refund.json.id}`, key)).json,
        (r) => r.status !== 'PENDING',
      );
      assert.equal(settled.status, 'SUCCEEDED');
    });

    it('keeps the test clock across a restart', async () => {
      const before = Date.parse((await admin('/admin/v1/test-clock/advance', { seconds: 3600 })).json.now);
      await service.stop();
      await boot();
      const after = Date.parse((await admin('/admin/v1/test-clock/advance', { seconds: 1 })).json.now);
      assert.ok(after >= before, `the clock went back from ${before} to ${after}`);
    });
  });
}
