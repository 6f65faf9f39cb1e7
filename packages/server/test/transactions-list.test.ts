import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Transaction, TransactionList } from '@paygate/contract';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { encodeTransactionCursor } from '../src/domain/transaction-cursor.ts';
import type { Queryable } from '../src/storage/db.ts';
import { databaseKinds } from './support/databases.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const ROWS = 10_000;
/** The test data's first instant; rows are three to a second, so ties on created_at are common. */
const BASE = Date.parse('2025-03-01T00:00:00.000Z');

/**
 * List test data straight into the tables (the list is what is under test here, not how rows get
 * there): `count` intents, each with one transaction, every fourth a REFUND with its refund row.
 * Ids are md5-derived, so their order is unrelated to time and ties on created_at are broken by
 * the id alone.
 */
async function seedTransactions(
  db: Queryable,
  merchantId: string,
  livemode: boolean,
  count: number,
  seed: string,
  baseMs = BASE,
): Promise<void> {
  const base = new Date(baseMs);
  await db.query(
    `INSERT INTO payment_intents (id, merchant_id, livemode, amount_minor, currency, status, gateway_id,
       expires_at, created_at, updated_at)
     SELECT 'pi_' || substr(md5($3 || 'pi' || g), 1, 24), $1, $2, 1000 + g, 'USD', 'CREATED', 'sim',
            $4::timestamptz + interval '1 day', $4, $4
       FROM generate_series(1, $5) AS g`,
    [merchantId, livemode, seed, base, count],
  );
  await db.query(
    `INSERT INTO refunds (id, merchant_id, livemode, payment_intent_id, amount_minor, currency, status,
       gateway_id, gateway_idempotency_key, created_at, updated_at)
     SELECT 're_' || substr(md5($3 || 're' || g), 1, 24), $1, $2, 'pi_' || substr(md5($3 || 'pi' || g), 1, 24),
            100, 'USD', 'SUCCEEDED', 'sim', $3 || ':' || g, $4, $4
       FROM generate_series(1, $5) AS g WHERE g % 4 = 0`,
    [merchantId, livemode, seed, base, count],
  );
  await db.query(
    `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
       payment_intent_id, refund_id, gateway_id, created_at, updated_at)
     SELECT 'txn_' || substr(md5($3 || 'txn' || g), 1, 24), $1, $2,
            CASE WHEN g % 4 = 0 THEN 'REFUND' ELSE 'PAYMENT' END,
            (ARRAY['PENDING', 'APPROVED', 'DECLINED'])[g % 3 + 1],
            CASE WHEN g % 4 = 0 THEN 100 ELSE 1000 + g END, 'USD',
            'pi_' || substr(md5($3 || 'pi' || g), 1, 24),
            CASE WHEN g % 4 = 0 THEN 're_' || substr(md5($3 || 're' || g), 1, 24) END,
            'sim', $4::timestamptz + (g / 3) * interval '1 second', $4::timestamptz + (g / 3) * interval '1 second'
       FROM generate_series(1, $5) AS g`,
    [merchantId, livemode, seed, base, count],
  );
}

const ajv = new Ajv({ strict: false });
ajvFormats.default(ajv);
const validateList = ajv.compile(TransactionList);

interface Row {
  id: string;
  type: string;
  status: string;
  created_ms: number;
}

