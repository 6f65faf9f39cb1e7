// The errors a newcomer meets in the first hour say what to do (issue 34, item 6): each names the
// real mistake and the way out, in the one problem shape.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { startSimulator } from '../src/gateways/sim/deployment.ts';
import { databaseKinds } from './support/databases.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`errors that say what to do (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('First hour shop');
    });
    after(() => svc.close());

    const create = (body: unknown, idempotencyKey = `key-${randomBytes(6).toString('hex')}`) =>
      svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': idempotencyKey },
        body,
      });

    it('confirming an EXPIRED intent says to create a new one', async () => {
      const created = await create({
        amount_minor: 1500,
        currency: 'USD',
        gateway_id: 'sim',
        expires_in_seconds: 60,
      });
      assert.equal(created.statusCode, 200, created.body);
      svc.clock.advance(120);
      const confirmed = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.json().id}/confirm`,
        key: merchant.secretTest,
        body: { payment_method_token: 'tok_sim_approve' },
      });
      assert.equal(confirmed.statusCode, 409, confirmed.body);
      const problem = confirmed.json();
      assert.equal(problem.code, 'invalid_state_transition');
      assert.match(problem.detail, /whose status is EXPIRED\. .*create a new payment intent/);
    });

    it("names Stripe's `amount` as an unknown field and suggests `amount_minor`", async () => {
      const response = await create({ amount: 2500, currency: 'USD', gateway_id: 'sim' });
      assert.equal(response.statusCode, 400, response.body);
      const problem = response.json();
      assert.equal(problem.code, 'validation_error');
      assert.deepEqual(problem.errors, [
        { field: 'amount', message: 'is not a recognised field; did you mean `amount_minor`?' },
      ]);
    });

    it('an unknown field with no likely meaning is named without a suggestion', async () => {
      const response = await create({
        amount_minor: 2500,
        currency: 'USD',
        gateway_id: 'sim',
        colour: 'red',
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json().errors, [{ field: 'colour', message: 'is not a recognised field' }]);
    });

    it('JSON sent as text/plain is told that the Content-Type is wrong', async () => {
      const response = await svc.app.inject({
        method: 'POST',
        url: '/v1/payment-intents',
        headers: {
          'x-api-key': merchant.secretTest,
          'idempotency-key': `key-${randomBytes(6).toString('hex')}`,
          'content-type': 'text/plain',
        },
        payload: JSON.stringify({ amount_minor: 2500, currency: 'USD', gateway_id: 'sim' }),
      });
      assert.equal(response.statusCode, 400, response.body);
      const problem = response.json();
      assert.equal(problem.code, 'validation_error');
      assert.deepEqual(problem.errors, [
        {
          field: 'Content-Type',
          message: 'is text/plain; send the JSON body with Content-Type: application/json',
        },
      ]);
    });

    it('GET / points at the dashboard and the API reference', async () => {
      const response = await svc.app.inject({ method: 'GET', url: '/' });
      assert.equal(response.statusCode, 404);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      const problem = response.json();
      assert.equal(problem.code, 'resource_not_found');
      assert.match(problem.detail, /\/dashboard/);
      assert.match(problem.detail, /\/docs\/api/);
    });
  });
}

describe("a request sent to the simulated gateway's port", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'paygate-sim-port-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("answers in the API's problem shape and points at the API's address", async () => {
    const config = loadConfig({
      PAYGATE_PUBLIC_URL: 'http://localhost:18080',
      PAYGATE_DATA_DIR: dataDir,
      PAYGATE_ADMIN_TOKEN: 'first-hour-admin-token-0123456789',
      PAYGATE_MASTER_KEY: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
    });
    const sim = await startSimulator(config, systemClock, { port: 0, notificationUrl: null });
    try {
      const response = await fetch(`${sim.url}/v1/payment-intents`, { method: 'POST' });
      assert.equal(response.status, 404);
      assert.match(String(response.headers.get('content-type')), /^application\/problem\+json/);
      const problem = (await response.json()) as Record<string, unknown>;
      assert.equal(problem.code, 'resource_not_found');
      assert.equal(problem.type, 'urn:paygate:problem:resource_not_found');
      assert.equal(problem.status, 404);
      assert.match(String(problem.detail), /simulated gateway, not the Paygate API/);
      assert.match(String(problem.detail), /http:\/\/localhost:18080\/v1\/payment-intents/);
    } finally {
      await sim.close();
    }
  });
});
