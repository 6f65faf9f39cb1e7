import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NotificationBody } from './notifier.ts';
import type { GatewaySim } from './server.ts';
import { api, chargeBody, startReceiver, startSim } from './test-support.ts';

const LIVE_SECRET = 'sim_live_api_secret_for_tests';
const LIVE_NOTIFICATION_SECRET = 'sim_live_notification_secret_for_tests';

describe('simulated gateway: the books and the live-capable account', () => {
  let nowMs = Date.parse('2026-04-01T10:00:00Z');
  let sim: GatewaySim;
  let liveReceiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    liveReceiver = await startReceiver();
    sim = await startSim({
      clock: { now: () => new Date(nowMs) },
      liveAccount: {
        apiSecret: LIVE_SECRET,
        notificationSecret: LIVE_NOTIFICATION_SECRET,
        notificationUrl: liveReceiver.url,
      },
    });
  });
  after(async () => {
    await sim.close();
    await liveReceiver.close();
  });

  const seconds = () => Math.floor(nowMs / 1000);

  it('lists the charges and refunds of a window, oldest first, page by page', async () => {
    const from = seconds();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_approve'))).json.id);
      nowMs += 1000;
    }
    const refund = await api(sim, 'POST', '/v1/refunds', {
      idempotency_key: 'books-refund-1',
      charge: ids[0],
      amount_minor: 300,
      currency: 'USD',
    });
    nowMs += 10_000;
    // Outside the window: created at its end.
    const later = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_decline'));
    const to = later.json.created;

    const first = await api(sim, 'GET', `/v1/reports/charges?created_gte=${from}&created_lt=${to}&limit=3`);
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.json.data.map((c: { id: string }) => c.id),
      ids.slice(0, 3),
    );
    assert.equal(first.json.has_more, true);
    const second = await api(
      sim,
      'GET',
      `/v1/reports/charges?created_gte=${from}&created_lt=${to}&limit=3&starting_after=${ids[2]}`,
    );
    assert.deepEqual(
      second.json.data.map((c: { id: string }) => c.id),
      ids.slice(3),
    );
    assert.equal(second.json.has_more, false);

    const refunds = await api(sim, 'GET', `/v1/reports/refunds?created_gte=${from}&created_lt=${to + 1}`);
    assert.deepEqual(
      refunds.json.data.map((r: { id: string; amount_minor: number }) => [r.id, r.amount_minor]),
      [[refund.json.id, 300]],
    );
  });

  it('refuses a malformed window or page size', async () => {
    const missing = await api(sim, 'GET', '/v1/reports/charges?created_gte=1');
    assert.equal(missing.status, 400);
    assert.match(missing.json.error.message, /created_lt/);
    const tooMany = await api(sim, 'GET', '/v1/reports/charges?created_gte=1&created_lt=2&limit=101');
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.json.error.message, /limit/);
  });

  it('keeps the live account apart: its own charges, keys, refunds, books and notifications', async () => {
    nowMs += 60_000;
    const from = seconds();
    const body = chargeBody('tok_sim_approve', { amount_minor: 4200 });
    const live = await api(sim, 'POST', '/v1/charges', body, LIVE_SECRET);
    assert.equal(live.status, 200);
    assert.equal(live.json.livemode, true);
    assert.equal(live.json.status, 'succeeded');
    // The same idempotency key on the test account is another charge.
    const test = await api(sim, 'POST', '/v1/charges', body);
    assert.equal(test.json.livemode, false);
    assert.notEqual(test.json.id, live.json.id);
    assert.equal((await api(sim, 'GET', `/v1/charges/${live.json.id}`)).status, 404);
    assert.equal((await api(sim, 'GET', `/v1/charges/${live.json.id}`, undefined, LIVE_SECRET)).status, 200);
    // A test-account refund of a live charge finds no charge.
    const refundBody = {
      idempotency_key: 'live-refund-1',
      charge: live.json.id,
      amount_minor: 1000,
      currency: 'USD',
    };
    assert.equal((await api(sim, 'POST', '/v1/refunds', refundBody)).status, 404);
    const refund = await api(sim, 'POST', '/v1/refunds', refundBody, LIVE_SECRET);
    assert.equal(refund.json.status, 'succeeded');
    assert.equal(refund.json.livemode, true);

    const to = seconds() + 1;
    const liveBooks = await api(
      sim,
      'GET',
      `/v1/reports/charges?created_gte=${from}&created_lt=${to}`,
      undefined,
      LIVE_SECRET,
    );
    assert.deepEqual(
      liveBooks.json.data.map((c: { id: string }) => c.id),
      [live.json.id],
    );
    const testBooks = await api(sim, 'GET', `/v1/reports/charges?created_gte=${from}&created_lt=${to}`);
    assert.deepEqual(
      testBooks.json.data.map((c: { id: string }) => c.id),
      [test.json.id],
    );

    // A challenge decided on the payer's page notifies the account that made the charge.
    const challenged = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_challenge'), LIVE_SECRET);
    const decided = await fetch(`${sim.url}/challenge/${challenged.json.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
      redirect: 'manual',
    });
    assert.ok(decided.status < 400, `challenge answered ${decided.status}`);
    await sim.idle();
    const bodies = liveReceiver.received.map((r) => JSON.parse(r.rawBody) as NotificationBody);
    assert.deepEqual(
      bodies.map((b) => [b.data.id, b.data.status, b.data.livemode]),
      [[challenged.json.id, 'succeeded', true]],
    );
  });
});
