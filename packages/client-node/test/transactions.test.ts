import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InternalServerError } from '../src/index.ts';
import { problem, sendJson, startServer, testClient } from './support.ts';

function txn(n: number) {
  return {
    id: `txn_${String(n).padStart(24, '0')}`,
    object: 'transaction',
    type: 'PAYMENT',
    status: 'APPROVED',
    amount_minor: 100 + n,
    currency: 'USD',
    payment_intent_id: `pi_${String(n).padStart(24, '0')}`,
    refund_id: null,
    gateway_id: 'sim',
    livemode: false,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  };
}

// Three pages of two, chained by opaque cursors.
const pages: Record<string, { data: unknown[]; has_more: boolean; next_cursor: string | null }> = {
  first: { data: [txn(1), txn(2)], has_more: true, next_cursor: 'cur_page2' },
  cur_page2: { data: [txn(3), txn(4)], has_more: true, next_cursor: 'cur_page3' },
  cur_page3: { data: [txn(5)], has_more: false, next_cursor: null },
};

describe('transactions.list', () => {
  it('follows next_cursor while has_more, yields every transaction and never exposes the cursor', async () => {
    const server = await startServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      sendJson(res, 200, pages[url.searchParams.get('cursor') ?? 'first']);
    });
    try {
      const { client } = testClient(server.baseUrl);
      const seen = [];
      for await (const t of client.transactions.list({
        status: 'APPROVED',
        type: 'PAYMENT',
        from: new Date('2025-01-01T00:00:00Z'),
        to: '2025-02-01T00:00:00Z',
        limit: 2,
      })) {
        seen.push(t);
      }
      assert.deepEqual(seen, [txn(1), txn(2), txn(3), txn(4), txn(5)]);
      assert.ok(seen.every((t) => !JSON.stringify(t).includes('cur_')));
      const queries = server.requests.map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));
      const filters = {
        status: 'APPROVED',
        type: 'PAYMENT',
        from: '2025-01-01T00:00:00.000Z',
        to: '2025-02-01T00:00:00Z',
        limit: '2',
      };
      assert.deepEqual(queries, [
        filters,
        { ...filters, cursor: 'cur_page2' },
        { ...filters, cursor: 'cur_page3' },
      ]);
      assert.ok(server.requests.every((r) => r.method === 'GET' && r.url.startsWith('/v1/transactions?')));
    } finally {
      await server.close();
    }
  });

  it('sends no request until iterated, and stops early when the caller breaks', async () => {
    const server = await startServer((req, res) => {
      sendJson(res, 200, pages[new URL(req.url, 'http://x').searchParams.get('cursor') ?? 'first']);
    });
    try {
      const { client } = testClient(server.baseUrl);
      const list = client.transactions.list();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(server.requests.length, 0);
      for await (const t of list) {
        assert.equal(t.id, txn(1).id);
        break;
      }
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0]?.url, '/v1/transactions');
    } finally {
      await server.close();
    }
  });

  it('stops when a page claims more but carries no cursor', async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 200, { data: [txn(1)], has_more: true, next_cursor: null }),
    );
    try {
      const { client } = testClient(server.baseUrl);
      const seen = [];
      for await (const t of client.transactions.list()) seen.push(t.id);
      assert.deepEqual(seen, [txn(1).id]);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('retries a failed page like any GET and resumes from the same cursor', async () => {
    let failures = 0;
    const server = await startServer((req, res) => {
      const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
      if (cursor === 'cur_page2' && failures++ === 0)
        return sendJson(res, 500, problem(500, 'internal_error'));
      sendJson(res, 200, pages[cursor ?? 'first']);
    });
    try {
      const { client, sleeps } = testClient(server.baseUrl);
      const ids = [];
      for await (const t of client.transactions.list()) ids.push(t.id);
      assert.equal(ids.length, 5);
      assert.equal(server.requests.length, 4);
      assert.equal(sleeps.length, 1);
    } finally {
      await server.close();
    }
  });

  it('raises the error of a page that keeps failing', async () => {
    const server = await startServer((_req, res) => sendJson(res, 500, problem(500, 'internal_error')));
    try {
      const { client } = testClient(server.baseUrl);
      const iterate = async () => {
        for await (const _ of client.transactions.list()) assert.fail('no transaction expected');
      };
      await assert.rejects(iterate(), InternalServerError);
    } finally {
      await server.close();
    }
  });
});
