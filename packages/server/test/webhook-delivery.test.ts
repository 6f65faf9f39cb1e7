import assert from 'node:assert/strict';
import { timingSafeEqual } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadWebhookVectors, referenceSignature } from '@paygate/contract/webhook-vectors';
import { waitFor } from '@paygate/testing';
import { ATTEMPT_OFFSETS_SECONDS } from '../src/domain/retry-schedules.ts';
import { claimDueDeliveries, finishClaims } from '../src/storage/repositories/webhook-deliveries.ts';
import {
  createDeliveryWorker,
  type DeliveryWorker,
  type WorkerLogger,
} from '../src/webhooks/delivery-worker.ts';
import { RESPONSE_EXCERPT_BYTES } from '../src/webhooks/sender.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { emitCanceledEvent } from './support/webhook-events.ts';
import {
  answer,
  type Responder,
  startWebhookReceiver,
  type WebhookReceiver,
} from './support/webhook-receiver.ts';

const admin = { 'x-admin-token': ADMIN_TOKEN };
const ATTEMPT_TIMEOUT_MS = 1000;

/**
 * A receiver's verification written from the specification and the vectors' description alone
 * (not the server's signing module): HMAC-SHA256 keyed by the whole secret, over `t + "." + raw
 * body`, any v1 matching any secret, every pair compared, |now - t| <= 300.
 */
function receiverAccepts(rawBody: Buffer, header: string, secrets: string[], nowSeconds: number): boolean {
  const elements = header.split(',').map((e) => e.trim());
  const ts = elements.filter((e) => e.startsWith('t='));
  const v1s = elements.filter((e) => e.startsWith('v1=')).map((e) => e.slice(3));
  if (ts.length !== 1 || v1s.length === 0) return false;
  const t = ts[0]?.slice(2) ?? '';
  if (!/^[0-9]+$/.test(t)) return false;
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(referenceSignature(secret, t, rawBody), 'hex');
    for (const v1 of v1s) {
      if (/^[0-9a-f]{64}$/.test(v1) && timingSafeEqual(expected, Buffer.from(v1, 'hex'))) matched = true;
    }
  }
  return matched && Math.abs(nowSeconds - Number(t)) <= 300;
}

describe('the test receiver verifies as the contract vectors say', () => {
  it('agrees with every shared vector', () => {
    const vectors = loadWebhookVectors();
    for (const c of vectors.cases) {
      // invalid_payload is about the body's shape after a valid signature: the signature verifies.
      const signatureValid = c.valid || c.error === 'invalid_payload';
      assert.equal(
        receiverAccepts(Buffer.from(c.raw_body, 'utf8'), c.header, c.secrets, c.now),
        signatureValid,
        c.name,
      );
    }
  });
});

