import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listEventsForObject } from '../src/storage/repositories/events.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

// CONTRACT.md "Resource version": intents and refunds carry `version`, 1 when created and one more
// with each change; each event's data.object carries the version it describes, so a receiver can
// keep the highest it has seen.
for (const kind of databaseKinds()) {
  describe(`resource version (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Versioned shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    /** The events of an object in the order they were written: type and data.object's version. */
    async function eventVersions(objectId: string): Promise<Array<[string, number]>> {
      return (await listEventsForObject(svc.ctx.db, objectId)).map((event) => {
        const envelope = JSON.parse(event.payload) as { type: string; data: { object: { version: number } } };
        return [envelope.type, envelope.data.object.version];
      });
    }

    it('an intent starts at 1 and each change, and the event of it, carries the next version', async () => {
      const created = await pay.create({ return_url: 'https://shop.test/back' });
      assert.equal(created.version, 1, 'created at 1');
      assert.equal((await pay.retrieve(created.id)).version, 1, 'read back at 1');

      const challenged = await pay.confirm(created.id, { payment_method_token: 'tok_sim_challenge' });
      assert.equal(challenged.statusCode, 200, challenged.body);
      assert.equal(challenged.json().status, 'REQUIRES_ACTION');
      assert.equal(challenged.json().version, 2, 'the confirm changed it once');
      svc.clock.advance(1);

      const canceled = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.id}/cancel`,
        key: merchant.secretTest,
        body: { cancellation_reason: 'abandoned' },
      });
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.equal(canceled.json().version, 3, 'the cancel changed it again');
      assert.equal((await pay.retrieve(created.id)).version, 3, 'retrieve shows the latest');
      assert.deepEqual(await eventVersions(created.id), [
        ['payment_intent.requires_action', 2],
        ['payment_intent.canceled', 3],
      ]);
    });

    it('an approved confirm moves it past 1; its event carries the version retrieve shows', async () => {
      const created = await pay.create();
      const confirmed = await pay.confirm(created.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const intent: IntentJson = confirmed.json();
      assert.equal(intent.status, 'SUCCEEDED');
      assert.ok(Number.isInteger(intent.version) && Number(intent.version) >= 2, `version ${intent.version}`);
      assert.equal((await pay.retrieve(created.id)).version, intent.version);
      assert.deepEqual(await eventVersions(created.id), [['payment_intent.succeeded', intent.version]]);
    });

    it('a refund starts at 1, its settlement is the next version, and the intent counts the refunded amount as a change', async () => {
      const created = await pay.create({ amount_minor: 3000 });
      const confirmed = await pay.confirm(created.id, { payment_method_token: 'tok_sim_approve' });
      const succeededAt = Number(confirmed.json().version);
      const versions: number[] = [];
      for (const amount of [1000, 2000]) {
        svc.clock.advance(1);
        const response = await svc.request({
          method: 'POST',
          url: '/v1/refunds',
          key: merchant.secretTest,
          headers: { 'idempotency-key': freshKey('re') },
          body: { payment_intent_id: created.id, amount_minor: amount },
        });
        assert.equal(response.statusCode, 200, response.body);
        const refund = response.json();
        assert.equal(refund.status, 'SUCCEEDED');
        assert.equal(refund.version, 2, 'written PENDING at 1, settled at 2');
        const read = await svc.request({
          method: 'GET',
          url: `/v1/refunds/${refund.id}`,
          key: merchant.secretTest,
        });
        assert.equal(read.json().version, 2, 'retrieve shows the latest');
        assert.deepEqual(await eventVersions(refund.id), [['refund.succeeded', 2]]);
        versions.push(Number((await pay.retrieve(created.id)).version));
      }
      assert.deepEqual(
        versions,
        [succeededAt + 1, succeededAt + 2],
        'each refunded amount is a change of the intent',
      );
      assert.deepEqual(await eventVersions(created.id), [['payment_intent.succeeded', succeededAt]]);
    });
  });
}
