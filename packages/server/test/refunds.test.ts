import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { requestHash } from '../src/app/idempotent-phases.ts';
import { sendRefund, startRefund } from '../src/app/refunds/create-refund.ts';
import { reconcilePendingRefunds } from '../src/app/refunds/reconcile-refunds.ts';
import { GatewayRegistry } from '../src/gateways/registry.ts';
import { createSimConnector } from '../src/gateways/sim/connector.ts';
import { buildHttpApp } from '../src/http/app.ts';
import { listEventsForObject } from '../src/storage/repositories/events.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

interface RefundJson {
  id: string;
  object: string;
  payment_intent_id: string;
  amount_minor: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
}

/** A stand-in gateway on a loopback port that answers every refund with one fixed failure status. */
async function startBrokenGateway(
  status: 503 | 500,
): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    request.resume();
    response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '7' });
    response.end(
      JSON.stringify({ error: { code: status === 503 ? 'unavailable' : 'internal_error', message: 'down' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A stand-in gateway in front of the real simulator: it holds each refund request open until the
 * test releases it, then forwards it; everything else is forwarded at once. `holding()` turns false
 * as soon as the connector gives up on the held request (its connection closes).
 */
async function startHeldGateway(simUrl: string): Promise<{
  url: string;
  arrived: Promise<void>;
  holding: () => boolean;
  release(): void;
  close(): Promise<void>;
}> {
  let holding = false;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method === 'POST' && request.url === '/v1/refunds') {
      holding = true;
      response.on('close', () => {
        holding = false;
      });
      arrive();
      await released;
    }
    try {
      const forwarded = await fetch(`${simUrl}${request.url}`, {
        method: request.method,
        headers: {
          authorization: String(request.headers.authorization ?? ''),
          'content-type': 'application/json',
        },
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const text = await forwarded.text();
      response.writeHead(forwarded.status, { 'content-type': 'application/json' });
      response.end(text);
    } catch {
      // The connector gave up on the request before it was released: nobody reads an answer.
      response.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    holding: () => holding,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

for (const kind of databaseKinds()) {
  describe(`refunds (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Refunding shop');
      other = await svc.createMerchant('Other shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    /** An intent brought to SUCCEEDED through the real confirm endpoint and the simulated gateway. */
    async function succeededIntent(amountMinor = 2500): Promise<IntentJson> {
      const intent = await pay.create({ amount_minor: amountMinor });
      const confirmed = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(confirmed.json().status, 'SUCCEEDED');
      return confirmed.json();
    }

    const refund = (body: unknown, options: { key?: string; idempotencyKey?: string } = {}) =>
      svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: options.key ?? merchant.secretTest,
        headers: { 'idempotency-key': options.idempotencyKey ?? freshKey('re') },
        body,
      });

    const getRefund = (id: string, key = merchant.secretTest) =>
      svc.request({ method: 'GET', url: `/v1/refunds/${id}`, key });

    async function refundTransactions(
      refundId: string,
    ): Promise<Array<{ status: string; amount_minor: number }>> {
      const { rows } = await svc.ctx.db.query<{ status: string; amount_minor: number }>(
        `SELECT status, amount_minor FROM transactions WHERE refund_id = $1 AND type = 'REFUND'`,
        [refundId],
      );
      return rows;
    }

    /** The simulator's own books: what it has refunded on the charge of an intent. */
    async function gatewayRefundedMinor(paymentIntentId: string): Promise<number> {
      const attempt = (await pay.attempts(paymentIntentId)).find((a) => a.status === 'SUCCEEDED');
      assert.ok(attempt?.gatewayReference);
      const response = await fetch(`${svc.sim.url}/v1/charges/${attempt.gatewayReference}`, {
        headers: { authorization: `Bearer ${svc.simApiSecret}` },
      });
      assert.equal(response.status, 200);
      const charge = (await response.json()) as { amount_refunded_minor: number };
      return charge.amount_refunded_minor;
    }

    async function refundEvents(refundId: string): Promise<Array<{ type: string; object: RefundJson }>> {
      return (await listEventsForObject(svc.ctx.db, refundId)).map((event) => {
        const envelope = JSON.parse(event.payload);
        return { type: envelope.type, object: envelope.data.object };
      });
    }

    async function gatewayReferenceOf(refundId: string): Promise<string> {
      const { rows } = await svc.ctx.db.query<{ gateway_reference: string | null }>(
        'SELECT gateway_reference FROM refunds WHERE id = $1',
        [refundId],
      );
      const reference = rows[0]?.gateway_reference;
      assert.ok(reference, 'the gateway named its refund');
      return reference;
    }

    it('refunds the full amount when amount_minor is omitted, with every contract field', async () => {
      const intent = await succeededIntent(2500);
      const response = await refund({ payment_intent_id: intent.id, metadata: { reason: 'returned' } });
      assert.equal(response.statusCode, 200, response.body);
      const body: RefundJson = response.json();
      assert.match(body.id, /^re_[0-9A-Za-z]{24}$/);
      assert.deepEqual(Object.keys(body).sort(), [
        'amount_minor',
        'created_at',
        'currency',
        'id',
        'livemode',
        'metadata',
        'object',
        'payment_intent_id',
        'status',
        'version',
      ]);
      assert.equal(body.object, 'refund');
      assert.equal(body.payment_intent_id, intent.id);
      assert.equal(body.amount_minor, 2500);
      assert.equal(body.currency, 'USD');
      assert.equal(body.status, 'SUCCEEDED');
      assert.deepEqual(body.metadata, { reason: 'returned' });
      assert.equal(body.livemode, false);
      assert.deepEqual((await getRefund(body.id)).json(), body);

      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 2500);
      assert.deepEqual(await refundTransactions(body.id), [{ status: 'APPROVED', amount_minor: 2500 }]);
      assert.equal(await gatewayRefundedMinor(intent.id), 2500);
      const events = await refundEvents(body.id);
      assert.deepEqual(events, [{ type: 'refund.succeeded', object: body }]);

      const again = await refund({ payment_intent_id: intent.id });
      assert.equal(again.statusCode, 422);
      assert.equal(again.json().code, 'amount_exceeds_refundable');
    });

    it('takes several partial refunds up to the captured amount, then refuses with 422', async () => {
      const intent = await succeededIntent(2500);
      for (const amount of [1000, 700, 500]) {
        const response = await refund({ payment_intent_id: intent.id, amount_minor: amount });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().status, 'SUCCEEDED');
      }
      const tooMuch = await refund({ payment_intent_id: intent.id, amount_minor: 301 });
      assert.equal(tooMuch.statusCode, 422);
      assert.equal(tooMuch.json().code, 'amount_exceeds_refundable');
      assert.equal(tooMuch.json().errors[0].field, 'amount_minor');
      assert.match(tooMuch.json().detail, /300/);
      const rest = await refund({ payment_intent_id: intent.id });
      assert.equal(rest.json().amount_minor, 300);
      const none = await refund({ payment_intent_id: intent.id, amount_minor: 1 });
      assert.equal(none.statusCode, 422);
      assert.equal(none.json().code, 'amount_exceeds_refundable');
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 2500);
      assert.equal(await gatewayRefundedMinor(intent.id), 2500);
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM refunds WHERE payment_intent_id = $1',
        [intent.id],
      );
      assert.equal(rows[0]?.n, 4, 'refused refunds leave no row');
    });

    it('20 concurrent partial refunds never refund more than captured, and the ones that fit all succeed', async () => {
      const intent = await succeededIntent(10_000);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => refund({ payment_intent_id: intent.id, amount_minor: 700 })),
      );
      const ok = responses.filter((r) => r.statusCode === 200);
      const refused = responses.filter((r) => r.statusCode !== 200);
      assert.equal(ok.length, 14, 'floor(10000 / 700) refunds fit');
      for (const r of ok) assert.equal(r.json().status, 'SUCCEEDED');
      for (const r of refused) {
        assert.equal(r.statusCode, 422, r.body);
        assert.equal(r.json().code, 'amount_exceeds_refundable');
      }
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 9_800);
      assert.equal(await gatewayRefundedMinor(intent.id), 9_800);
      const { rows } = await svc.ctx.db.query<{ total: number }>(
        `SELECT COALESCE(sum(amount_minor), 0)::bigint AS total FROM transactions
          WHERE payment_intent_id = $1 AND type = 'REFUND' AND status = 'APPROVED'`,
        [intent.id],
      );
      assert.equal(rows[0]?.total, 9_800);
    });

    it('refunds once when a request is retried with its Idempotency-Key (also at the gateway)', async () => {
      const intent = await succeededIntent(3000);
      const key = freshKey('retry');
      const first = await refund(
        { payment_intent_id: intent.id, amount_minor: 1200 },
        { idempotencyKey: key },
      );
      const second = await refund(
        { payment_intent_id: intent.id, amount_minor: 1200 },
        { idempotencyKey: key },
      );
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.equal(second.body, first.body);
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM refunds WHERE payment_intent_id = $1',
        [intent.id],
      );
      assert.equal(rows[0]?.n, 1);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 1200);
      assert.equal(await gatewayRefundedMinor(intent.id), 1200);
      const reuse = await refund(
        { payment_intent_id: intent.id, amount_minor: 1000 },
        { idempotencyKey: key },
      );
      assert.equal(reuse.statusCode, 409);
      assert.equal(reuse.json().code, 'idempotency_key_reuse');
    });

    /** Phase 1 of a refund as the route runs it, committed, for the crash points of the phases. */
    async function startCommittedRefund(
      body: { payment_intent_id: string; amount_minor: number },
      key: string,
    ) {
      return svc.ctx.db.transaction((tx) =>
        startRefund(svc.ctx, tx, { merchantId: merchant.id, livemode: false }, body, {
          idempotencyKey: key,
          requestHash: requestHash('POST', '/v1/refunds', body),
        }),
      );
    }

    it('a refund the gateway made before the process died is recorded by reconciliation, with no retry', async () => {
      const intent = await succeededIntent(2000);
      const started = await startCommittedRefund(
        { payment_intent_id: intent.id, amount_minor: 2000 },
        freshKey('crash'),
      );
      const outcome = await sendRefund(svc.ctx, started);
      assert.equal(outcome?.kind, 'succeeded');
      // The process dies here: phase 3 never runs. The recovery point says PENDING.
      assert.equal((await getRefund(started.refund.id)).json().status, 'PENDING');
      assert.equal(await gatewayRefundedMinor(intent.id), 2000);
      const over = await refund({ payment_intent_id: intent.id, amount_minor: 1 });
      assert.equal(over.statusCode, 422, 'the interrupted refund still counts against refundable');

      await reconcilePendingRefunds(svc.ctx, 100);
      assert.equal(
        (await getRefund(started.refund.id)).json().status,
        'PENDING',
        'not before its lease ends',
      );
      svc.clock.advance(61);
      await reconcilePendingRefunds(svc.ctx, 100);
      const settled: RefundJson = (await getRefund(started.refund.id)).json();
      assert.equal(settled.status, 'SUCCEEDED');
      assert.deepEqual(await refundEvents(settled.id), [{ type: 'refund.succeeded', object: settled }]);
      assert.deepEqual(await refundTransactions(settled.id), [{ status: 'APPROVED', amount_minor: 2000 }]);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 2000);
      assert.equal(await gatewayRefundedMinor(intent.id), 2000, 'refunded once at the gateway');
    });

    it('a refund interrupted before the gateway call is in flight for its lease, then the retry sends it once', async () => {
      const intent = await succeededIntent(3000);
      const key = freshKey('interrupted');
      const body = { payment_intent_id: intent.id, amount_minor: 1500 };
      const started = await startCommittedRefund(body, key);
      // The process dies before phase 2: the gateway never heard of it.
      const early = await refund(body, { idempotencyKey: key });
      assert.equal(early.statusCode, 409, early.body);
      assert.equal(early.json().code, 'idempotency_key_in_flight');
      const reuse = await refund({ ...body, amount_minor: 1400 }, { idempotencyKey: key });
      assert.equal(reuse.statusCode, 409);
      assert.equal(reuse.json().code, 'idempotency_key_reuse', 'another body under the key is refused');

      svc.clock.advance(61);
      const retry = await refund(body, { idempotencyKey: key });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.json().id, started.refund.id, 'the retry finishes the same refund');
      assert.equal(retry.json().status, 'SUCCEEDED');
      assert.equal(await gatewayRefundedMinor(intent.id), 1500);
      const replayed = await refund(body, { idempotencyKey: key });
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(replayed.body, retry.body);
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM refunds WHERE payment_intent_id = $1',
        [intent.id],
      );
      assert.equal(rows[0]?.n, 1);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 1500);
    });

    it('derives gateway refund keys of at most 64 characters (the strictest gateway limit, Adyen)', async () => {
      const intent = await succeededIntent(2500);
      const made: RefundJson = (
        await refund({ payment_intent_id: intent.id, amount_minor: 100 }, { idempotencyKey: 'k'.repeat(255) })
      ).json();
      const { rows } = await svc.ctx.db.query<{ gateway_idempotency_key: string }>(
        'SELECT gateway_idempotency_key FROM refunds WHERE id = $1',
        [made.id],
      );
      const gatewayKey = rows[0]?.gateway_idempotency_key ?? '';
      assert.ok(gatewayKey.startsWith(`${intent.id}:`), gatewayKey);
      assert.ok(gatewayKey.length <= 64, `${gatewayKey.length} characters`);
    });

    it('refuses a refund of an intent that is not SUCCEEDED with 409 invalid_state_transition', async () => {
      const created = await pay.create();
      const declined = await pay.create();
      assert.equal(
        (await pay.confirm(declined.id, { payment_method_token: 'tok_sim_decline' })).statusCode,
        402,
      );
      const canceled = await pay.create();
      await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${canceled.id}/cancel`,
        key: merchant.secretTest,
      });
      for (const [intent, status] of [
        [created, 'CREATED'],
        [declined, 'FAILED'],
        [canceled, 'CANCELED'],
      ] as const) {
        const response = await refund({ payment_intent_id: intent.id });
        assert.equal(response.statusCode, 409, status);
        assert.equal(response.json().code, 'invalid_state_transition');
        assert.match(response.json().detail, new RegExp(status));
      }
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM refunds WHERE payment_intent_id = ANY($1::text[])',
        [[created.id, declined.id, canceled.id]],
      );
      assert.equal(rows[0]?.n, 0);
    });

    it('a refund the gateway fails becomes FAILED with refund.failed, and its amount stays refundable', async () => {
      const intent = await succeededIntent(2500);
      const response = await refund({ payment_intent_id: intent.id, amount_minor: 199 });
      assert.equal(response.statusCode, 200, response.body);
      const failed: RefundJson = response.json();
      assert.equal(failed.status, 'FAILED');
      assert.deepEqual(await refundTransactions(failed.id), [{ status: 'DECLINED', amount_minor: 199 }]);
      assert.deepEqual(await refundEvents(failed.id), [{ type: 'refund.failed', object: failed }]);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 0);
      const full = await refund({ payment_intent_id: intent.id });
      assert.equal(full.json().amount_minor, 2500, 'a failed refund does not count');
      assert.equal(full.json().status, 'SUCCEEDED');
    });

    it('a late refund stays PENDING (counted as refundable), then settles by the gateway notification', async () => {
      const intent = await succeededIntent(2500);
      const response = await refund({ payment_intent_id: intent.id, amount_minor: 1013 });
      assert.equal(response.statusCode, 200, response.body);
      const pending: RefundJson = response.json();
      assert.equal(pending.status, 'PENDING');
      assert.deepEqual(await refundTransactions(pending.id), [{ status: 'PENDING', amount_minor: 1013 }]);
      assert.deepEqual(await refundEvents(pending.id), []);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 0);
      const over = await refund({ payment_intent_id: intent.id, amount_minor: 1488 });
      assert.equal(over.statusCode, 422, 'the pending refund counts');

      svc.sim.settlePendingRefund(await gatewayReferenceOf(pending.id), 'succeeded');
      await svc.sim.idle();
      const settled: RefundJson = (await getRefund(pending.id)).json();
      assert.equal(settled.status, 'SUCCEEDED');
      assert.deepEqual(await refundTransactions(pending.id), [{ status: 'APPROVED', amount_minor: 1013 }]);
      assert.deepEqual(await refundEvents(pending.id), [{ type: 'refund.succeeded', object: settled }]);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 1013);

      // Reconciliation afterwards finds nothing to do: settled once.
      svc.clock.advance(120);
      await reconcilePendingRefunds(svc.ctx, 100);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 1013);
      assert.equal((await refundEvents(pending.id)).length, 1);

      const late = (await refund({ payment_intent_id: intent.id, amount_minor: 213 })).json();
      assert.equal(late.status, 'PENDING');
      svc.sim.settlePendingRefund(await gatewayReferenceOf(late.id), 'failed');
      await svc.sim.idle();
      assert.equal((await getRefund(late.id)).json().status, 'FAILED');
      assert.deepEqual(await refundTransactions(late.id), [{ status: 'DECLINED', amount_minor: 213 }]);
      assert.deepEqual(
        (await refundEvents(late.id)).map((e) => e.type),
        ['refund.failed'],
      );
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 1013);
    });

    it('a late refund whose notification is lost is settled by reconciliation', async () => {
      const intent = await succeededIntent(5000);
      const pending: RefundJson = (await refund({ payment_intent_id: intent.id, amount_minor: 4013 })).json();
      assert.equal(pending.status, 'PENDING');
      svc.sim.setNotificationUrl(null);
      try {
        svc.sim.settlePendingRefund(await gatewayReferenceOf(pending.id), 'succeeded');
        await svc.sim.idle();
      } finally {
        svc.sim.setNotificationUrl(`${svc.baseUrl}/gateway-notifications/sim`);
      }
      assert.equal((await getRefund(pending.id)).json().status, 'PENDING');
      // Not due yet: the job leaves it alone until its next sync time.
      await reconcilePendingRefunds(svc.ctx, 100);
      assert.equal((await getRefund(pending.id)).json().status, 'PENDING');
      svc.clock.advance(61);
      await reconcilePendingRefunds(svc.ctx, 100);
      const settled: RefundJson = (await getRefund(pending.id)).json();
      assert.equal(settled.status, 'SUCCEEDED');
      assert.deepEqual(await refundEvents(pending.id), [{ type: 'refund.succeeded', object: settled }]);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 4013);
    });

    describe('with a gateway that cannot answer', () => {
      let brokenApps: FastifyInstance[] = [];
      after(async () => {
        for (const app of brokenApps) await app.close();
        brokenApps = [];
      });

      /** The same service (same database and clock) whose `sim` connector talks to `url` instead. */
      async function appWithGatewayAt(url: string): Promise<FastifyInstance> {
        const connector = createSimConnector({
          baseUrl: url,
          apiSecret: svc.simApiSecret,
          notificationSecret: svc.simNotificationSecret,
          clock: svc.clock,
          requestTimeoutMs: 2_000,
        });
        const app = await buildHttpApp(
          { ...svc.ctx, gateways: new GatewayRegistry([connector]) },
          {
            adminToken: ADMIN_TOKEN,
            rateLimitPerSecond: 100_000,
            redisUrl: null,
            logLevel: 'silent',
            testClock: null,
          },
        );
        brokenApps.push(app);
        return app;
      }

      it('an unrelated GET completes while a refund waits for its gateway (no transaction spans the call)', async () => {
        const intent = await succeededIntent(2500);
        const gateway = await startHeldGateway(svc.sim.url);
        const key = freshKey('slow');
        try {
          const app = await appWithGatewayAt(gateway.url);
          const refunding = app.inject({
            method: 'POST',
            url: '/v1/refunds',
            headers: {
              'x-api-key': merchant.secretTest,
              'idempotency-key': key,
              'content-type': 'application/json',
            },
            payload: JSON.stringify({ payment_intent_id: intent.id, amount_minor: 700 }),
          });
          await gateway.arrived;
          const read = await pay.retrieve(intent.id);
          assert.equal(read.status, 'SUCCEEDED');
          // The same request again while the first waits for the gateway: in flight, nothing sent.
          const meanwhile = await refund(
            { payment_intent_id: intent.id, amount_minor: 700 },
            { idempotencyKey: key },
          );
          assert.equal(meanwhile.statusCode, 409, meanwhile.body);
          assert.equal(meanwhile.json().code, 'idempotency_key_in_flight');
          assert.equal(gateway.holding(), true, 'the GET finished while the gateway still held the refund');
          gateway.release();
          const response = await refunding;
          assert.equal(response.statusCode, 200, response.body);
          assert.equal(response.json().status, 'SUCCEEDED');
          assert.equal(await gatewayRefundedMinor(intent.id), 700);
          const replayed = await refund(
            { payment_intent_id: intent.id, amount_minor: 700 },
            { idempotencyKey: key },
          );
          assert.equal(replayed.headers['idempotent-replayed'], 'true');
          assert.equal(replayed.body, response.body);
          assert.equal(await gatewayRefundedMinor(intent.id), 700, 'refunded once');
        } finally {
          gateway.release();
          await gateway.close();
        }
      });

      it('answers 503 gateway_unavailable with Retry-After, keeps no refund, and the same key may retry', async () => {
        const intent = await succeededIntent(2500);
        const gateway = await startBrokenGateway(503);
        try {
          const app = await appWithGatewayAt(gateway.url);
          const key = freshKey('unavailable');
          const payload = JSON.stringify({ payment_intent_id: intent.id, amount_minor: 800 });
          const headers = {
            'x-api-key': merchant.secretTest,
            'idempotency-key': key,
            'content-type': 'application/json',
          };
          const response = await app.inject({ method: 'POST', url: '/v1/refunds', headers, payload });
          assert.equal(response.statusCode, 503);
          assert.equal(response.json().code, 'gateway_unavailable');
          assert.equal(response.headers['retry-after'], '7');
          assert.equal(gateway.requests(), 1);
          const { rows } = await svc.ctx.db.query<{ refunds: number; txns: number }>(
            `SELECT (SELECT count(*)::int FROM refunds WHERE payment_intent_id = $1) AS refunds,
                    (SELECT count(*)::int FROM transactions WHERE payment_intent_id = $1 AND type = 'REFUND') AS txns`,
            [intent.id],
          );
          assert.deepEqual(rows[0], { refunds: 0, txns: 0 });

          const retry = await refund(JSON.parse(payload), { idempotencyKey: key });
          assert.equal(retry.statusCode, 200, retry.body);
          assert.equal(retry.headers['idempotent-replayed'], undefined, 'the 503 was not stored');
          assert.equal(retry.json().status, 'SUCCEEDED');
          assert.equal(await gatewayRefundedMinor(intent.id), 800);
        } finally {
          await gateway.close();
        }
      });

      it('keeps a refund with no readable answer PENDING, and reconciliation sends the same request again when the gateway has none', async () => {
        const intent = await succeededIntent(2500);
        const gateway = await startBrokenGateway(500);
        let refundId: string;
        try {
          const app = await appWithGatewayAt(gateway.url);
          const response = await app.inject({
            method: 'POST',
            url: '/v1/refunds',
            headers: {
              'x-api-key': merchant.secretTest,
              'idempotency-key': freshKey('unknown'),
              'content-type': 'application/json',
            },
            payload: JSON.stringify({ payment_intent_id: intent.id, amount_minor: 900 }),
          });
          assert.equal(response.statusCode, 200, response.body);
          assert.equal(response.json().status, 'PENDING');
          refundId = response.json().id;
        } finally {
          await gateway.close();
        }
        const over = await refund({ payment_intent_id: intent.id, amount_minor: 1601 });
        assert.equal(over.statusCode, 422, 'the unknown refund still counts');

        svc.clock.advance(61);
        await reconcilePendingRefunds(svc.ctx, 100);
        const settled: RefundJson = (await getRefund(refundId)).json();
        assert.equal(
          settled.status,
          'SUCCEEDED',
          'the real gateway never received it: reconciliation sent it',
        );
        assert.deepEqual(await refundEvents(refundId), [{ type: 'refund.succeeded', object: settled }]);
        assert.equal(await gatewayRefundedMinor(intent.id), 900, 'refunded once');
        assert.equal((await refund({ payment_intent_id: intent.id })).json().amount_minor, 1600);
      });
    });

    it('validates the request: Idempotency-Key, payment_intent_id, amount and unknown fields', async () => {
      const intent = await succeededIntent(2500);
      const noKey = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        body: { payment_intent_id: intent.id },
      });
      assert.equal(noKey.statusCode, 400);
      assert.equal(noKey.json().errors[0].field, 'Idempotency-Key');
      const cases: Array<[unknown, string]> = [
        [{}, 'payment_intent_id'],
        [{ payment_intent_id: intent.id, amount_minor: 0 }, 'amount_minor'],
        [{ payment_intent_id: intent.id, amount_minor: 10.5 }, 'amount_minor'],
        [{ payment_intent_id: intent.id, amount_minor: '100' }, 'amount_minor'],
        [{ payment_intent_id: intent.id, reason: 'duplicate' }, 'reason'],
        [{ payment_intent_id: intent.id, metadata: { a: 1 } }, 'metadata.a'],
      ];
      for (const [body, field] of cases) {
        const response = await refund(body);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
        assert.equal(response.json().code, 'validation_error');
        assert.equal(response.json().errors[0].field, field, JSON.stringify(body));
      }
      const unknown = await refund({ payment_intent_id: 'pi_000000000000000000000000' });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'resource_not_found');
      assert.equal((await getRefund('re_000000000000000000000000')).statusCode, 404);
      assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 0);
    });

    it('needs refunds:write to refund and refunds:read to read, with a secret key of the same merchant and mode', async () => {
      const intent = await succeededIntent(2500);
      const made: RefundJson = (await refund({ payment_intent_id: intent.id, amount_minor: 100 })).json();
      const keyWith = async (permissions: string[]) =>
        (
          await svc.request({
            method: 'POST',
            url: `/admin/v1/merchants/${merchant.id}/api-keys`,
            headers: { 'x-admin-token': ADMIN_TOKEN },
            body: { livemode: false, kind: 'secret', permissions },
          })
        ).json().key as string;
      const readOnly = await keyWith(['refunds:read']);
      const denied = await refund({ payment_intent_id: intent.id, amount_minor: 100 }, { key: readOnly });
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.json().code, 'insufficient_permissions');
      assert.equal((await getRefund(made.id, readOnly)).statusCode, 200);
      const writeOnly = await keyWith(['refunds:write']);
      assert.equal((await getRefund(made.id, writeOnly)).statusCode, 403);
      assert.equal((await getRefund(made.id, merchant.publishableTest)).statusCode, 403);
      for (const key of [other.secretTest, merchant.secretLive]) {
        const response = await getRefund(made.id, key);
        assert.equal(response.statusCode, 404);
        assert.equal(response.body.includes(intent.id), false);
      }
    });
  });
}
