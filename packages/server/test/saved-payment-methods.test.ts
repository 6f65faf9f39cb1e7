// Detaching saved payment methods (issue 44; CONTRACT.md, second round): at once in Paygate (never
// charged again, saved_payment_method.detached), then at the gateway; repeated, it answers the
// same and tells no one twice; a gateway that does not confirm the detach is asked again by the
// repair job until it does; deleting a customer detaches all its methods. On both databases,
// against the simulated gateway.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  detachMethodsOfDeletedCustomer,
  repairGatewayDetaches,
} from '../src/app/saved-payment-methods/detach-saved-payment-method.ts';
import type { Queryable } from '../src/storage/db.ts';
import { detachSavedPaymentMethod as detachRow } from '../src/storage/repositories/saved-payment-methods.ts';
import { databaseKinds } from './support/databases.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

type Json = Record<string, unknown>;

for (const kind of databaseKinds()) {
  describe(`detaching saved payment methods (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let other: MerchantKeys;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Detach shop');
      other = await svc.createMerchant('Another shop');
    });
    after(() => svc.close());

    const api = async (
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      body?: Json,
      key = merchant.secretTest,
    ) => {
      const response = await svc.request({
        method,
        url,
        key,
        headers: method === 'POST' ? { 'idempotency-key': freshKey('spm') } : {},
        ...(body === undefined ? {} : { body }),
      });
      return { status: response.statusCode, body: response.json() as Json };
    };
    const customerOf = async () => {
      const created = await api('POST', '/v1/customers', { email: 'payer@example.com' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      return created.body.id as string;
    };
    const savedMethodOf = async (customerId: string) => {
      const intent = await api('POST', '/v1/payment-intents', {
        amount_minor: 1500,
        currency: 'USD',
        gateway_id: 'sim',
        customer_id: customerId,
        setup_future_usage: 'off_session',
      });
      const paid = await api('POST', `/v1/payment-intents/${intent.body.id}/confirm`, {
        payment_method_token: 'tok_sim_approve',
      });
      assert.equal(paid.body.status, 'SUCCEEDED', JSON.stringify(paid.body));
      const { rows } = await svc.ctx.db.query<{ id: string; gateway_reference: string }>(
        'SELECT id, gateway_reference FROM saved_payment_methods WHERE payment_intent_id = $1',
        [intent.body.id],
      );
      assert.ok(rows[0]);
      return { id: rows[0].id, reference: rows[0].gateway_reference };
    };
    const detach = (id: string, key = merchant.secretTest) =>
      api('POST', `/v1/saved-payment-methods/${id}/detach`, undefined, key);
    const gatewayState = async (id: string) => {
      const { rows } = await svc.ctx.db.query<{
        gateway_detach: string | null;
        gateway_detach_tries: number;
      }>('SELECT gateway_detach, gateway_detach_tries FROM saved_payment_methods WHERE id = $1', [id]);
      return rows[0];
    };
    /** Charges the reference at the simulator directly: what anyone holding it could still do. */
    const chargeAtGateway = async (reference: string) => {
      const response = await fetch(`${svc.sim.url}/v1/charges`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.simApiSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          idempotency_key: freshKey('direct'),
          reference: 'pi_direct',
          amount_minor: 100,
          currency: 'USD',
          token: reference,
          off_session: true,
        }),
      });
      return (await response.json()) as Json;
    };
    const eventsOf = async (id: string) => {
      const { rows } = await svc.ctx.db.query<{ type: string }>(
        'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id',
        [id],
      );
      return rows.map((row) => row.type);
    };

    it('detaches here and at the gateway; a repeat answers the same and tells no one twice', async () => {
      const customerId = await customerOf();
      const method = await savedMethodOf(customerId);
      assert.equal((await chargeAtGateway(method.reference)).status, 'succeeded');

      const first = await detach(method.id);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.status, 'detached');
      assert.equal(first.body.version, 2);
      assert.deepEqual(await gatewayState(method.id), { gateway_detach: 'done', gateway_detach_tries: 0 });
      const refused = await chargeAtGateway(method.reference);
      assert.equal(refused.status, 'failed');
      assert.match(String(refused.failure_message), /detached/);

      const again = await detach(method.id);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.deepEqual(await eventsOf(method.id), [
        'saved_payment_method.attached',
        'saved_payment_method.detached',
      ]);

      const listed = await api('GET', `/v1/customers/${customerId}/saved-payment-methods`);
      assert.equal((listed.body.data as Json[])[0]?.status, 'detached');
      // Paygate never charges it again.
      const intent = await api('POST', '/v1/payment-intents', {
        amount_minor: 1500,
        currency: 'USD',
        gateway_id: 'sim',
        customer_id: customerId,
      });
      const charged = await api('POST', `/v1/payment-intents/${intent.body.id}/confirm`, {
        saved_payment_method_id: method.id,
        off_session: true,
      });
      assert.equal(charged.status, 400, JSON.stringify(charged.body));
    });

    it("a detach that commits between the confirm's check and its start is seen: 400, nothing charged", async () => {
      const customerId = await customerOf();
      const method = await savedMethodOf(customerId);
      const intent = await api('POST', '/v1/payment-intents', {
        amount_minor: 1500,
        currency: 'USD',
        gateway_id: 'sim',
        customer_id: customerId,
      });
      const db = svc.ctx.db;
      const original = db.transaction;
      const inTransaction = original.bind(db) as typeof original;
      // The confirm's first transaction is its start: the detach commits just before it.
      db.transaction = async (fn) => {
        db.transaction = original;
        const scope = { merchantId: merchant.id, livemode: false };
        assert.ok(await inTransaction((tx: Queryable) => detachRow(tx, scope, method.id, svc.clock.now())));
        return inTransaction(fn);
      };
      try {
        const charged = await api('POST', `/v1/payment-intents/${intent.body.id}/confirm`, {
          saved_payment_method_id: method.id,
          off_session: true,
        });
        assert.equal(charged.status, 400, JSON.stringify(charged.body));
        assert.match(JSON.stringify(charged.body), /detached/);
      } finally {
        db.transaction = original;
      }
      const { rows } = await svc.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM charge_attempts WHERE payment_intent_id = $1',
        [intent.body.id],
      );
      assert.equal(rows[0]?.n, 0, 'nothing sent to the gateway');
      assert.equal(await repairGatewayDetaches(svc.ctx), 1, 'the detach, done at the gateway too');
    });

    it("another merchant's method, or an unknown one, is 404 and stays active", async () => {
      const method = await savedMethodOf(await customerOf());
      assert.equal((await detach(method.id, other.secretTest)).status, 404);
      assert.equal((await detach(method.id, merchant.secretLive)).status, 404);
      assert.equal((await detach('spm_000000000000000000000000')).status, 404);
      assert.deepEqual(await gatewayState(method.id), { gateway_detach: null, gateway_detach_tries: 0 });
      assert.equal((await chargeAtGateway(method.reference)).status, 'succeeded');
    });

    it('a gateway that does not confirm the detach is asked again by the repair job until it does', async () => {
      const method = await savedMethodOf(await customerOf());
      const connector = svc.ctx.gateways.get('sim');
      assert.ok(connector?.detachPaymentMethod);
      const real = connector.detachPaymentMethod.bind(connector);
      let refusals = 0;
      // The simulator's 503, as its connector reads it: nothing was detached.
      connector.detachPaymentMethod = async () => {
        refusals += 1;
        return { kind: 'unavailable', retryAfterSeconds: 2, detail: 'sim answered 503' };
      };
      try {
        const detached = await detach(method.id);
        assert.equal(detached.status, 200, 'detached in Paygate whatever the gateway said');
        assert.equal(detached.body.status, 'detached');
        assert.deepEqual(await gatewayState(method.id), {
          gateway_detach: 'pending',
          gateway_detach_tries: 1,
        });
        assert.equal(
          (await chargeAtGateway(method.reference)).status,
          'succeeded',
          'still chargeable at the gateway',
        );

        assert.equal(await repairGatewayDetaches(svc.ctx), 0, 'not due before its back-off (30 s)');
        svc.clock.advance(29);
        assert.equal(await repairGatewayDetaches(svc.ctx), 0, 'not due 29 s later');
        svc.clock.advance(2);
        assert.equal(await repairGatewayDetaches(svc.ctx), 1);
        assert.deepEqual(await gatewayState(method.id), {
          gateway_detach: 'pending',
          gateway_detach_tries: 2,
        });
        assert.equal(refusals, 2);
      } finally {
        connector.detachPaymentMethod = real;
      }
      svc.clock.advance(58);
      assert.equal(await repairGatewayDetaches(svc.ctx), 0, 'the second back-off is 60 s');
      svc.clock.advance(3);
      assert.equal(await repairGatewayDetaches(svc.ctx), 1);
      assert.deepEqual(await gatewayState(method.id), { gateway_detach: 'done', gateway_detach_tries: 2 });
      assert.equal((await chargeAtGateway(method.reference)).status, 'failed');
      assert.equal(await repairGatewayDetaches(svc.ctx), 0, 'nothing left to do');
    });

    it('a connector that fails outright at the first try still answers the committed detach; the repair job finishes it', async () => {
      const method = await savedMethodOf(await customerOf());
      const connector = svc.ctx.gateways.get('sim');
      assert.ok(connector?.detachPaymentMethod);
      const real = connector.detachPaymentMethod;
      connector.detachPaymentMethod = () => {
        throw new Error('connector bug');
      };
      try {
        const detached = await detach(method.id);
        assert.equal(detached.status, 200, JSON.stringify(detached.body));
        assert.equal(detached.body.status, 'detached');
        assert.deepEqual(await gatewayState(method.id), {
          gateway_detach: 'pending',
          gateway_detach_tries: 0,
        });
      } finally {
        connector.detachPaymentMethod = real;
      }
      assert.equal(await repairGatewayDetaches(svc.ctx), 1, 'still due: nothing recorded a later try');
      assert.deepEqual(await gatewayState(method.id), { gateway_detach: 'done', gateway_detach_tries: 0 });
      assert.equal((await chargeAtGateway(method.reference)).status, 'failed');
    });

    it('the back-off of a gateway that keeps refusing the detach doubles up to one hour and stays there', async () => {
      const method = await savedMethodOf(await customerOf());
      const connector = svc.ctx.gateways.get('sim');
      assert.ok(connector?.detachPaymentMethod);
      const real = connector.detachPaymentMethod;
      connector.detachPaymentMethod = async () => ({
        kind: 'unavailable',
        retryAfterSeconds: 2,
        detail: 'sim answered 503',
      });
      const pauses: number[] = [];
      try {
        assert.equal((await detach(method.id)).status, 200);
        for (let i = 0; i < 9; i++) {
          const { rows } = await svc.ctx.db.query<{ due: Date }>(
            'SELECT gateway_detach_due_at AS due FROM saved_payment_methods WHERE id = $1',
            [method.id],
          );
          const due = rows[0]?.due as Date;
          pauses.push(Math.round((due.getTime() - svc.clock.now().getTime()) / 1000));
          svc.clock.advance(pauses.at(-1) ?? 0);
          assert.equal(await repairGatewayDetaches(svc.ctx), 1);
        }
      } finally {
        connector.detachPaymentMethod = real;
      }
      assert.deepEqual(pauses, [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
      svc.clock.advance(3600);
      assert.equal(await repairGatewayDetaches(svc.ctx), 1);
      assert.equal((await gatewayState(method.id))?.gateway_detach, 'done');
    });

    it('a crash after the detach committed and before the gateway call: the repair job detaches it at the gateway, once', async () => {
      const customerId = await customerOf();
      const method = await savedMethodOf(customerId);
      // Phase 1 only, as a process that died right after its commit leaves it.
      const scope = { merchantId: merchant.id, livemode: false };
      await svc.ctx.db.transaction((tx) =>
        detachMethodsOfDeletedCustomer(tx, scope, customerId, svc.clock.now()),
      );
      assert.deepEqual(await gatewayState(method.id), { gateway_detach: 'pending', gateway_detach_tries: 0 });
      assert.equal((await chargeAtGateway(method.reference)).status, 'succeeded', 'the gateway was not told');
      assert.equal(await repairGatewayDetaches(svc.ctx), 1, 'due at once');
      assert.deepEqual(await gatewayState(method.id), { gateway_detach: 'done', gateway_detach_tries: 0 });
      assert.equal((await chargeAtGateway(method.reference)).status, 'failed');
      assert.equal(await repairGatewayDetaches(svc.ctx), 0);
      assert.deepEqual(await eventsOf(method.id), [
        'saved_payment_method.attached',
        'saved_payment_method.detached',
      ]);
    });

    it('deleting a customer detaches each of its active methods, here and at the gateway', async () => {
      const customerId = await customerOf();
      const methods = [await savedMethodOf(customerId), await savedMethodOf(customerId)];
      const alreadyDetached = methods[0] as { id: string; reference: string };
      assert.equal((await detach(alreadyDetached.id)).status, 200);
      const deleted = await api('DELETE', `/v1/customers/${customerId}`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      for (const method of methods) {
        assert.deepEqual(await gatewayState(method.id), { gateway_detach: 'done', gateway_detach_tries: 0 });
        assert.equal((await chargeAtGateway(method.reference)).status, 'failed');
        assert.deepEqual(await eventsOf(method.id), [
          'saved_payment_method.attached',
          'saved_payment_method.detached',
        ]);
      }
      const again = await api('DELETE', `/v1/customers/${customerId}`);
      assert.equal(again.status, 200);
      assert.deepEqual(await eventsOf(methods[1]?.id ?? ''), [
        'saved_payment_method.attached',
        'saved_payment_method.detached',
      ]);
    });
  });
}
