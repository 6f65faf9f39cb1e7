import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BooksQuery } from './books.ts';
import { type ChargeInput, Ledger, SimError } from './ledger.ts';
import type { GatewaySim } from './server.ts';
import { api, chargeBody, startSim } from './test-support.ts';

const START_MS = Date.parse('2026-05-01T08:00:00Z');

function ledgerWith(retention: { maxAgeSeconds: number; maxCharges: number }) {
  const clock = { nowMs: START_MS, now: () => new Date(clock.nowMs) };
  const ledger = new Ledger(clock, (id) => `http://sim.test/challenge/${id}`, retention);
  let counter = 0;
  const charge = (token = 'tok_sim_approve', amountMinor = 1000) => {
    counter += 1;
    const input: ChargeInput = {
      livemode: false,
      idempotencyKey: `retention-key-${counter}`,
      reference: `pi_retention_${counter}`,
      amountMinor,
      currency: 'USD',
      token,
      returnUrl: null,
      capture: true,
      savePaymentMethod: false,
      offSession: false,
    };
    return ledger.createCharge(input).charge;
  };
  const refund = (chargeId: string, amountMinor: number) => {
    counter += 1;
    return ledger.createRefund({
      livemode: false,
      idempotencyKey: `retention-refund-${counter}`,
      reference: null,
      chargeId,
      amountMinor,
      currency: 'USD',
    }).refund;
  };
  const seconds = () => Math.floor(clock.nowMs / 1000);
  const window = (createdFrom: number, createdTo: number): BooksQuery => ({
    livemode: false,
    createdFrom,
    createdTo,
    limit: 100,
    startingAfter: null,
  });
  return { ledger, clock, charge, refund, seconds, window };
}

