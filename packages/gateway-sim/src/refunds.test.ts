import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NotificationBody } from './notifier.ts';
import type { GatewaySim } from './server.ts';
import { api, chargeBody, signatureIsValid, startReceiver, startSim } from './test-support.ts';

let refundCounter = 0;
function refundBody(charge: string, amountMinor: number, extra: Record<string, unknown> = {}) {
  refundCounter += 1;
  return {
    idempotency_key: `re_key_${refundCounter}_${Math.random()}`,
    charge,
    amount_minor: amountMinor,
    currency: 'USD',
    ...extra,
  };
}

describe('simulated gateway: refunds', () => {
  let sim: GatewaySim;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
    sim = await startSim({ notificationUrl: receiver.url });
  });
  after(async () => {
    await sim.close();
    await receiver.close();
  });

  async function succeededCharge(amountMinor = 10_000): Promise<string> {
    const { json } = await api(
      sim,
      'POST',
      '/v1/charges',
      chargeBody('tok_sim_approve', { amount_minor: amountMinor }),
    );
    assert.equal(json.status, 'succeeded');
    return json.id;
  }

  it('refunds synchronously by default and counts it on the charge', async () => {
    const charge = await succeededCharge();
    const { status, json } = await api(sim, 'POST', '/v1/refunds', refundBody(charge, 2500));
    assert.equal(status, 200);
    assert.match(json.id, /^rf_[0-9A-Za-z]{24}$/);
    assert.equal(json.status, 'succeeded');
    assert.equal((await api(sim, 'GET', `/v1/charges/${charge}`)).json.amount_refunded_minor, 2500);
  });

  it('fails a refund whose amount ends in 99, without counting it', async () => {
    const charge = await succeededCharge();
    const { json } = await api(sim, 'POST', '/v1/refunds', refundBody(charge, 199));
    assert.equal(json.status, 'failed');
    assert.ok(json.failure_message);
    const full = await api(sim, 'POST', '/v1/refunds', refundBody(charge, 10_000));
    assert.equal(full.json.status, 'succeeded');
  });

  it('keeps a refund ending in 13 pending until it is settled, then notifies once', async () => {
    const charge = await succeededCharge();
    const body = refundBody(charge, 1013);
    const created = await api(sim, 'POST', '/v1/refunds', body);
    assert.equal(created.json.status, 'pending');
    assert.equal((await api(sim, 'GET', `/v1/charges/${charge}`)).json.amount_refunded_minor, 0);
    const before = receiver.received.length;

    const settled = await api(sim, 'POST', `/control/refunds/${created.json.id}/settle`);
    assert.equal(settled.status, 200);
    assert.equal(settled.json.status, 'succeeded');
    await sim.idle();
    const notes = receiver.received.slice(before);
    assert.equal(notes.length, 1);
    assert.ok(signatureIsValid(notes[0]!));
    const note = JSON.parse(notes[0]!.rawBody) as NotificationBody;
    assert.equal(note.subject, 'refund');
    assert.equal(note.data.idempotency_key, body.idempotency_key);
    assert.equal(note.data.status, 'succeeded');

    const again = await api(sim, 'POST', `/control/refunds/${created.json.id}/settle`, { outcome: 'failed' });
    assert.equal(again.status, 409);
    const byKey = await api(
      sim,
      'GET',
      `/v1/refunds?idempotency_key=${encodeURIComponent(body.idempotency_key)}`,
    );
    assert.equal(byKey.json.status, 'succeeded');
    assert.equal((await api(sim, 'GET', `/v1/charges/${charge}`)).json.amount_refunded_minor, 1013);
  });

  it('settles a pending refund as failed on request', async () => {
    const charge = await succeededCharge();
    const created = await api(sim, 'POST', '/v1/refunds', refundBody(charge, 513));
    const settled = sim.settlePendingRefund(created.json.id, 'failed');
    assert.equal(settled.status, 'failed');
    assert.equal((await api(sim, 'GET', `/v1/refunds/${created.json.id}`)).json.status, 'failed');
  });

  it('settles pending refunds by itself once refundSettleDelaySeconds pass on its clock', async () => {
    let nowMs = Date.parse('2026-03-01T00:00:00Z');
    const autoReceiver = await startReceiver();
    const auto = await startSim({
      refundSettleDelaySeconds: 60,
      clock: { now: () => new Date(nowMs) },
      notificationUrl: autoReceiver.url,
    });
    try {
      const { json: charge } = await api(auto, 'POST', '/v1/charges', chargeBody('tok_sim_approve'));
      const { json: refund } = await api(auto, 'POST', '/v1/refunds', refundBody(charge.id, 113));
      assert.equal(refund.status, 'pending');
      nowMs += 59_000;
      assert.equal((await api(auto, 'GET', `/v1/refunds/${refund.id}`)).json.status, 'pending');
      nowMs += 1_000;
      // Read right after the clock moved: the read itself settles what is due.
      assert.equal((await api(auto, 'GET', `/v1/refunds/${refund.id}`)).json.status, 'succeeded');
      assert.equal((await api(auto, 'GET', `/v1/charges/${charge.id}`)).json.amount_refunded_minor, 113);
      await auto.idle();
      const bodies = autoReceiver.received.map((r) => JSON.parse(r.rawBody) as NotificationBody);
      assert.deepEqual(
        bodies.filter((b) => b.subject === 'refund').map((b) => [b.data.id, b.data.status]),
        [[refund.id, 'succeeded']],
      );
    } finally {
      await auto.close();
      await autoReceiver.close();
    }
  });

  it('never refunds more than the charge, counting pending refunds', async () => {
    const charge = await succeededCharge(1000);
    assert.equal((await api(sim, 'POST', '/v1/refunds', refundBody(charge, 613))).json.status, 'pending');
    const over = await api(sim, 'POST', '/v1/refunds', refundBody(charge, 388));
    assert.equal(over.status, 400);
    assert.equal(over.json.error.code, 'amount_exceeds_refundable');
    assert.equal((await api(sim, 'POST', '/v1/refunds', refundBody(charge, 387))).json.status, 'succeeded');
  });

  it('deduplicates refunds by idempotency key', async () => {
    const charge = await succeededCharge(1000);
    const body = refundBody(charge, 1000);
    const first = await api(sim, 'POST', '/v1/refunds', body);
    const second = await api(sim, 'POST', '/v1/refunds', body);
    assert.equal(second.status, 200);
    assert.equal(second.json.id, first.json.id);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    const reused = await api(sim, 'POST', '/v1/refunds', { ...body, amount_minor: 10 });
    assert.equal(reused.status, 409);
  });

  it('refuses refunds of charges that did not succeed, or in another currency', async () => {
    const { json: declined } = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_decline'));
    assert.equal((await api(sim, 'POST', '/v1/refunds', refundBody(declined.id, 100))).status, 409);
    assert.equal((await api(sim, 'POST', '/v1/refunds', refundBody('ch_missing', 100))).status, 404);
    const charge = await succeededCharge();
    const euro = await api(sim, 'POST', '/v1/refunds', refundBody(charge, 100, { currency: 'EUR' }));
    assert.equal(euro.status, 400);
    assert.equal(euro.json.error.code, 'currency_mismatch');
  });

  it('requires the API secret for the refund and control endpoints', async () => {
    const charge = await succeededCharge();
    assert.equal((await api(sim, 'POST', '/v1/refunds', refundBody(charge, 100), 'wrong')).status, 401);
    assert.equal((await api(sim, 'POST', '/control/refunds/rf_x/settle', undefined, 'wrong')).status, 401);
  });
});