for (const kind of databaseKinds()) {
  describe(`transaction list (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;
    /** The merchant's test-mode rows in list order, as the database orders them. */
    let all: Row[];

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Ledger shop');
      other = await svc.createMerchant('Other shop');
      await seedTransactions(svc.database.db, merchant.id, false, ROWS, 'a');
      // Rows of the same merchant's live mode and of another merchant, interleaved in time: never listed.
      await seedTransactions(svc.database.db, merchant.id, true, 500, 'live');
      await seedTransactions(svc.database.db, other.id, false, 500, 'other');
      const { rows } = await svc.database.db.query<{
        id: string;
        type: string;
        status: string;
        created_ms: string;
      }>(
        `SELECT id, type, status, (extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms
           FROM transactions WHERE merchant_id = $1 AND livemode = false
          ORDER BY created_at DESC, id DESC`,
        [merchant.id],
      );
      all = rows.map((r) => ({ ...r, created_ms: Number(r.created_ms) }));
      assert.equal(all.length, ROWS);
    });
    after(() => svc.close());

    const list = (query: Record<string, string | number>, key = merchant.secretTest) =>
      svc.request({
        method: 'GET',
        url: `/v1/transactions?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
        key,
      });

    /** Follows next_cursor to the end; checks every page's size, has_more and next_cursor. */
    async function walk(query: Record<string, string | number>, limit: number): Promise<string[]> {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; ; page += 1) {
        const response = await list({ ...query, limit, ...(cursor ? { cursor } : {}) });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.equal(body.object, 'list');
        seen.push(...body.data.map((t: { id: string }) => t.id));
        if (!body.has_more) {
          assert.equal(body.next_cursor, null);
          assert.ok(body.data.length <= limit);
          return seen;
        }
        assert.equal(body.data.length, limit, `a page before the last is full (limit ${limit})`);
        assert.equal(typeof body.next_cursor, 'string');
        cursor = body.next_cursor;
        assert.ok(page < ROWS, 'the walk ends');
      }
    }

    const isoOf = (ms: number) => new Date(ms).toISOString();

    it('walks all 10,000 in pages of 7, 20, 33, 64 and 100 (and of 1 over a 300-row window), each row once and in order', async () => {
      for (const limit of [7, 20, 33, 64, 100]) {
        assert.deepEqual(
          await walk({}, limit),
          all.map((r) => r.id),
          `limit ${limit}`,
        );
      }
      // 300 rows by time: [from, to) over 100 seconds of the data (three rows a second).
      const from = BASE + 2000 * 1000;
      const to = from + 100 * 1000;
      const expected = all.filter((r) => r.created_ms >= from && r.created_ms < to).map((r) => r.id);
      assert.equal(expected.length, 300);
      assert.deepEqual(await walk({ from: isoOf(from), to: isoOf(to) }, 1), expected);
    });

    it('walks a 1,002-row window (334 seconds) in pages of every limit from 1 to 100, each row once and in order', async () => {
      const from = BASE + 1000 * 1000;
      const to = from + 334 * 1000;
      const expected = all.filter((r) => r.created_ms >= from && r.created_ms < to).map((r) => r.id);
      assert.equal(expected.length, 1002);
      for (let limit = 1; limit <= 100; limit += 1) {
        assert.deepEqual(await walk({ from: isoOf(from), to: isoOf(to) }, limit), expected, `limit ${limit}`);
      }
    });

    it('yields every row exactly once and in order while new transactions are inserted during the walk', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      let inserted = 0;
      for (;;) {
        const response = await list({ limit: 50, ...(cursor ? { cursor } : {}) });
        assert.equal(response.statusCode, 200);
        const body = response.json();
        seen.push(...body.data.map((t: { id: string }) => t.id));
        if (!body.has_more) break;
        cursor = body.next_cursor;
        page += 1;
        if (page % 20 === 0) {
          // Newer than every row (they land before the cursor: not in this walk) and older than
          // every row (ahead of the cursor: this walk meets them at its end).
          const batch = `during-${page}`;
          await seedTransactions(
            svc.database.db,
            merchant.id,
            false,
            6,
            `${batch}-new`,
            svc.clock.now().getTime(),
          );
          await seedTransactions(
            svc.database.db,
            merchant.id,
            false,
            6,
            `${batch}-old`,
            BASE - 86_400_000 * page,
          );
          inserted += 12;
        }
      }
      assert.ok(inserted >= 100);
      assert.equal(new Set(seen).size, seen.length, 'no row twice');
      const original = new Set(all.map((r) => r.id));
      assert.deepEqual(
        seen.filter((id) => original.has(id)),
        all.map((r) => r.id),
        'every original row once, in order',
      );
      const { rows: order } = await svc.database.db.query<{ id: string }>(
        `SELECT id FROM transactions WHERE merchant_id = $1 AND livemode = false AND id = ANY($2::text[])
          ORDER BY created_at DESC, id DESC`,
        [merchant.id, seen],
      );
      assert.deepEqual(
        seen,
        order.map((r) => r.id),
        'the walk is in list order throughout',
      );
      await svc.database.db.query(
        `DELETE FROM transactions WHERE merchant_id = $1 AND livemode = false AND NOT (id = ANY($2::text[]))`,
        [merchant.id, all.map((r) => r.id)],
      );
    });

    it('walks rows created within one millisecond each once (the cursor keeps microseconds)', async () => {
      const micro = await svc.createMerchant('Microsecond shop');
      await seedTransactions(svc.database.db, micro.id, false, 40, 'micro');
      await svc.database.db.query(
        `UPDATE transactions SET created_at = timestamptz '2024-01-01T00:00:00Z' + (ascii(substr(id, 6, 1)) % 7) * interval '1 microsecond'
          WHERE merchant_id = $1`,
        [micro.id],
      );
      const { rows } = await svc.database.db.query<{ id: string }>(
        'SELECT id FROM transactions WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC',
        [micro.id],
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: Record<string, string | number> = { limit: 3, ...(cursor ? { cursor } : {}) };
        const body = (await list(query, micro.secretTest)).json();
        seen.push(...body.data.map((t: { id: string }) => t.id));
        cursor = body.next_cursor;
      } while (cursor);
      assert.deepEqual(
        seen,
        rows.map((r) => r.id),
      );
    });

    it('combines status, type, from and to filters', async () => {
      const from = BASE + 500 * 1000;
      const to = BASE + 1500 * 1000;
      const cases: Array<Record<string, string>> = [
        { status: 'APPROVED' },
        { type: 'REFUND' },
        { status: 'PENDING', type: 'PAYMENT' },
        { status: 'DECLINED', type: 'REFUND', from: isoOf(from) },
        { type: 'PAYMENT', to: isoOf(to) },
        { status: 'APPROVED', type: 'REFUND', from: isoOf(from), to: isoOf(to) },
        { from: isoOf(from), to: isoOf(to) },
        // Another offset, same instant: instants are compared, not strings.
        { status: 'PENDING', from: '2025-03-01T02:08:20+02:00', to: isoOf(to) },
      ];
      for (const query of cases) {
        const fromMs = query.from ? Date.parse(query.from) : -Infinity;
        const toMs = query.to ? Date.parse(query.to) : Infinity;
        const expected = all
          .filter(
            (r) =>
              (!query.status || r.status === query.status) &&
              (!query.type || r.type === query.type) &&
              r.created_ms >= fromMs &&
              r.created_ms < toMs,
          )
          .map((r) => r.id);
        assert.ok(expected.length > 0, JSON.stringify(query));
        const got = await walk(query, 100);
        assert.deepEqual(got, expected, JSON.stringify(query));
      }
      const page = (await list({ status: 'DECLINED', type: 'REFUND', limit: 100 })).json();
      for (const txn of page.data) {
        assert.equal(txn.status, 'DECLINED');
        assert.equal(txn.type, 'REFUND');
        assert.match(txn.refund_id, /^re_/);
      }
    });

    it('shows every contract field and defaults to 20 newest first', async () => {
      const response = await list({});
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.data.length, 20);
      assert.equal(body.has_more, true);
      assert.deepEqual(
        body.data.map((t: { id: string }) => t.id),
        all.slice(0, 20).map((r) => r.id),
      );
      const payment = body.data.find((t: { type: string }) => t.type === 'PAYMENT');
      assert.deepEqual(Object.keys(payment).sort(), [
        'amount_minor',
        'created_at',
        'currency',
        'gateway_id',
        'id',
        'livemode',
        'object',
        'payment_intent_id',
        'refund_id',
        'status',
        'type',
        'updated_at',
      ]);
      assert.equal(payment.object, 'transaction');
      assert.equal(payment.refund_id, null);
      assert.equal(payment.livemode, false);
      assert.equal(Number.isInteger(payment.amount_minor), true);
    });

    it('writes every row as the contract Transaction, field for field and in its order, instants truncated to milliseconds', async () => {
      const exact = await svc.createMerchant('Exact shop');
      await seedTransactions(svc.database.db, exact.id, false, 8, 'exact');
      // Microseconds that a rounding formatter would carry into the next millisecond (or second).
      await svc.database.db.query(
        `UPDATE transactions SET created_at = created_at + interval '0.123999 seconds',
                updated_at = '2025-03-02T01:02:03.999999Z' WHERE merchant_id = $1`,
        [exact.id],
      );
      const response = await list({ limit: 100 }, exact.secretTest);
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      const body = response.json();
      assert.equal(validateList(body), true, JSON.stringify(validateList.errors));
      const { rows } = await svc.database.db.query<{
        id: string;
        type: string;
        status: string;
        amount_minor: number;
        currency: string;
        payment_intent_id: string;
        refund_id: string | null;
        gateway_id: string;
        livemode: boolean;
        created_ms: string;
        updated_ms: string;
      }>(
        `SELECT id, type, status, amount_minor, currency, payment_intent_id, refund_id, gateway_id, livemode,
                floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms,
                floor(extract(epoch FROM updated_at) * 1000)::bigint::text AS updated_ms
           FROM transactions WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC`,
        [exact.id],
      );
      assert.equal(rows.length, 8);
      assert.deepEqual(body, {
        object: 'list',
        data: rows.map((r) => ({
          id: r.id,
          object: 'transaction',
          type: r.type,
          status: r.status,
          amount_minor: Number(r.amount_minor),
          currency: r.currency,
          payment_intent_id: r.payment_intent_id,
          refund_id: r.refund_id,
          gateway_id: r.gateway_id,
          livemode: r.livemode,
          created_at: isoOf(Number(r.created_ms)),
          updated_at: isoOf(Number(r.updated_ms)),
        })),
        has_more: false,
        next_cursor: null,
      });
      assert.deepEqual(Object.keys(body), Object.keys(TransactionList.properties));
      for (const item of body.data) assert.deepEqual(Object.keys(item), Object.keys(Transaction.properties));
      assert.equal(body.data[0]?.updated_at, '2025-03-02T01:02:03.999Z');
      assert.match(body.data[0]?.created_at, /\.123Z$/);
      assert.ok(body.data.some((t: { refund_id: string | null }) => t.refund_id !== null));
    });

    it('lists only the caller merchant and mode', async () => {
      const live = await list({ limit: 100 }, merchant.secretLive);
      assert.equal(live.statusCode, 200);
      assert.equal(live.json().data.length, 100);
      for (const txn of live.json().data) assert.equal(txn.livemode, true);
      const theirs = await list({ limit: 100 }, other.secretTest);
      const mine = new Set(all.map((r) => r.id));
      assert.equal(theirs.json().data.length, 100);
      for (const txn of theirs.json().data) assert.equal(mine.has(txn.id), false);
      // A cursor is a position, not a grant: in another tenant's hands it only pages that tenant's list.
      const cursor = (await list({ limit: 5 })).json().next_cursor;
      const elsewhere = (await list({ limit: 100, cursor }, other.secretTest)).json();
      for (const txn of elsewhere.data) assert.equal(mine.has(txn.id), false);
    });

    it('refuses out-of-range and malformed limits with 400 validation_error naming limit', async () => {
      for (const limit of ['0', '101', '-1', '1.5', 'ten', '']) {
        const response = await list({ limit });
        assert.equal(response.statusCode, 400, `limit=${limit}`);
        assert.equal(response.json().code, 'validation_error');
        assert.equal(response.json().errors[0].field, 'limit', `limit=${limit}`);
      }
      assert.equal((await list({ limit: 1 })).json().data.length, 1);
      assert.equal((await list({ limit: 100 })).json().data.length, 100);
    });

    it('refuses unknown filter values, malformed instants and unknown parameters with 400', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ status: 'SETTLED' }, 'status'],
        [{ status: 'approved' }, 'status'],
        [{ type: 'CHARGEBACK' }, 'type'],
        [{ from: 'yesterday' }, 'from'],
        [{ from: '2025-03-01' }, 'from'],
        [{ to: '2025-03-01T00:00:00' }, 'to'],
        [{ starting_after: 'txn_x' }, 'starting_after'],
      ];
      for (const [query, field] of cases) {
        const response = await list(query);
        assert.equal(response.statusCode, 400, JSON.stringify(query));
        assert.equal(response.json().code, 'validation_error');
        assert.equal(response.json().errors[0].field, field, JSON.stringify(query));
      }
    });

    it('refuses malformed cursors with 400 validation_error naming cursor', async () => {
      const good: string = (await list({ limit: 3 })).json().next_cursor;
      const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
      const id = all[0]?.id ?? '';
      const cursors = [
        'not a cursor',
        'abc$',
        b64('garbage'),
        b64(`2|2025-03-01T00:00:00.000000Z|${id}`),
        b64(`1|2025-03-01T00:00:00Z|${id}`),
        b64(`1|2025-13-45T00:00:00.000000Z|${id}`),
        b64('1|2025-03-01T00:00:00.000000Z|pi_000000000000000000000000'),
        b64(`1|2025-03-01T00:00:00.000000Z|${id}|extra`),
        `${good}=`,
        good.slice(0, -2),
        'x'.repeat(201),
      ];
      for (const cursor of cursors) {
        const response = await list({ cursor });
        assert.equal(response.statusCode, 400, `cursor ${cursor}`);
        assert.equal(response.json().code, 'validation_error');
        assert.equal(response.json().errors[0].field, 'cursor', `cursor ${cursor}`);
      }
      const valid = encodeTransactionCursor(
        { createdAt: '2025-03-01T00:00:10.000000Z', id },
        svc.ctx.cursorKey,
      );
      assert.equal((await list({ cursor: valid })).statusCode, 200);
      // Well-formed, but never issued: signed under another key, or the position of an issued one
      // moved with its signature kept.
      const forged = encodeTransactionCursor(
        { createdAt: '2025-03-01T00:00:10.000000Z', id },
        Buffer.alloc(32, 7),
      );
      const [, mac] = good.split('.');
      const moved = `${b64(`2|2025-03-01T00:00:10.000000Z|${id}`)}.${mac}`;
      const unsigned = b64(`1|2025-03-01T00:00:10.000000Z|${id}`);
      for (const cursor of [forged, moved, unsigned]) {
        const response = await list({ cursor });
        assert.equal(response.statusCode, 400, `cursor ${cursor}`);
        assert.equal(response.json().errors[0].field, 'cursor');
      }
    });

    it('needs transactions:read and a secret key', async () => {
      const limited = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/api-keys`,
        headers: { 'x-admin-token': 'test-admin-token-0123456789' },
        body: { livemode: false, kind: 'secret', permissions: ['refunds:read'] },
      });
      const denied = await list({}, limited.json().key);
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.json().code, 'insufficient_permissions');
      assert.equal((await list({}, merchant.publishableTest)).statusCode, 403);
      assert.equal((await svc.request({ method: 'GET', url: '/v1/transactions' })).statusCode, 401);
    });
  });
}