describe('simulated gateway: bounded books', () => {
  it('forgets settled charges past the age limit, keeps the younger ones answerable', () => {
    const { ledger, clock, charge, seconds, window } = ledgerWith({ maxAgeSeconds: 600, maxCharges: 1000 });
    const old = charge();
    const declined = charge('tok_sim_decline');
    clock.nowMs += 300_000;
    const young = charge();
    clock.nowMs += 301_000;
    // The next charge made is the moment the books look at their age.
    const newest = charge();
    assert.equal(ledger.charge(old.id), null);
    assert.equal(ledger.chargeByKey(old.idempotency_key, false), null);
    assert.equal(ledger.charge(declined.id), null);
    assert.equal(ledger.charge(young.id)?.status, 'succeeded');
    assert.equal(ledger.chargeByKey(young.idempotency_key, false)?.id, young.id);
    assert.deepEqual(ledger.size(), { charges: 2, refunds: 0 });
    // The books after what was forgotten are whole.
    const page = ledger.listCharges(window(young.created, seconds() + 1));
    assert.deepEqual(
      page.data.map((c) => c.id),
      [young.id, newest.id],
    );
  });

  it('never holds more charges than the count limit', () => {
    const { ledger, charge } = ledgerWith({ maxAgeSeconds: 3600, maxCharges: 50 });
    const made = Array.from({ length: 500 }, () => charge());
    assert.equal(ledger.size().charges, 50);
    assert.equal(ledger.charge(made[449]?.id ?? ''), null);
    assert.equal(ledger.charge(made[450]?.id ?? '')?.id, made[450]?.id);
  });

  it('refuses a books window that reaches into what was forgotten, rather than answer part of it', () => {
    const { ledger, clock, charge, seconds, window } = ledgerWith({ maxAgeSeconds: 3600, maxCharges: 3 });
    const first = charge();
    clock.nowMs += 2000;
    const kept = [charge(), charge(), charge()];
    assert.equal(ledger.charge(first.id), null);
    assert.throws(
      () => ledger.listCharges(window(first.created, seconds() + 1)),
      (error) => error instanceof SimError && error.status === 410 && error.code === 'books_forgotten',
    );
    assert.throws(() => ledger.listRefunds(window(first.created, seconds() + 1)), SimError);
    const after = ledger.listCharges(window(first.created + 1, seconds() + 1));
    assert.deepEqual(
      after.data.map((c) => c.id),
      kept.map((c) => c.id),
    );
  });

  it('keeps a charge whose refund is pending, and one refunded recently, with the refund books right', () => {
    const { ledger, clock, charge, refund, seconds, window } = ledgerWith({
      maxAgeSeconds: 600,
      maxCharges: 1000,
    });
    const pendingOne = charge('tok_sim_approve', 5000);
    const refundedLate = charge('tok_sim_approve', 5000);
    const pending = refund(pendingOne.id, 1013);
    assert.equal(pending.status, 'pending');
    clock.nowMs += 500_000;
    const recent = refund(refundedLate.id, 2000);
    clock.nowMs += 200_000;
    charge();
    // Both are past the age limit, but the one has a refund still pending and the other a refund
    // made within the limit: a second refund still sees what was refunded before.
    assert.equal(ledger.charge(pendingOne.id)?.id, pendingOne.id);
    assert.equal(ledger.charge(refundedLate.id)?.amount_refunded_minor, 2000);
    assert.throws(
      () => refund(refundedLate.id, 3001),
      (error) => error instanceof SimError && error.code === 'amount_exceeds_refundable',
    );
    assert.equal(refund(refundedLate.id, 3000).status, 'succeeded');
    const refunds = ledger.listRefunds(window(recent.created, seconds() + 1));
    assert.deepEqual(
      refunds.data.map((r) => r.amount_minor),
      [2000, 3000],
    );
    // Once the refund settles and the retention passes, the charge goes with its refunds.
    ledger.settleRefund(pending.id, 'succeeded');
    clock.nowMs += 700_000;
    charge();
    assert.equal(ledger.charge(pendingOne.id), null);
    assert.equal(ledger.refund(pending.id), null);
    assert.equal(ledger.charge(refundedLate.id), null);
    // Only the charge just made is left: the one made 700 s earlier is past the limit too.
    assert.deepEqual(ledger.size(), { charges: 1, refunds: 0 });
  });

  it('keeps a challenge the payer may still answer when the count is reached, but not an abandoned one', () => {
    const { ledger, clock, charge } = ledgerWith({ maxAgeSeconds: 600, maxCharges: 3 });
    const challenged = charge('tok_sim_challenge');
    for (let i = 0; i < 10; i++) charge();
    assert.equal(ledger.charge(challenged.id)?.status, 'requires_action');
    assert.equal(ledger.decideChallenge(challenged.id, 'approve').charge.status, 'succeeded');
    const abandoned = charge('tok_sim_challenge');
    clock.nowMs += 601_000;
    charge();
    assert.equal(ledger.charge(abandoned.id), null);
  });
});

describe('simulated gateway: bounded books over HTTP', () => {
  let nowMs = START_MS;
  let sim: GatewaySim;
  before(async () => {
    sim = await startSim({
      clock: { now: () => new Date(nowMs) },
      retention: { maxAgeSeconds: 60, maxCharges: 100 },
    });
  });
  after(() => sim.close());

  it('answers 410 books_forgotten for a forgotten window and 404 for a forgotten charge', async () => {
    const from = Math.floor(nowMs / 1000);
    const old = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_approve'));
    nowMs += 61_000;
    const young = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_approve'));
    const to = young.json.created + 1;
    assert.equal((await api(sim, 'GET', `/v1/charges/${old.json.id}`)).status, 404);
    const refused = await api(sim, 'GET', `/v1/reports/charges?created_gte=${from}&created_lt=${to}`);
    assert.equal(refused.status, 410);
    assert.equal(refused.json.error.code, 'books_forgotten');
    const kept = await api(sim, 'GET', `/v1/reports/charges?created_gte=${from + 1}&created_lt=${to}`);
    assert.deepEqual(
      kept.json.data.map((c: { id: string }) => c.id),
      [young.json.id],
    );
  });
});