for (const kind of databaseKinds()) {
  describe(`webhook delivery (${kind})`, () => {
    let svc: TestService;
    let worker: DeliveryWorker;
    const logged: { level: string; details: Record<string, unknown>; message: string }[] = [];
    const logger: WorkerLogger = {
      info: (details, message) => logged.push({ level: 'info', details: { ...details }, message }),
      warn: (details, message) => logged.push({ level: 'warn', details: { ...details }, message }),
      error: (details, message) => logged.push({ level: 'error', details: { ...details }, message }),
    };
    const receivers: WebhookReceiver[] = [];

    before(async () => {
      svc = await startTestService(kind);
      worker = createDeliveryWorker(svc.ctx, { timeoutMs: ATTEMPT_TIMEOUT_MS, logger });
    });
    after(async () => {
      await worker.stop();
      await Promise.all(receivers.map((r) => r.close()));
      await svc.close();
    });

    const wallSeconds = () => Math.floor(svc.wallClock.now().getTime() / 1000);
    // Real time moves on with the test clock here, so each attempt's signing time differs.
    const advanceTo = (instant: Date) => {
      const seconds = (instant.getTime() - svc.clock.now().getTime()) / 1000;
      if (seconds > 0) {
        svc.clock.advance(seconds);
        svc.wallClock.advance(seconds);
      }
    };

    async function setup(options: { responder?: Responder; livemode?: boolean; url?: string } = {}) {
      const receiver = await startWebhookReceiver(options.responder);
      receivers.push(receiver);
      const merchant = await svc.createMerchant('Webhook shop');
      const response = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: admin,
        body: { url: options.url ?? receiver.url, livemode: options.livemode ?? false },
      });
      assert.equal(response.statusCode, 201, response.body);
      const endpoint: { id: string; secret: string } = response.json();
      return { receiver, merchant, endpoint };
    }

    /** One payment_intent.canceled event whose payload holds multi-byte characters. */
    const emit = (merchant: MerchantKeys, livemode = false) =>
      emitCanceledEvent(svc, merchant, { livemode, metadata: { note: 'café ☕ «quoted» \\ "x"' } });

    async function deliveryOf(eventId: string) {
      const { rows } = await svc.ctx.db.query<{
        id: string;
        status: string;
        attempts_made: number;
        first_attempt_at: Date | null;
        next_attempt_at: Date | null;
      }>(
        'SELECT id, status, attempts_made, first_attempt_at, next_attempt_at FROM webhook_deliveries WHERE event_id = $1',
        [eventId],
      );
      assert.equal(rows.length, 1);
      const row = rows[0];
      assert.ok(row);
      return row;
    }

    async function attemptsOf(deliveryId: string) {
      const { rows } = await svc.ctx.db.query<{
        attempt_number: number;
        schedule_slot: number | null;
        attempted_at: Date;
        status_code: number | null;
        error: string | null;
        response_excerpt: string | null;
        latency_ms: number;
      }>(
        `SELECT attempt_number, schedule_slot, attempted_at, status_code, error, response_excerpt, latency_ms
           FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_number`,
        [deliveryId],
      );
      return rows;
    }

    /** Moves the clock through the whole schedule of deliveries first attempted by `from`. */
    async function runWholeSchedule(from: Date) {
      for (const offset of ATTEMPT_OFFSETS_SECONDS.slice(1)) {
        advanceTo(new Date(from.getTime() + offset * 1000));
        await worker.runOnce();
      }
    }

    it('POSTs the exact stored payload bytes with the contract headers and a verifiable signature', async () => {
      const { receiver, merchant, endpoint } = await setup({ responder: answer(200, 'thanks') });
      const event = await emit(merchant);
      assert.ok(
        Buffer.byteLength(event.payload) > event.payload.length,
        'the payload has multi-byte characters',
      );
      await worker.runOnce();

      assert.equal(receiver.received.length, 1);
      const got = receiver.received[0];
      assert.ok(got);
      assert.ok(
        got.rawBody.equals(Buffer.from(event.payload, 'utf8')),
        'body is byte-identical to the stored payload',
      );
      assert.equal(got.headers['content-type'], 'application/json');
      assert.equal(got.headers['user-agent'], 'Paygate-Webhooks/1.0.0');
      const header = String(got.headers['service-signature']);
      assert.match(header, /^t=[0-9]+,v1=[0-9a-f]{64}$/);
      const t = Number(header.slice(2, header.indexOf(',')));
      assert.ok(Math.abs(t - wallSeconds()) <= 2, 't is the signing time in real (wall) time');
      const independent = referenceSignature(endpoint.secret, t, got.rawBody);
      assert.equal(header.split(',')[1], `v1=${independent}`);
      assert.ok(receiverAccepts(got.rawBody, header, [endpoint.secret], wallSeconds()));
      assert.equal(JSON.parse(got.rawBody.toString('utf8')).id, event.id);

      const delivery = await deliveryOf(event.id);
      assert.equal(delivery.status, 'DELIVERED');
      const attempts = await attemptsOf(delivery.id);
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0]?.status_code, 200);
      assert.equal(attempts[0]?.schedule_slot, 1);
      assert.equal(attempts[0]?.error, null);
      assert.equal(attempts[0]?.response_excerpt, 'thanks');

      await worker.runOnce();
      assert.equal(receiver.received.length, 1, 'a delivered event is not sent again');
    });

    it('attempts at exactly +0, +1m, +5m, +30m, +2h, +12h from the first, then FAILED; a manual retry still delivers', async () => {
      const { receiver, merchant, endpoint } = await setup({ responder: answer(500, 'down') });
      const event = await emit(merchant);
      await worker.runOnce();
      assert.equal(receiver.received.length, 1);
      const first = (await deliveryOf(event.id)).first_attempt_at;
      assert.ok(first);

      for (let slot = 2; slot <= 6; slot += 1) {
        const delivery = await deliveryOf(event.id);
        assert.equal(delivery.status, 'PENDING');
        assert.equal(delivery.attempts_made, slot - 1);
        const due: Date = new Date(first.getTime() + (ATTEMPT_OFFSETS_SECONDS[slot - 1] ?? 0) * 1000);
        assert.equal(delivery.next_attempt_at?.toISOString(), due.toISOString(), `slot ${slot} due time`);
        advanceTo(new Date(due.getTime() - 2000));
        await worker.runOnce();
        assert.equal(receiver.received.length, slot - 1, `slot ${slot} is not attempted early`);
        advanceTo(due);
        await worker.runOnce();
        assert.equal(receiver.received.length, slot, `slot ${slot} is attempted when due`);
      }

      const failed = await deliveryOf(event.id);
      assert.equal(failed.status, 'FAILED');
      assert.equal(failed.attempts_made, 6);
      assert.equal(failed.next_attempt_at, null);
      const attempts = await attemptsOf(failed.id);
      assert.deepEqual(
        attempts.map((a) => a.schedule_slot),
        [1, 2, 3, 4, 5, 6],
      );
      attempts.forEach((a, i) => {
        const offsetMs = a.attempted_at.getTime() - first.getTime();
        const expected = (ATTEMPT_OFFSETS_SECONDS[i] ?? 0) * 1000;
        assert.ok(offsetMs >= expected && offsetMs < expected + 2000, `attempt ${i + 1} at +${offsetMs} ms`);
        assert.equal(a.status_code, 500);
        assert.equal(a.error, 'http_status: 500');
        assert.equal(a.response_excerpt, 'down');
      });
      for (const got of receiver.received) {
        const header = String(got.headers['service-signature']);
        const signedAt = Number(/^t=([0-9]+)/.exec(header)?.[1]);
        assert.ok(
          receiverAccepts(got.rawBody, header, [endpoint.secret], signedAt),
          'each attempt is signed anew',
        );
      }
      assert.equal(new Set(receiver.received.map((r) => String(r.headers['service-signature']))).size, 6);

      svc.clock.advance(7 * 24 * 3600);
      await worker.runOnce();
      assert.equal(receiver.received.length, 6, 'no automatic attempt after FAILED');

      receiver.respondWith(answer(204));
      const retried = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-deliveries/${failed.id}/retry`,
        headers: admin,
      });
      assert.equal(retried.statusCode, 200, retried.body);
      const body = retried.json();
      assert.equal(body.status, 'DELIVERED');
      assert.equal(body.attempts.length, 7);
      assert.equal(body.attempts[6].schedule_slot, null);
      assert.equal(body.attempts[6].status_code, 204);
      assert.equal(receiver.received.length, 7);
      const last = receiver.received[6];
      assert.ok(
        last &&
          receiverAccepts(
            last.rawBody,
            String(last.headers['service-signature']),
            [endpoint.secret],
            wallSeconds(),
          ),
      );

      const listed = await svc.request({
        method: 'GET',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=5`,
        headers: admin,
      });
      assert.equal(listed.statusCode, 200);
      assert.equal(listed.json().data[0].id, failed.id);
      assert.equal(listed.json().data[0].attempts.length, 7);
    });

    it('signs with both secrets during a rotation and with the new one alone after closing it', async () => {
      const { receiver, merchant, endpoint } = await setup();
      // A delivery before the rotation: the worker has opened (and cached) the old sealed secret.
      await emit(merchant);
      await worker.runOnce();
      const beforeRotation = receiver.received.shift();
      assert.ok(beforeRotation);
      assert.ok(
        receiverAccepts(
          beforeRotation.rawBody,
          String(beforeRotation.headers['service-signature']),
          [endpoint.secret],
          wallSeconds(),
        ),
      );
      const rotated = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
        headers: admin,
      });
      const newSecret: string = rotated.json().secret;
      await emit(merchant);
      await worker.runOnce();
      const during = receiver.received[0];
      assert.ok(during);
      const header = String(during.headers['service-signature']);
      assert.match(header, /^t=[0-9]+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      assert.ok(
        receiverAccepts(during.rawBody, header, [endpoint.secret], wallSeconds()),
        'a receiver with the old secret',
      );
      assert.ok(
        receiverAccepts(during.rawBody, header, [newSecret], wallSeconds()),
        'a receiver with the new secret',
      );
      assert.ok(!receiverAccepts(during.rawBody, header, ['whsec_someone_else'], wallSeconds()));

      await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/close-rotation`,
        headers: admin,
      });
      await emit(merchant);
      await worker.runOnce();
      const afterClose = receiver.received[1];
      assert.ok(afterClose);
      const single = String(afterClose.headers['service-signature']);
      assert.match(single, /^t=[0-9]+,v1=[0-9a-f]{64}$/);
      assert.ok(receiverAccepts(afterClose.rawBody, single, [newSecret], wallSeconds()));
      assert.ok(
        !receiverAccepts(afterClose.rawBody, single, [endpoint.secret], wallSeconds()),
        'the old secret is dropped',
      );
    });

    it('counts a redirect as a failed attempt and does not follow it', async () => {
      const target = await startWebhookReceiver();
      receivers.push(target);
      const { receiver, merchant } = await setup({ responder: answer(307, '', { location: target.url }) });
      const event = await emit(merchant);
      await worker.runOnce();
      assert.equal(receiver.received.length, 1);
      assert.equal(target.received.length, 0, 'the redirect is not followed');
      const delivery = await deliveryOf(event.id);
      assert.equal(delivery.status, 'PENDING');
      const [attempt] = await attemptsOf(delivery.id);
      assert.equal(attempt?.status_code, 307);
      assert.match(attempt?.error ?? '', /^redirect/);
    });

    it('counts a time-out as a failed attempt', async () => {
      const { receiver, merchant } = await setup({
        responder: (_d, response) => {
          setTimeout(() => response.end('late'), ATTEMPT_TIMEOUT_MS * 3);
        },
      });
      const event = await emit(merchant);
      await worker.runOnce();
      assert.equal(receiver.received.length, 1);
      const delivery = await deliveryOf(event.id);
      assert.equal(delivery.status, 'PENDING');
      const [attempt] = await attemptsOf(delivery.id);
      assert.equal(attempt?.status_code, null);
      assert.match(attempt?.error ?? '', /^timeout/);
      assert.ok((attempt?.latency_ms ?? 0) >= ATTEMPT_TIMEOUT_MS - 50);
    });

    it('records 4xx and refused connections as failures with their reason', async () => {
      const { receiver, merchant } = await setup({
        responder: answer(400, 'x'.repeat(RESPONSE_EXCERPT_BYTES + 4000)),
      });
      const event = await emit(merchant);
      await worker.runOnce();
      const [attempt] = await attemptsOf((await deliveryOf(event.id)).id);
      assert.equal(attempt?.status_code, 400);
      assert.equal(
        attempt?.response_excerpt?.length,
        RESPONSE_EXCERPT_BYTES,
        'the excerpt is capped at 4 KiB',
      );

      await receiver.close();
      receivers.splice(receivers.indexOf(receiver), 1);
      const second = await emit(merchant);
      await worker.runOnce();
      const [refused] = await attemptsOf((await deliveryOf(second.id)).id);
      assert.equal(refused?.status_code, null);
      assert.match(refused?.error ?? '', /^connection_error: ECONNREFUSED/);
    });

    it('refuses loopback, private, link-local and mapped-IPv6 addresses at connect time in live mode', async () => {
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      const merchant = await svc.createMerchant('Live shop');
      const registered = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: admin,
        body: { url: 'https://93.184.215.14/hooks', livemode: true },
      });
      assert.equal(registered.statusCode, 201, registered.body);
      const endpointId: string = registered.json().id;
      // DNS that now answers with the loopback address (rebinding after registration).
      const rebinding = createDeliveryWorker(svc.ctx, {
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
      });
      try {
        const targets = [
          `https://hooks.rebound.example:${receiver.port}/hooks`,
          `https://127.0.0.1:${receiver.port}/hooks`,
          `https://[::ffff:127.0.0.1]:${receiver.port}/hooks`,
          'https://10.0.0.7/hooks',
          'https://169.254.169.254/latest',
          'https://[fe80::1]/hooks',
        ];
        for (const target of targets) {
          await svc.ctx.db.query('UPDATE webhook_endpoints SET url = $2 WHERE id = $1', [endpointId, target]);
          const event = await emit(merchant, true);
          await rebinding.runOnce();
          const [attempt] = await attemptsOf((await deliveryOf(event.id)).id);
          assert.match(attempt?.error ?? '', /^forbidden_address/, target);
          assert.equal(attempt?.status_code, null);
        }
        assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
      } finally {
        await rebinding.stop();
      }
    });

    it('re-attempts a delivery whose worker died holding it, once its lease has run out', async () => {
      const { receiver, merchant } = await setup();
      const event = await emit(merchant);
      const now = svc.clock.now();
      // A worker claims the delivery and dies before recording anything.
      const dead = await svc.ctx.db.transaction((tx) =>
        claimDueDeliveries(tx, {
          now,
          leaseUntil: new Date(now.getTime() + 60_000),
          claimToken: 'dead-worker',
          limit: 1000,
        }),
      );
      assert.ok(dead.some((c) => c.delivery.eventId === event.id));
      await worker.runOnce();
      assert.equal(receiver.received.length, 0, 'the lease holds the delivery');

      svc.clock.advance(61);
      await worker.runOnce();
      assert.equal(receiver.received.length, 1, 'attempted again after the lease');
      const delivery = await deliveryOf(event.id);
      assert.equal(delivery.status, 'DELIVERED');
      const attempts = await attemptsOf(delivery.id);
      assert.deepEqual(
        attempts.map((a) => a.schedule_slot),
        [1],
      );
      assert.ok(
        logged.some((l) => l.message.includes('re-claimed') && l.details.delivery_id === delivery.id),
      );

      // The dead worker's late outcome is not recorded over the live one.
      const [late] = await svc.ctx.db.transaction((tx) =>
        finishClaims(
          tx,
          [
            {
              deliveryId: delivery.id,
              claimToken: 'dead-worker',
              status: 'FAILED',
              attemptsMade: 6,
              firstAttemptAt: now,
              nextAttemptAt: null,
              deliveredAt: null,
              attempt: {
                scheduleSlot: 1,
                attemptedAt: now,
                statusCode: 500,
                latencyMs: 1,
                error: 'x',
                responseExcerpt: null,
                requestHeaders: null,
                responseHeaders: null,
              },
              succeeded: false,
              deliveryFailed: true,
            },
          ],
          now,
        ),
      );
      assert.equal(late, null);
      assert.equal((await deliveryOf(event.id)).status, 'DELIVERED');
    });

    it('marks an endpoint failing after 24 h with a warning, disables it after 3 days and 10 FAILED, and resends FAILED ones', async () => {
      const { receiver, merchant, endpoint } = await setup({ responder: answer(503) });
      const endpointRow = async () =>
        (
          await svc.ctx.db.query<{ status: string; failed_deliveries_since_success: number }>(
            'SELECT status, failed_deliveries_since_success FROM webhook_endpoints WHERE id = $1',
            [endpoint.id],
          )
        ).rows[0];
      const start = svc.clock.now();
      const events = [];
      for (let i = 0; i < 10; i += 1) events.push(await emit(merchant));
      await worker.runOnce();
      // Every first attempt was made by now, so each later slot is due at this instant + its offset.
      await runWholeSchedule(svc.clock.now());
      for (const e of events) assert.equal((await deliveryOf(e.id)).status, 'FAILED');
      assert.deepEqual(await endpointRow(), { status: 'enabled', failed_deliveries_since_success: 10 });

      advanceTo(new Date(start.getTime() + 25 * 3600 * 1000));
      await emit(merchant);
      await worker.runOnce();
      assert.equal((await endpointRow())?.status, 'failing');
      const warning = logged.find((l) => l.level === 'warn' && l.details.endpoint_id === endpoint.id);
      assert.ok(warning, 'the operator is warned');
      assert.equal(warning.details.event, 'webhook_endpoint.failing');

      advanceTo(new Date(start.getTime() + 73 * 3600 * 1000));
      await emit(merchant);
      await worker.runOnce();
      assert.equal((await endpointRow())?.status, 'disabled');
      const before = (
        await svc.ctx.db.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.id])
      ).rowCount;
      await emit(merchant);
      const afterEmit = (
        await svc.ctx.db.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.id])
      ).rowCount;
      assert.equal(afterEmit, before, 'a disabled endpoint gets no new deliveries');

      receiver.respondWith(answer(200));
      const resend = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/resend-failed`,
        headers: admin,
        body: { since: start.toISOString() },
      });
      assert.equal(resend.statusCode, 200, resend.body);
      assert.equal(resend.json().queued, 10);
      const sentBefore = receiver.received.length;
      await worker.runOnce();
      for (const e of events) assert.equal((await deliveryOf(e.id)).status, 'DELIVERED');
      assert.ok(receiver.received.length >= sentBefore + 10);
      assert.equal((await endpointRow())?.status, 'disabled', 'only the operator turns an endpoint back on');

      const enabled = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/enable`,
        headers: admin,
      });
      assert.equal(enabled.json().status, 'enabled');
      const fresh = await emit(merchant);
      await worker.runOnce();
      assert.equal((await deliveryOf(fresh.id)).status, 'DELIVERED');
    });

    it('wakes on a committed event without polling', async () => {
      const { receiver, merchant } = await setup();
      const background = createDeliveryWorker(svc.ctx, {
        pollIntervalMs: 600_000,
        timeoutMs: ATTEMPT_TIMEOUT_MS,
      });
      await background.start();
      try {
        // The first look at start-up is over, so only the event's NOTIFY can wake the worker now.
        await background.idle();
        const event = await emit(merchant);
        await waitFor('the delivery arrives', () => receiver.received.length > 0);
        await background.idle();
        assert.equal(receiver.received.length, 1);
        assert.equal(JSON.parse(receiver.received[0]?.rawBody.toString() ?? '{}').id, event.id);
      } finally {
        await background.stop();
      }
    });
  });
}
