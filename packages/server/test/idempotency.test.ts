import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { databaseKinds } from './support/databases.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const order = { amount_minor: 4200, currency: 'EUR', gateway_id: 'sim' };

async function countIntents(svc: TestService, merchantId: string): Promise<number> {
  const { rows } = await svc.ctx.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM payment_intents WHERE merchant_id = $1',
    [merchantId],
  );
  return rows[0]?.n ?? 0;
}

for (const kind of databaseKinds()) {
  describe(`idempotency (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant();
    });
    after(() => svc.close());

    const post = (key: string, body: unknown, apiKey = merchant.secretTest, url = '/v1/payment-intents') =>
      svc.request({ method: 'POST', url, key: apiKey, headers: { 'idempotency-key': key }, body });

    it('replays the original response byte for byte, marked Idempotent-Replayed', async () => {
      const key = freshKey();
      const first = await post(key, order);
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const second = await post(key, { gateway_id: 'sim', currency: 'EUR', amount_minor: 4200 });
      assert.equal(second.statusCode, 200);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.equal(second.body, first.body);
      assert.notEqual(second.headers['x-request-id'], first.headers['x-request-id']);
    });

    it('answers concurrent repeats of a finished key all as replays, never in flight', async () => {
      const key = freshKey('replays');
      const first = await post(key, order);
      assert.equal(first.statusCode, 200);
      const repeats = await Promise.all(Array.from({ length: 30 }, () => post(key, order)));
      for (const r of repeats) {
        assert.equal(r.statusCode, 200, r.body);
        assert.equal(r.headers['idempotent-replayed'], 'true');
        assert.equal(r.body, first.body);
      }
    });

    it('refuses the same key with another body with 409 idempotency_key_reuse', async () => {
      const key = freshKey();
      assert.equal((await post(key, order)).statusCode, 200);
      const reused = await post(key, { ...order, amount_minor: 4300 });
      assert.equal(reused.statusCode, 409);
      assert.equal(reused.json().code, 'idempotency_key_reuse');
    });

    it('gives 50 concurrent creates with one key exactly one intent and one answer per request', async () => {
      const m = await svc.createMerchant('Concurrent');
      const key = freshKey('concurrent');
      const responses = await Promise.all(Array.from({ length: 50 }, () => post(key, order, m.secretTest)));
      const ok = responses.filter((r) => r.statusCode === 200);
      const inFlight = responses.filter((r) => r.statusCode === 409);
      assert.equal(
        ok.length + inFlight.length,
        50,
        `unexpected statuses: ${responses.map((r) => r.statusCode)}`,
      );
      for (const r of inFlight) assert.equal(r.json().code, 'idempotency_key_in_flight');
      const original = ok.find((r) => r.headers['idempotent-replayed'] === undefined);
      assert.ok(original, 'one response is the original');
      assert.equal(ok.filter((r) => r.headers['idempotent-replayed'] === undefined).length, 1);
      for (const r of ok) assert.equal(r.body, original.body);
      assert.equal(await countIntents(svc, m.id), 1);
      // The same key afterwards is a replay, not a new intent.
      const later = await post(key, order, m.secretTest);
      assert.equal(later.headers['idempotent-replayed'], 'true');
      assert.equal(later.body, original.body);
    });

    it('scopes keys per merchant and per mode: one key, two merchants, two modes, four intents', async () => {
      const a = await svc.createMerchant('Scope A');
      const b = await svc.createMerchant('Scope B');
      const key = 'shared-key';
      const ids = new Set<string>();
      for (const apiKey of [a.secretTest, b.secretTest, a.secretLive, b.secretLive]) {
        const response = await post(key, { ...order, gateway_id: 'sim_live' }, apiKey);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['idempotent-replayed'], undefined);
        ids.add(response.json().id);
      }
      assert.equal(ids.size, 4);
      assert.equal((await countIntents(svc, a.id)) + (await countIntents(svc, b.id)), 4);
    });

    it('does not store a validation error: the corrected request may use the same key', async () => {
      const key = freshKey();
      const wrong = await post(key, { ...order, currency: 'XYZ' });
      assert.equal(wrong.statusCode, 400);
      const corrected = await post(key, order);
      assert.equal(corrected.statusCode, 200);
      assert.equal(corrected.headers['idempotent-replayed'], undefined);
    });

    it('stores 4xx outcomes of the work and replays them', async () => {
      const key = freshKey();
      const first = await post(key, { ...order, currency: 'CHF' });
      assert.equal(first.statusCode, 422);
      const second = await post(key, { ...order, currency: 'CHF' });
      assert.equal(second.statusCode, 422);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.equal(second.body, first.body);
      assert.match(String(second.headers['content-type']), /^application\/problem\+json/);
    });

    it('treats a key as new again after 24 hours on the clock', async () => {
      const m = await svc.createMerchant('Expiry');
      const key = freshKey();
      const first = await post(key, order, m.secretTest);
      svc.clock.advance(24 * 3600 - 5);
      const replay = await post(key, order, m.secretTest);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      svc.clock.advance(10);
      const fresh = await post(key, order, m.secretTest);
      assert.equal(fresh.statusCode, 200);
      assert.equal(fresh.headers['idempotent-replayed'], undefined);
      assert.notEqual(fresh.json().id, first.json().id);
      assert.equal(await countIntents(svc, m.id), 2);
    });

    it('requires the key, refuses an empty one and one over 255 characters', async () => {
      const missing = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        body: order,
      });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().errors[0].field, 'Idempotency-Key');
      assert.equal((await post('', order)).statusCode, 400);
      assert.equal((await post('k'.repeat(256), order)).statusCode, 400);
      assert.equal((await post('k'.repeat(255), order)).statusCode, 200);
    });

    if (kind === 'postgres') {
      it('answers in_flight while another connection holds the key, and releases it when that process dies', async () => {
        const m = await svc.createMerchant('Crash');
        const key = freshKey('crash');
        const { createHash } = await import('node:crypto');
        const lockId = createHash('sha256')
          .update(`${m.id}\u0000false\u0000${key}`)
          .digest()
          .readBigInt64BE(0);
        // A "request" that took the key's lock and then its process died mid-transaction.
        const dying = new pg.Client({ connectionString: svc.database.url ?? '' });
        await dying.connect();
        dying.on('error', () => {});
        await dying.query('BEGIN');
        await dying.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockId.toString()]);
        const during = await post(key, order, m.secretTest);
        assert.equal(during.statusCode, 409);
        assert.equal(during.json().code, 'idempotency_key_in_flight');
        // Kill the connection the way a crash does: the socket goes away without COMMIT.
        const pid = (await dying.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        await svc.ctx.db.query('SELECT pg_terminate_backend($1)', [pid]);
        await dying.end().catch(() => {});
        const after = await post(key, order, m.secretTest);
        assert.equal(after.statusCode, 200);
        assert.equal(await countIntents(svc, m.id), 1);
      });
    }
  });
}
