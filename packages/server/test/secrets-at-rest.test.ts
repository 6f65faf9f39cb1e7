import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { deriveClientSecret } from '../src/domain/api-keys.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const marker = (name: string) => `${name}-${randomBytes(9).toString('hex')}`;

/** Every row of every table, as text: what a database dump would hold. */
async function dumpDatabase(svc: TestService): Promise<string> {
  const tables = await svc.ctx.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await svc.ctx.db.query<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
    parts.push(`${table_name}:`, ...rows.rows.map((r) => r.row));
  }
  return parts.join('\n');
}

for (const kind of databaseKinds()) {
  describe(`secrets at rest and in logs (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let logs = '';
    const secrets: string[] = [];
    const bodyMarkers: string[] = [];

    before(async () => {
      const stream = new PassThrough();
      stream.on('data', (chunk: Buffer) => {
        logs += chunk.toString('utf8');
      });
      svc = await startTestService(kind, { logStream: stream });
      merchant = await svc.createMerchant();
      secrets.push(
        merchant.secretTest,
        merchant.secretLive,
        merchant.publishableTest,
        merchant.publishableLive,
        ADMIN_TOKEN,
      );
    });
    after(() => svc.close());

    const post = (url: string, body: unknown, idempotencyKey?: string) =>
      svc.request({
        method: 'POST',
        url,
        key: merchant.secretTest,
        ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
        body,
      });

    it('after a full run, neither the logs nor a dump of the database hold a secret; the logs hold no body', async () => {
      const endpoint = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { url: 'http://127.0.0.1:9/hooks', livemode: false },
      });
      secrets.push(endpoint.json().secret);
      const rotated = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.json().id}/rotate-secret`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
      });
      secrets.push(rotated.json().secret);

      // Payments, refunds, declines and stored 4xx answers, each with its own markers.
      const intentIds: string[] = [];
      for (const token of ['tok_sim_approve', 'tok_sim_decline', 'tok_sim_reject']) {
        const note = marker('body');
        const key = marker('idem');
        bodyMarkers.push(note, key);
        const created = await post(
          '/v1/payment-intents',
          { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', metadata: { note } },
          key,
        );
        assert.equal(created.statusCode, 200);
        intentIds.push(created.json().id);
        secrets.push(created.json().client_secret);
        // A replay answers byte for byte the same, client secret included, from the stored answer.
        const replayed = await post(
          '/v1/payment-intents',
          { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', metadata: { note } },
          key,
        );
        assert.equal(replayed.headers['idempotent-replayed'], 'true');
        assert.equal(replayed.body, created.body);
        await post(`/v1/payment-intents/${created.json().id}/confirm`, { payment_method_token: token });
      }
      const refundNote = marker('body');
      const refundKey = marker('idem');
      bodyMarkers.push(refundNote, refundKey);
      const refund = await post(
        '/v1/refunds',
        { payment_intent_id: intentIds[0], amount_minor: 100, metadata: { refundNote } },
        refundKey,
      );
      assert.equal(refund.statusCode, 200, refund.body);
      const tooMuch = await post(
        '/v1/refunds',
        { payment_intent_id: intentIds[0], amount_minor: 999_999 },
        marker('idem'),
      );
      assert.equal(tooMuch.statusCode, 422);

      // A database error on a statement whose parameters hold a body, a key and a client secret.
      await svc.ctx.db.exec(
        `ALTER TABLE payment_intents ADD CONSTRAINT poison_check CHECK (metadata::text NOT LIKE '%POISON%')`,
      );
      const poison = `POISON-${marker('body')}`;
      const poisonKey = marker('idem');
      bodyMarkers.push(poison, poisonKey);
      const failed = await post(
        '/v1/payment-intents',
        { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', metadata: { poison } },
        poisonKey,
      );
      assert.equal(failed.statusCode, 500);
      await svc.ctx.db.exec('ALTER TABLE payment_intents DROP CONSTRAINT poison_check');

      // Every client secret there is, derived for every intent in the database.
      const intents = await svc.ctx.db.query<{ id: string }>('SELECT id FROM payment_intents');
      for (const { id } of intents.rows) secrets.push(deriveClientSecret(id, svc.ctx.clientSecretKey));

      // The logs are not empty: the failure is there, by its code and statement name only.
      assert.match(logs, /"unhandled error"/);
      assert.match(logs, /23514/);
      assert.match(logs, /pg_[0-9a-f]{20}/);
      for (const value of [...secrets, ...bodyMarkers]) {
        assert.equal(logs.includes(value), false, `the logs hold ${value.slice(0, 12)}…`);
      }
      const dump = await dumpDatabase(svc);
      assert.ok(dump.includes(refundNote), 'the dump holds the stored metadata');
      for (const value of secrets) {
        assert.equal(dump.includes(value), false, `the database holds ${value.slice(0, 12)}…`);
      }
    });
  });
}
