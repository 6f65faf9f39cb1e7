import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import type { GatewaySim } from './server.ts';
import { api, chargeBody, startSim } from './test-support.ts';

describe('simulated gateway: charges', () => {
  let sim: GatewaySim;
  before(async () => {
    sim = await startSim({ hangMs: 60_000 });
  });
  after(async () => {
    await sim.close();
  });

  it('refuses a request without the API secret', async () => {
    const missing = await fetch(`${sim.url}/v1/charges?idempotency_key=x`);
    assert.equal(missing.status, 401);
    const wrong = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_approve'), 'not-the-secret');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json.error.code, 'unauthorized');
  });

  it('approves tok_sim_approve', async () => {
    const { status, json } = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_approve'));
    assert.equal(status, 200);
    assert.match(json.id, /^ch_[0-9A-Za-z]{24}$/);
    assert.equal(json.status, 'succeeded');
    assert.equal(json.failure_code, null);
  });

  it('declines tok_sim_decline with card_declined', async () => {
    const { json } = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_decline'));
    assert.equal(json.status, 'failed');
    assert.equal(json.failure_code, 'card_declined');
  });

  it('rejects tok_sim_reject and unknown tokens with gateway_rejected', async () => {
    for (const token of ['tok_sim_reject', 'tok_made_up']) {
      const { json } = await api(sim, 'POST', '/v1/charges', chargeBody(token));
      assert.equal(json.status, 'failed', token);
      assert.equal(json.failure_code, 'gateway_rejected', token);
    }
  });

  it('asks for a challenge on tok_sim_challenge, with a redirect to its own page', async () => {
    const { json } = await api(sim, 'POST', '/v1/charges', chargeBody('tok_sim_challenge'));
    assert.equal(json.status, 'requires_action');
    assert.equal(json.redirect_url, `${sim.url}/challenge/${json.id}`);
  });

  it('answers 503 with Retry-After on tok_sim_unavailable and records nothing', async () => {
    const body = chargeBody('tok_sim_unavailable');
    const { status, headers, json } = await api(sim, 'POST', '/v1/charges', body);
    assert.equal(status, 503);
    assert.equal(headers.get('retry-after'), '2');
    assert.equal(json.error.code, 'temporarily_unavailable');
    const lookup = await api(
      sim,
      'GET',
      `/v1/charges?idempotency_key=${encodeURIComponent(body.idempotency_key)}`,
    );
    assert.equal(lookup.status, 404);
  });

  it('returns the same charge for the same idempotency key, marked as replayed', async () => {
    const body = chargeBody('tok_sim_approve');
    const first = await api(sim, 'POST', '/v1/charges', body);
    const second = await api(sim, 'POST', '/v1/charges', body);
    assert.equal(second.json.id, first.json.id);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
  });

  it('refuses an idempotency key reused with other parameters', async () => {
    const body = chargeBody('tok_sim_approve');
    await api(sim, 'POST', '/v1/charges', body);
    const { status, json } = await api(sim, 'POST', '/v1/charges', { ...body, amount_minor: 2000 });
    assert.equal(status, 409);
    assert.equal(json.error.code, 'idempotency_key_in_use');
  });

  it('validates the body strictly', async () => {
    const cases = [
      { ...chargeBody('tok_sim_approve'), amount_minor: '1000' },
      { ...chargeBody('tok_sim_approve'), amount_minor: 0 },
      { ...chargeBody('tok_sim_approve'), currency: 'usd' },
      { ...chargeBody('tok_sim_approve'), card_number: '4242424242424242' },
      { ...chargeBody('tok_sim_approve'), return_url: 'javascript:alert(1)' },
    ];
    for (const body of cases) {
      const { status, json } = await api(sim, 'POST', '/v1/charges', body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(json.error.code, 'invalid_request');
    }
  });

  it('finds a charge by idempotency key and by id', async () => {
    const body = chargeBody('tok_sim_decline');
    const created = await api(sim, 'POST', '/v1/charges', body);
    const byKey = await api(
      sim,
      'GET',
      `/v1/charges?idempotency_key=${encodeURIComponent(body.idempotency_key)}`,
    );
    const byId = await api(sim, 'GET', `/v1/charges/${created.json.id}`);
    assert.deepEqual(byKey.json, created.json);
    assert.deepEqual(byId.json, created.json);
    assert.equal((await api(sim, 'GET', '/v1/charges/ch_nope')).status, 404);
  });

  it('makes a tok_sim_hang charge but withholds the answer', async () => {
    const body = chargeBody('tok_sim_hang');
    await assert.rejects(
      fetch(`${sim.url}/v1/charges`, {
        method: 'POST',
        headers: { authorization: 'Bearer sim_api_secret_for_tests', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(300),
      }),
      { name: 'TimeoutError' },
    );
    const lookup = await api(
      sim,
      'GET',
      `/v1/charges?idempotency_key=${encodeURIComponent(body.idempotency_key)}`,
    );
    assert.equal(lookup.json.status, 'succeeded');
    // A retry with the same key gets the recorded charge at once.
    const retry = await api(sim, 'POST', '/v1/charges', body);
    assert.equal(retry.json.id, lookup.json.id);
  });

  // The hang outlasts the test's own time-out by far: a close() that waited for it would fail.
  it('closes without waiting for a withheld answer, and releases that answer', {
    timeout: 60_000,
  }, async () => {
    const other = await startSim({ hangMs: 3_600_000 });
    const body = chargeBody('tok_sim_hang');
    const pending = fetch(`${other.url}/v1/charges`, {
      method: 'POST',
      headers: { authorization: 'Bearer sim_api_secret_for_tests', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(
      (response) => `answered ${response.status}`,
      () => 'connection closed',
    );
    await waitFor('the hung charge is recorded', async () => {
      const lookup = await api(
        other,
        'GET',
        `/v1/charges?idempotency_key=${encodeURIComponent(body.idempotency_key)}`,
      );
      return lookup.status === 200;
    });
    await other.close();
    assert.equal(await pending, 'answered 200');
  });

  it('adds responseDelayMs to API answers', async () => {
    const slow = await startSim({ responseDelayMs: 250 });
    try {
      const started = Date.now();
      await api(slow, 'POST', '/v1/charges', chargeBody('tok_sim_approve'));
      assert.ok(Date.now() - started >= 240);
    } finally {
      await slow.close();
    }
  });
});
