import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, chargeBody, signatureIsValid, startReceiver, startSim } from './test-support.ts';

async function challengeAndApprove(sim: Awaited<ReturnType<typeof startSim>>): Promise<void> {
  const { json: charge } = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_challenge'));
  const response = await fetch(charge.redirect_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=approve',
  });
  await response.body?.cancel();
}

describe('simulated gateway: notification delivery', () => {
  it('retries a failed delivery with the same notification id and a fresh signature', async () => {
    const receiver = await startReceiver([500, 503]);
    const sim = await startSim({ notificationUrl: receiver.url, notificationRetryDelaysMs: [20, 20, 20] });
    try {
      await challengeAndApprove(sim);
      await sim.idle();
      assert.equal(receiver.received.length, 3);
      const ids = receiver.received.map((r) => JSON.parse(r.rawBody).id);
      assert.equal(new Set(ids).size, 1);
      assert.ok(receiver.received.every((r) => signatureIsValid(r)));
      const [record] = sim.notifications();
      assert.equal(record?.state, 'delivered');
      assert.equal(record?.attempts, 3);
    } finally {
      await sim.close();
      await receiver.close();
    }
  });

  it('gives up after the bounded number of attempts', async () => {
    const receiver = await startReceiver([500, 500, 500, 500, 500]);
    const sim = await startSim({ notificationUrl: receiver.url, notificationRetryDelaysMs: [10, 10] });
    try {
      await challengeAndApprove(sim);
      await sim.idle();
      assert.equal(receiver.received.length, 3);
      assert.equal(sim.notifications()[0]?.state, 'failed');
      assert.equal(sim.notifications()[0]?.lastStatus, 500);
    } finally {
      await sim.close();
      await receiver.close();
    }
  });

  it('signs with the given clock and sends to a URL set after start', async () => {
    const receiver = await startReceiver();
    const shifted = new Date('2030-01-01T00:00:00Z');
    const sim = await startSim({ clock: { now: () => shifted } });
    try {
      sim.setNotificationUrl(receiver.url);
      await challengeAndApprove(sim);
      await sim.idle();
      assert.equal(receiver.received.length, 1);
      const header = String(receiver.received[0]!.headers['sim-signature']);
      assert.match(header, new RegExp(`^t=${shifted.getTime() / 1000},v1=`));
      assert.ok(signatureIsValid(receiver.received[0]!));
      assert.ok(!signatureIsValid(receiver.received[0]!, 'another secret'));
    } finally {
      await sim.close();
      await receiver.close();
    }
  });

  it('stops retrying when the simulator closes', async () => {
    const receiver = await startReceiver([500, 500, 500]);
    const sim = await startSim({ notificationUrl: receiver.url, notificationRetryDelaysMs: [60_000] });
    try {
      await challengeAndApprove(sim);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      await sim.close();
      assert.ok(Date.now() - started < 2000);
      assert.equal(receiver.received.length, 1);
    } finally {
      await receiver.close();
    }
  });
});
