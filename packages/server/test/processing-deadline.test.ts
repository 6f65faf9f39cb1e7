import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AppContext } from '../src/app/context.ts';
import { repairLateCaptures } from '../src/app/late-captures/repair-late-captures.ts';
import {
  DELAYED_CHARGE_MAX_TRIES,
  LATE_WATCH_SECONDS,
  PROCESSING_DEADLINE_SECONDS,
} from '../src/app/payments/charge-outcomes.ts';
import { reconcileOpenCharges, runDueDelayedCharges } from '../src/app/payments/settle-open-charges.ts';
import { reconcilePendingRefunds } from '../src/app/refunds/reconcile-refunds.ts';
import { GatewayRegistry } from '../src/gateways/registry.ts';
import { createSimConnector } from '../src/gateways/sim/connector.ts';
import { buildHttpApp } from '../src/http/app.ts';
import { databaseKinds } from './support/databases.ts';
import { type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const BATCH = 100;

/**
 * A stand-in in front of the simulator that, while `losing`, forwards each charge to it but loses
 * the answer (500), and answers every read with 500: a charge made at the gateway whose outcome
 * Paygate cannot learn. Once healed it forwards everything.
 */
async function startLossyGateway(
  simUrl: string,
): Promise<{ url: string; heal(): void; close(): Promise<void> }> {
  let losing = true;
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const lost = () => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'internal_error', message: 'lost' } }));
    };
    if (losing && request.method === 'GET') return lost();
    const forwarded = await fetch(`${simUrl}${request.url}`, {
      method: request.method,
      headers: {
        authorization: String(request.headers.authorization ?? ''),
        'content-type': 'application/json',
      },
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const text = await forwarded.text();
    if (losing) return lost();
    response.writeHead(forwarded.status, { 'content-type': 'application/json' });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    heal: () => {
      losing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const kind of databaseKinds()) {
  describe(`no payment stays PROCESSING (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Patient shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    /** The service's context and HTTP app with its `sim` connector pointed at `url`. */
    async function serviceWithGatewayAt(url: string) {
      const connector = createSimConnector({
        baseUrl: url,
        apiSecret: svc.simApiSecret,
        notificationSecret: svc.simNotificationSecret,
        clock: svc.clock,
        requestTimeoutMs: 5_000,
      });
      const ctx: AppContext = { ...svc.ctx, gateways: new GatewayRegistry([connector]) };
      const app = await buildHttpApp(ctx, {
        adminToken: ADMIN_TOKEN,
        rateLimitPerSecond: 100_000,
        redisUrl: null,
        logLevel: 'silent',
        testClock: null,
      });
      return { ctx, app };
    }

    it('fails a delayed charge the gateway never takes after a bounded number of tries, with back-off', async () => {
      const intent = await pay.create({ amount_minor: 1013 });
      const confirmed = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_unavailable' });
      assert.equal(confirmed.json().status, 'PROCESSING');
      svc.clock.advance(60);
      let sent = 0;
      // 20 minutes of the service's time, looked at every 10 s as the job would.
      for (let elapsed = 0; elapsed <= 20 * 60; elapsed += 10) {
        sent += (await runDueDelayedCharges(svc.ctx, BATCH)).handled;
        svc.clock.advance(10);
      }
      assert.equal(sent, DELAYED_CHARGE_MAX_TRIES, 'sent a bounded number of times, not every few seconds');
      const failed = await pay.retrieve(intent.id);
      assert.equal(failed.status, 'FAILED');
      assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.failed']);
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['DECLINED']);
      const [attempt] = await pay.attempts(intent.id);
      assert.equal(attempt?.status, 'FAILED');
      assert.equal(attempt?.nextCheckAt, null);
      const atGateway = await pay.gatewayCharge(intent.id, 1);
      assert.equal(atGateway.kind === 'failed' && atGateway.gatewayReference, null, 'nothing was charged');
    });

    it('fails a charge with no outcome after the processing deadline, then refunds the capture the gateway reports later', async () => {
      const gateway = await startLossyGateway(svc.sim.url);
      try {
        const { ctx, app } = await serviceWithGatewayAt(gateway.url);
        const intent = await pay.create({ amount_minor: 4100 });
        const confirmed = await app.inject({
          method: 'POST',
          url: `/v1/payment-intents/${intent.id}/confirm`,
          headers: { 'x-api-key': merchant.secretTest, 'content-type': 'application/json' },
          payload: JSON.stringify({ payment_method_token: 'tok_sim_approve' }),
        });
        assert.equal(confirmed.json().status, 'PROCESSING', confirmed.body);

        const hour = 3600;
        let hours = 0;
        while ((await pay.retrieve(intent.id)).status === 'PROCESSING' && hours < 48) {
          svc.clock.advance(hour);
          hours += 1;
          await reconcileOpenCharges(ctx, BATCH);
        }
        assert.equal(hours, PROCESSING_DEADLINE_SECONDS / hour, 'given up at the deadline, not before');
        assert.equal((await pay.retrieve(intent.id)).status, 'FAILED');
        assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.failed']);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['DECLINED']);
        assert.equal((await pay.attempts(intent.id))[0]?.status, 'TIMED_OUT');

        // The gateway had taken the money: once it answers again, reconciliation finds the capture.
        gateway.heal();
        svc.clock.advance(hour + 1);
        await reconcileOpenCharges(ctx, BATCH);
        assert.equal((await pay.retrieve(intent.id)).status, 'FAILED');
        const [attempt] = await pay.attempts(intent.id);
        assert.equal(attempt?.nextCheckAt, null, 'the watch ends with a definite answer');
        const list = await svc.request({
          method: 'GET',
          url: '/admin/v1/late-captures?limit=100',
          headers: { 'x-admin-token': ADMIN_TOKEN },
        });
        const capture = list
          .json()
          .data.find((c: { payment_intent_id: string }) => c.payment_intent_id === intent.id);
        assert.ok(capture, 'recorded as a late capture');
        assert.equal(capture.detected_by, 'sync');
        assert.equal(capture.intent_status, 'FAILED');

        await repairLateCaptures(ctx, BATCH);
        await reconcilePendingRefunds(ctx, BATCH);
        const refunded = await fetch(`${svc.sim.url}/v1/charges/${attempt?.gatewayReference}`, {
          headers: { authorization: `Bearer ${svc.simApiSecret}` },
        });
        assert.equal(
          ((await refunded.json()) as { amount_refunded_minor: number }).amount_refunded_minor,
          4100,
        );
        assert.deepEqual(await pay.eventTypes(intent.id), [
          'payment_intent.failed',
          'payment_intent.late_captured',
          'payment_intent.late_capture_refunded',
        ]);
        // The books show the capture and its automatic refund, as the gateway's report does.
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
        assert.equal((await pay.retrieve(intent.id)).amount_refunded_minor, 4100);
        await app.close();
      } finally {
        await gateway.close();
      }
    });

    it('stops watching a timed-out charge once its late-capture watch is over', async () => {
      const gateway = await startLossyGateway(svc.sim.url);
      try {
        const { ctx, app } = await serviceWithGatewayAt(gateway.url);
        const intent = await pay.create({ amount_minor: 4200 });
        await app.inject({
          method: 'POST',
          url: `/v1/payment-intents/${intent.id}/confirm`,
          headers: { 'x-api-key': merchant.secretTest, 'content-type': 'application/json' },
          payload: JSON.stringify({ payment_method_token: 'tok_sim_approve' }),
        });
        const day = 24 * 3600;
        for (
          let elapsed = 0;
          elapsed <= PROCESSING_DEADLINE_SECONDS + LATE_WATCH_SECONDS + day;
          elapsed += day / 4
        ) {
          svc.clock.advance(day / 4);
          await reconcileOpenCharges(ctx, BATCH);
        }
        const [attempt] = await pay.attempts(intent.id);
        assert.equal(attempt?.status, 'TIMED_OUT');
        assert.equal(attempt?.nextCheckAt, null);
        assert.equal((await pay.retrieve(intent.id)).status, 'FAILED');
        await app.close();
      } finally {
        await gateway.close();
      }
    });
  });
}
