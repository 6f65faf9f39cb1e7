import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { constructEvent } from '@paygate/node';
import { createDeliveryWorker, type DeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const admin = { 'x-admin-token': ADMIN_TOKEN };

for (const kind of databaseKinds()) {
  describe(`send a test event to one endpoint (${kind})`, () => {
    let svc: TestService;
    let worker: DeliveryWorker;
    let merchant: MerchantKeys;
    let target: WebhookReceiver;
    let bystander: WebhookReceiver;

    before(async () => {
      svc = await startTestService(kind);
      worker = createDeliveryWorker(svc.ctx);
      merchant = await svc.createMerchant('Test event shop');
      target = await startWebhookReceiver();
      bystander = await startWebhookReceiver();
    });
    after(async () => {
      await worker.stop();
      await Promise.all([target.close(), bystander.close()]);
      await svc.close();
    });

    const register = async (url: string, enabledEvents: string[]) => {
      const response = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant.id}/webhook-endpoints`,
        headers: admin,
        body: { url, livemode: false, enabled_events: enabledEvents },
      });
      assert.equal(response.statusCode, 201, response.body);
      return response.json() as { id: string; secret: string };
    };

    it('delivers a signed sample event to that endpoint only, whatever types it subscribes to', async () => {
      const endpoint = await register(target.url, ['refund.failed']);
      await register(bystander.url, ['*']);

      const response = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/send-test-event`,
        headers: admin,
        body: { type: 'payment_intent.failed' },
      });
      assert.equal(response.statusCode, 200, response.body);
      const sent = response.json() as {
        object: string;
        endpoint_id: string;
        event_id: string;
        delivery_id: string;
      };
      assert.equal(sent.object, 'webhook_test_event');
      assert.equal(sent.endpoint_id, endpoint.id);
      assert.match(sent.event_id, /^evt_[0-9A-Za-z]{24}$/);
      assert.match(sent.delivery_id, /^wd_[0-9A-Za-z]{24}$/);

      assert.equal(await worker.runOnce(), 1, 'one delivery, to the one endpoint');
      assert.equal(bystander.received.length, 0);
      const [delivery] = target.received;
      assert.ok(delivery);
      const event = constructEvent(
        delivery.rawBody,
        String(delivery.headers['service-signature']),
        endpoint.secret,
        {
          now: () => Math.floor(svc.clock.now().getTime() / 1000),
        },
      );
      assert.equal(event.id, sent.event_id);
      assert.equal(event.type, 'payment_intent.failed');
      assert.equal(event.livemode, false);
      const object = event.data.object as {
        object: string;
        status: string;
        metadata: Record<string, string>;
      };
      assert.equal(object.object, 'payment_intent');
      assert.equal(object.status, 'FAILED');
      assert.equal(object.metadata.paygate_test_event, 'true');

      const list = await svc.request({
        method: 'GET',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/deliveries`,
        headers: admin,
      });
      const listed = (list.json() as { data: { id: string; status: string }[] }).data;
      assert.deepEqual(
        listed.map((d) => [d.id, d.status]),
        [[sent.delivery_id, 'DELIVERED']],
      );
    });

    it('sends payment_intent.succeeded by default and a refund object for a refund type', async () => {
      const endpoint = await register(target.url, ['*']);
      for (const [body, type, objectKind] of [
        [{}, 'payment_intent.succeeded', 'payment_intent'],
        [{ type: 'refund.succeeded' }, 'refund.succeeded', 'refund'],
      ] as const) {
        const response = await svc.request({
          method: 'POST',
          url: `/admin/v1/webhook-endpoints/${endpoint.id}/send-test-event`,
          headers: admin,
          body,
        });
        assert.equal(response.statusCode, 200, response.body);
        const { rows } = await svc.ctx.db.query<{ payload: string }>(
          'SELECT payload FROM events WHERE id = $1',
          [response.json().event_id],
        );
        const envelope = JSON.parse(rows[0]?.payload ?? '{}');
        assert.equal(envelope.type, type);
        assert.equal(envelope.data.object.object, objectKind);
      }
    });

    it('answers 404 for an unknown endpoint and 400 naming type for an unknown event type', async () => {
      const missing = await svc.request({
        method: 'POST',
        url: '/admin/v1/webhook-endpoints/we_000000000000000000000000/send-test-event',
        headers: admin,
        body: {},
      });
      assert.equal(missing.statusCode, 404, missing.body);
      assert.equal(missing.json().code, 'resource_not_found');

      const endpoint = await register(target.url, ['*']);
      const wrong = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/send-test-event`,
        headers: admin,
        body: { type: 'payment_intent.exploded' },
      });
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.equal(wrong.json().code, 'validation_error');
      assert.match(JSON.stringify(wrong.json().errors), /type/);

      const noToken = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/send-test-event`,
        body: {},
      });
      assert.equal(noToken.statusCode, 401);
    });
  });
}
