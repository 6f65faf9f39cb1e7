// The simulated gateway keeps a payment method for later charges (issue 44): a charge that asks to
// save it carries its reusable reference once paid, later charges of the reference follow the
// test token that saved it, off-session charges never challenge, and a detached method is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { GatewaySim } from './server.ts';
import { api, chargeBody, startSim } from './test-support.ts';

const LIVE_SECRET = 'sim_live_api_secret_for_saved_methods';

describe('simulated gateway: saved payment methods', () => {
  let sim: GatewaySim;
  before(async () => {
    sim = await startSim({
      liveAccount: {
        apiSecret: LIVE_SECRET,
        notificationSecret: 'live_notifications',
        notificationUrl: null,
      },
    });
  });
  after(() => sim.close());

  const charge = async (token: string, extra: Record<string, unknown> = {}, secret?: string) => {
    const { status, json } = await api(sim, 'POST', '/v1/charges', chargeBody(token, extra), secret);
    assert.equal(status, 200, JSON.stringify(json));
    return json;
  };
  const saved = async (token = 'tok_sim_approve') => {
    const first = await charge(token, { save_payment_method: true });
    assert.equal(first.status, 'succeeded');
    assert.match(first.payment_method, /^pm_sim_[0-9A-Za-z]{24}$/);
    return first.payment_method as string;
  };

  it('keeps the method only when asked, and only for a paid charge', async () => {
    assert.equal((await charge('tok_sim_approve')).payment_method, null);
    assert.equal((await charge('tok_sim_decline', { save_payment_method: true })).payment_method, null);
    const authorised = await charge('tok_sim_approve', { save_payment_method: true, capture: false });
    assert.equal(authorised.status, 'requires_capture');
    assert.match(authorised.payment_method, /^pm_sim_/);
    // A challenge: nothing kept until the payer passes it.
    const challenged = await charge('tok_sim_challenge', { save_payment_method: true });
    assert.equal(challenged.status, 'requires_action');
    assert.equal(challenged.payment_method, null);
    const passed = await fetch(challenged.redirect_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ decision: 'approve' }).toString(),
      redirect: 'manual',
    });
    assert.ok(passed.status < 400, `the challenge page answered ${passed.status}`);
    const after = await api(sim, 'GET', `/v1/charges/${challenged.id}`);
    assert.equal(after.json.status, 'succeeded');
    assert.match(after.json.payment_method, /^pm_sim_/);
  });

  it('charges a saved method later, with or without the payer', async () => {
    const method = await saved();
    for (const offSession of [true, false]) {
      const later = await charge(method, { off_session: offSession });
      assert.equal(later.status, 'succeeded');
      assert.equal(later.decline_code, null);
    }
  });

  it('declines the later charges of a method saved with tok_sim_save_then_decline', async () => {
    const method = await saved('tok_sim_save_then_decline');
    const later = await charge(method, { off_session: true });
    assert.equal(later.status, 'failed');
    assert.equal(later.failure_code, 'card_declined');
    assert.equal(later.decline_code, 'insufficient_funds');
  });

  it('wants the payer for a method saved with tok_sim_save_then_authenticate: declined off-session, challenged on-session', async () => {
    const method = await saved('tok_sim_save_then_authenticate');
    const absent = await charge(method, { off_session: true });
    assert.equal(absent.status, 'failed');
    assert.equal(absent.decline_code, 'authentication_required');
    const present = await charge(method);
    assert.equal(present.status, 'requires_action');
    // A one-time token that wants a challenge is declined off-session too: never a challenge then.
    const oneTime = await charge('tok_sim_challenge', { off_session: true });
    assert.equal(oneTime.status, 'failed');
    assert.equal(oneTime.decline_code, 'authentication_required');
  });

  it('refuses a detached method, and another account’s, as gateway_rejected; detach repeats', async () => {
    const method = await saved();
    assert.equal((await charge(method, {}, LIVE_SECRET)).failure_code, 'gateway_rejected');
    const other = await api(sim, 'POST', `/v1/payment_methods/${method}/detach`, {}, LIVE_SECRET);
    assert.equal(other.status, 404);
    for (let i = 0; i < 2; i++) {
      const detached = await api(sim, 'POST', `/v1/payment_methods/${method}/detach`, {});
      assert.equal(detached.status, 200);
      assert.deepEqual(detached.json, { id: method, object: 'payment_method', status: 'detached' });
    }
    const refused = await charge(method, { off_session: true });
    assert.equal(refused.status, 'failed');
    assert.equal(refused.failure_code, 'gateway_rejected');
    assert.match(refused.failure_message, /detached/);
  });

  it('answers a repeat of a saving charge with the same reference', async () => {
    const body = chargeBody('tok_sim_approve', { save_payment_method: true });
    const first = await api(sim, 'POST', '/v1/charges', body);
    const again = await api(sim, 'POST', '/v1/charges', body);
    assert.equal(again.json.payment_method, first.json.payment_method);
    const other = await api(sim, 'POST', '/v1/charges', { ...body, save_payment_method: false });
    assert.equal(other.status, 409);
  });
});
