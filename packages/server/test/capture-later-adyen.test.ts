// Authorise now, capture later on Adyen (issue 43, item 2), through the Adyen fake, which checks
// every request against Adyen's official OpenAPI description: additionalData.manualCapture, the
// /captures and /cancels modifications (201 received), and the CAPTURE and CANCELLATION
// notifications that settle them. Both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADYEN_TEST_TOKENS } from '@paygate/gateway-fakes';
import { databaseKinds } from './support/databases.ts';
import { type ServiceOnFakeGateways, startServiceOnFakeGateways } from './support/fake-gateways.ts';
import { freshKey, type MerchantKeys, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`capture later on Adyen (${kind})`, () => {
    let running: ServiceOnFakeGateways;
    let svc: TestService;
    let merchant: MerchantKeys;

    before(async () => {
      running = await startServiceOnFakeGateways(kind, {
        notifications: true,
        hostedFields: false,
        defaultReturnUrl: 'http://paygate.test/return',
      });
      svc = running.svc;
      merchant = await svc.createMerchant('Shop that captures on Adyen');
    });
    after(() => running?.close());

    const post = (url: string, body: unknown) =>
      svc.request({
        method: 'POST',
        url,
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('k') },
        body,
      });
    const read = async (id: string) =>
      (
        await svc.request({ method: 'GET', url: `/v1/payment-intents/${id}`, key: merchant.secretTest })
      ).json();
    const eventTypes = async (id: string) =>
      (
        await svc.ctx.db.query<{ type: string }>(
          'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
          [id],
        )
      ).rows.map((r) => r.type);

    async function authorised(amountMinor: number) {
      const created = await post('/v1/payment-intents', {
        amount_minor: amountMinor,
        currency: 'EUR',
        gateway_id: 'adyen',
        capture_method: 'manual',
      });
      assert.equal(created.statusCode, 200, created.body);
      const confirmed = await post(`/v1/payment-intents/${created.json().id}/confirm`, {
        payment_method_token: ADYEN_TEST_TOKENS.approve,
      });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      await running.adyen.idle();
      return confirmed.json() as { id: string; status: string; capture_before: string };
    }

    it('authorises with manualCapture, held 7 days; the capture is settled by its CAPTURE notification', async () => {
      const intent = await authorised(10_000);
      assert.equal(intent.status, 'REQUIRES_CAPTURE');
      const days = (Date.parse(intent.capture_before) - svc.clock.now().getTime()) / 86_400_000;
      assert.ok(days > 6.9 && days <= 7, `capture_before in ${days} days`);
      const captured = await post(`/v1/payment-intents/${intent.id}/capture`, { amount_minor: 6_000 });
      assert.equal(captured.statusCode, 200, captured.body);
      assert.ok(['SUCCEEDED', 'PROCESSING'].includes(captured.json().status), captured.body);
      await running.adyen.idle();
      const after = await read(intent.id);
      assert.equal(after.status, 'SUCCEEDED');
      assert.equal(after.amount_captured_minor, 6_000);
      assert.deepEqual(await eventTypes(intent.id), [
        'payment_intent.requires_capture',
        'payment_intent.succeeded',
      ]);
      assert.deepEqual(running.adyen.violations, []);
    });

    it('a capture the scheme refuses (CAPTURE success false) leaves the intent REQUIRES_CAPTURE with its reason', async () => {
      const intent = await authorised(10_000);
      await post(`/v1/payment-intents/${intent.id}/capture`, { amount_minor: 4_099 });
      await running.adyen.idle();
      const after = await read(intent.id);
      assert.equal(after.status, 'REQUIRES_CAPTURE');
      assert.match(after.last_payment_error?.message ?? '', /CAPTURE/);
      assert.equal(
        (await post(`/v1/payment-intents/${intent.id}/capture`, {})).statusCode,
        200,
        'a new capture may follow',
      );
      await running.adyen.idle();
      assert.equal((await read(intent.id)).status, 'SUCCEEDED');
    });

    it('cancel voids it: /cancels, then CANCELLATION makes it CANCELED (requested)', async () => {
      const intent = await authorised(7_000);
      const canceled = await post(`/v1/payment-intents/${intent.id}/cancel`, {});
      assert.equal(canceled.statusCode, 200, canceled.body);
      await running.adyen.idle();
      const after = await read(intent.id);
      assert.equal(after.status, 'CANCELED');
      assert.equal(after.cancellation_reason, 'requested');
      assert.deepEqual(running.adyen.violations, []);
    });
  });
}
