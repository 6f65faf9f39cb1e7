// Payments and refunds in test mode (gateway `sim`, the simulator's test account) and in live mode
// (gateway `sim_live`, its live-capable account): every outcome is reached in both modes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listEventsForObject } from '../src/storage/repositories/events.ts';
import { databaseKinds } from './support/databases.ts';
import { eventually } from './support/eventually.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

const modes = [
  { livemode: false, gatewayId: 'sim' },
  { livemode: true, gatewayId: 'sim_live' },
] as const;

for (const kind of databaseKinds()) {
  describe(`payments and refunds in both modes (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    before(async () => {
      svc = await startTestService(kind, { listen: true, refundSettleDelaySeconds: 60 });
      merchant = await svc.createMerchant('Both modes');
    });
    after(() => svc.close());

    for (const mode of modes) {
      const label = mode.livemode ? 'live' : 'test';
      const key = () => (mode.livemode ? merchant.secretLive : merchant.secretTest);
      const post = (url: string, body: unknown) =>
        svc.request({
          method: 'POST',
          url,
          key: key(),
          headers: { 'idempotency-key': freshKey(label) },
          body,
        });
      const get = async (url: string) => (await svc.request({ method: 'GET', url, key: key() })).json();
      const paidIntent = async (amountMinor: number) => {
        const created = await post('/v1/payment-intents', {
          amount_minor: amountMinor,
          currency: 'EUR',
          gateway_id: mode.gatewayId,
        });
        assert.equal(created.statusCode, 200, created.body);
        const confirmed = await post(`/v1/payment-intents/${created.json().id}/confirm`, {
          payment_method_token: 'tok_sim_approve',
        });
        assert.equal(confirmed.json().status, 'SUCCEEDED', confirmed.body);
        return confirmed.json();
      };

      it(`${label} mode: an approved charge SUCCEEDS, with its event in the same mode`, async () => {
        const intent = await paidIntent(4200);
        assert.equal(intent.livemode, mode.livemode);
        const events = await listEventsForObject(svc.ctx.db, intent.id);
        assert.deepEqual(
          events.map((e) => [e.type, e.livemode]),
          [['payment_intent.succeeded', mode.livemode]],
        );
      });

      it(`${label} mode: a declined charge FAILS with 402 card_declined`, async () => {
        const created = await post('/v1/payment-intents', {
          amount_minor: 4200,
          currency: 'EUR',
          gateway_id: mode.gatewayId,
        });
        const confirmed = await post(`/v1/payment-intents/${created.json().id}/confirm`, {
          payment_method_token: 'tok_sim_decline',
        });
        assert.equal(confirmed.statusCode, 402);
        assert.equal(confirmed.json().code, 'card_declined');
        assert.equal(confirmed.json().payment_intent.status, 'FAILED');
        assert.equal(confirmed.json().payment_intent.livemode, mode.livemode);
      });

      it(`${label} mode: a challenge approved on the gateway's page SUCCEEDS through its notification`, async () => {
        const created = await post('/v1/payment-intents', {
          amount_minor: 4200,
          currency: 'EUR',
          gateway_id: mode.gatewayId,
        });
        const confirmed = await post(`/v1/payment-intents/${created.json().id}/confirm`, {
          payment_method_token: 'tok_sim_challenge',
        });
        assert.equal(confirmed.json().status, 'REQUIRES_ACTION');
        const page = await fetch(confirmed.json().redirect_url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'decision=approve',
          redirect: 'manual',
        });
        assert.ok(page.status < 400);
        const settled = await eventually(
          'the challenged intent settles',
          () => get(`/v1/payment-intents/${created.json().id}`),
          (intent) => intent.status !== 'REQUIRES_ACTION',
        );
        assert.equal(settled.status, 'SUCCEEDED');
      });

      it(`${label} mode: full, partial and failing refunds settle at once, in the intent's mode`, async () => {
        const intent = await paidIntent(10_000);
        const partial = await post('/v1/refunds', { payment_intent_id: intent.id, amount_minor: 2500 });
        assert.equal(partial.statusCode, 200, partial.body);
        assert.equal(partial.json().status, 'SUCCEEDED');
        assert.equal(partial.json().livemode, mode.livemode);
        const failing = await post('/v1/refunds', { payment_intent_id: intent.id, amount_minor: 1099 });
        assert.equal(failing.json().status, 'FAILED');
        const rest = await post('/v1/refunds', { payment_intent_id: intent.id });
        assert.equal(rest.json().status, 'SUCCEEDED');
        assert.equal(rest.json().amount_minor, 7500);
        const refunded = await get(`/v1/payment-intents/${intent.id}`);
        assert.equal(refunded.amount_refunded_minor, 10_000);
      });

      it(`${label} mode: a refund ending in 13 stays PENDING until the test clock passes its delay`, async () => {
        const intent = await paidIntent(5000);
        const refund = await post('/v1/refunds', { payment_intent_id: intent.id, amount_minor: 1013 });
        assert.equal(refund.json().status, 'PENDING');
        const advanced = await svc.request({
          method: 'POST',
          url: '/admin/v1/test-clock/advance',
          headers: { 'x-admin-token': ADMIN_TOKEN },
          body: { seconds: 61 },
        });
        assert.equal(advanced.statusCode, 200);
        const settled = await eventually(
          'the late refund settles',
          () => get(`/v1/refunds/${refund.json().id}`),
          (r) => r.status !== 'PENDING',
        );
        assert.equal(settled.status, 'SUCCEEDED');
        const events = await listEventsForObject(svc.ctx.db, refund.json().id);
        assert.deepEqual(
          events.map((e) => [e.type, e.livemode]),
          [['refund.succeeded', mode.livemode]],
        );
      });
    }
  });
}
