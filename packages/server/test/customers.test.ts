// Customers (issue 44, item 1; CONTRACT.md, second round): create under an Idempotency-Key,
// retrieve, update, delete, list with an e-mail filter, each change with its customer.* event, on
// both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

type Json = Record<string, unknown>;

for (const kind of databaseKinds()) {
  describe(`customers (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Customers shop');
    });
    after(() => svc.close());

    const api = (
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      body?: unknown,
      headers: Record<string, string> = {},
      key = merchant.secretTest,
    ) => svc.request({ method, url, key, headers, ...(body === undefined ? {} : { body }) });
    const create = async (body: Json, idempotencyKey = freshKey('cus')) => {
      const response = await api('POST', '/v1/customers', body, { 'idempotency-key': idempotencyKey });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as Json;
    };
    /** The event types written for a customer, oldest first, with the version each carries. */
    const eventsOf = async (id: string) => {
      const { rows } = await svc.ctx.db.query<{ type: string; payload: string }>(
        'SELECT type, payload FROM events WHERE object_id = $1 ORDER BY created_at, id',
        [id],
      );
      return rows.map((row) => `${row.type}@${JSON.parse(row.payload).data.object.version}`);
    };

    it('creates a customer once per Idempotency-Key, with customer.created', async () => {
      const key = freshKey('cus');
      const body = { email: 'Ada@Example.com', name: 'Ada Lovelace', metadata: { plan: 'gold' } };
      const first = await api('POST', '/v1/customers', body, { 'idempotency-key': key });
      assert.equal(first.statusCode, 200, first.body);
      const customer = first.json();
      assert.match(customer.id, /^cus_[0-9A-Za-z]{24}$/);
      assert.deepEqual(
        { ...customer, id: 'x', created_at: 'x' },
        {
          id: 'x',
          object: 'customer',
          email: 'Ada@Example.com',
          name: 'Ada Lovelace',
          metadata: { plan: 'gold' },
          livemode: false,
          created_at: 'x',
          version: 1,
          deleted: false,
        },
      );
      const again = await api('POST', '/v1/customers', body, { 'idempotency-key': key });
      assert.equal(again.body, first.body, 'replayed byte for byte');
      const reused = await api(
        'POST',
        '/v1/customers',
        { ...body, name: 'Other' },
        { 'idempotency-key': key },
      );
      assert.equal(reused.statusCode, 409);
      assert.equal(reused.json().code, 'idempotency_key_reuse');
      assert.deepEqual(await eventsOf(customer.id), ['customer.created@1']);
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM customers WHERE merchant_id = $1 AND name = $2',
        [merchant.id, 'Ada Lovelace'],
      );
      assert.equal(rows[0]?.n, 1);
    });

    it('refuses a create without an Idempotency-Key, and bad fields, naming the field, storing nothing', async () => {
      const without = await api('POST', '/v1/customers', { email: 'a@b.co' });
      assert.equal(without.statusCode, 400, without.body);
      for (const [body, field] of [
        [{ email: 'not-an-email' }, 'email'],
        [{ email: 'two@@example.com' }, 'email'],
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
        [{ metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata'],
        [{ metadata: { k: 'v'.repeat(501) } }, 'metadata'],
        [{ name: 'Card 4242 4242 4242 4242' }, 'name'],
        [{ phone: '+44' }, 'phone'],
      ] as const) {
        const response = await api('POST', '/v1/customers', body, { 'idempotency-key': freshKey('bad') });
        assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
        const problem = response.json();
        assert.equal(problem.code, 'validation_error');
        assert.ok(
          JSON.stringify(problem.errors ?? []).includes(field) || String(problem.detail).includes(field),
          `${field} named: ${response.body}`,
        );
        assert.ok(!response.body.includes('4242 4242'), 'the card number is never echoed');
      }
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM customers WHERE merchant_id = $1 AND (email = 'not-an-email' OR name LIKE 'Card%')`,
        [merchant.id],
      );
      assert.equal(rows[0]?.n, 0);
    });

    it('updates e-mail and name, merges metadata, and writes nothing for a change that changes nothing', async () => {
      const customer = await create({ email: 'b@example.com', metadata: { a: '1', b: '2' } });
      const url = `/v1/customers/${customer.id}`;
      const updated = await api('POST', url, { name: 'Bea', metadata: { b: '', c: '3' } });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.deepEqual(
        [updated.json().name, updated.json().email, updated.json().metadata, updated.json().version],
        ['Bea', 'b@example.com', { a: '1', c: '3' }, 2],
      );
      const same = await api('POST', url, { name: 'Bea', metadata: { a: '1' } });
      assert.equal(same.json().version, 2, 'nothing changed: no new version');
      const cleared = await api('POST', url, { email: null });
      assert.deepEqual([cleared.json().email, cleared.json().version], [null, 3]);
      assert.deepEqual(await eventsOf(String(customer.id)), [
        'customer.created@1',
        'customer.updated@2',
        'customer.updated@3',
      ]);
      const bad = await api('POST', url, { email: 'nope' });
      assert.equal(bad.statusCode, 400);
      assert.equal((await api('GET', url)).json().version, 3);
      assert.equal(
        (await api('POST', '/v1/customers/cus_000000000000000000000000', { name: 'x' })).statusCode,
        404,
      );
    });

    it('deletes a customer once: deleted true, customer.deleted, a repeat answers the same; then it is gone', async () => {
      const customer = await create({ email: 'gone@example.com' });
      const url = `/v1/customers/${customer.id}`;
      const deleted = await api('DELETE', url);
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.deepEqual([deleted.json().deleted, deleted.json().version], [true, 2]);
      const again = await api('DELETE', url);
      assert.equal(again.statusCode, 200);
      assert.equal(again.body, deleted.body);
      assert.deepEqual(await eventsOf(String(customer.id)), ['customer.created@1', 'customer.deleted@2']);
      assert.equal((await api('GET', url)).statusCode, 404);
      assert.equal((await api('POST', url, { name: 'Back' })).statusCode, 404);
      const listed = await api('GET', '/v1/customers?email=gone@example.com');
      assert.deepEqual(listed.json().data, []);
      assert.equal((await api('DELETE', '/v1/customers/cus_000000000000000000000000')).statusCode, 404);
    });

    it('lists newest first in pages, filters by e-mail without regard to case, and refuses a bad cursor', async () => {
      const other = await svc.createMerchant('Listing shop');
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await api(
          'POST',
          '/v1/customers',
          { email: i % 2 === 0 ? 'Even@Example.com' : `odd${i}@example.com` },
          { 'idempotency-key': freshKey('list') },
          other.secretTest,
        );
        made.push(response.json().id);
      }
      const seen: string[] = [];
      let url = '/v1/customers?limit=2';
      for (let page = 0; page < 5; page++) {
        const response = await api('GET', url, undefined, {}, other.secretTest);
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        seen.push(...body.data.map((c: Json) => c.id));
        if (!body.has_more) break;
        url = `/v1/customers?limit=2&cursor=${body.next_cursor}`;
      }
      assert.deepEqual(seen, [...made].reverse());
      const evens = await api('GET', '/v1/customers?email=even@EXAMPLE.com', undefined, {}, other.secretTest);
      assert.deepEqual(
        evens.json().data.map((c: Json) => c.id),
        [made[4], made[2], made[0]],
      );
      const live = await api('GET', '/v1/customers', undefined, {}, other.secretLive);
      assert.deepEqual(live.json().data, [], 'the other mode has none');
      const bad = await api('GET', '/v1/customers?cursor=not-a-cursor', undefined, {}, other.secretTest);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'validation_error');
    });

    it('pages 20 customers when no limit is given, and takes a limit from 1 to 100 only', async () => {
      const shop = await svc.createMerchant('Page size shop');
      for (let i = 0; i < 21; i++) {
        await api(
          'POST',
          '/v1/customers',
          { name: `c${i}` },
          { 'idempotency-key': freshKey('size') },
          shop.secretTest,
        );
      }
      const first = (await api('GET', '/v1/customers', undefined, {}, shop.secretTest)).json();
      assert.deepEqual([first.data.length, first.has_more], [20, true]);
      const all = (await api('GET', '/v1/customers?limit=100', undefined, {}, shop.secretTest)).json();
      assert.deepEqual([all.data.length, all.has_more], [21, false]);
      for (const limit of [0, 101]) {
        const refused = await api('GET', `/v1/customers?limit=${limit}`, undefined, {}, shop.secretTest);
        assert.equal(refused.statusCode, 400, `limit=${limit}`);
        assert.match(refused.body, /limit/);
      }
    });

    it('takes customers:read and customers:write from a restricted key', async () => {
      const restricted = async (permissions: string[]) => {
        const response = await svc.request({
          method: 'POST',
          url: `/admin/v1/merchants/${merchant.id}/api-keys`,
          headers: { 'x-admin-token': ADMIN_TOKEN },
          body: { livemode: false, kind: 'secret', permissions },
        });
        assert.equal(response.statusCode, 201, response.body);
        return String(response.json().key);
      };
      const customer = await create({ name: 'Perm' });
      const paymentsOnly = await restricted(['payment_intents:read']);
      const denied = await api('GET', `/v1/customers/${customer.id}`, undefined, {}, paymentsOnly);
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.json().code, 'insufficient_permissions');
      const reader = await restricted(['customers:read']);
      assert.equal((await api('GET', `/v1/customers/${customer.id}`, undefined, {}, reader)).statusCode, 200);
      const write = await api('DELETE', `/v1/customers/${customer.id}`, undefined, {}, reader);
      assert.equal(write.statusCode, 403);
    });
  });
}
