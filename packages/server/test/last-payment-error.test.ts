import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { confirmPaymentIntent } from '../src/app/payments/confirm-payment-intent.ts';
import type { GatewayConnector } from '../src/gateways/connector.ts';
import { GatewayRegistry } from '../src/gateways/registry.ts';
import { chargeOutcomeOf } from '../src/gateways/sim/wire.ts';
import { listEventsForObject } from '../src/storage/repositories/events.ts';
import { databaseKinds } from './support/databases.ts';
import { type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

describe("the sim connector reads the gateway's decline code", () => {
  const charge = {
    object: 'charge',
    id: 'ch_1',
    idempotency_key: 'pi_1:attempt:1',
    status: 'failed',
    failure_code: 'card_declined',
    failure_message: 'Your card has insufficient funds.',
  };
  it('keeps decline_code when the gateway gives one, and its own code as gateway_code', () => {
    assert.deepEqual(chargeOutcomeOf({ ...charge, decline_code: 'insufficient_funds' }, 'pi_1:attempt:1'), {
      kind: 'failed',
      gatewayReference: 'ch_1',
      failureCode: 'card_declined',
      declineCode: 'insufficient_funds',
      gatewayCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
  });
  it('reads a code outside the vocabulary as generic_decline, keeping the code as gateway_code', () => {
    const outcome = chargeOutcomeOf({ ...charge, decline_code: 'sim_mystery' }, 'pi_1:attempt:1');
    assert.equal(outcome.kind === 'failed' && outcome.declineCode, 'generic_decline');
    assert.equal(outcome.kind === 'failed' && outcome.gatewayCode, 'sim_mystery');
  });
  it('has a null decline_code and gateway_code when the gateway gives none', () => {
    const outcome = chargeOutcomeOf(charge, 'pi_1:attempt:1');
    assert.equal(outcome.kind === 'failed' && outcome.declineCode, null);
    assert.equal(outcome.kind === 'failed' && outcome.gatewayCode, null);
  });
});

for (const kind of databaseKinds()) {
  describe(`a failed payment says why: last_payment_error (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Failing shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    async function failedEventObject(intentId: string) {
      const events = await listEventsForObject(svc.ctx.db, intentId);
      const failed = events.find((event) => event.type === 'payment_intent.failed');
      assert.ok(failed, 'a payment_intent.failed event');
      return JSON.parse(failed.payload).data.object;
    }

    it('is null on a new intent and on a succeeded one', async () => {
      const intent = await pay.create();
      assert.equal(intent.last_payment_error, null);
      const confirmed = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().last_payment_error, null);
    });

    for (const [token, code] of [
      ['tok_sim_decline', 'card_declined'],
      ['tok_sim_reject', 'gateway_rejected'],
    ] as const) {
      it(`carries ${code} on the 402's intent, on the retrieved intent and in payment_intent.failed (${token})`, async () => {
        const intent = await pay.create();
        const response = await pay.confirm(intent.id, { payment_method_token: token });
        assert.equal(response.statusCode, 402);
        const inProblem = response.json().payment_intent.last_payment_error;
        assert.equal(inProblem.code, code);
        assert.equal(inProblem.decline_code, null);
        assert.equal(inProblem.gateway_code, null);
        assert.equal(typeof inProblem.message, 'string');
        assert.ok(inProblem.message.length > 0);

        const retrieved = await pay.retrieve(intent.id);
        assert.deepEqual(retrieved.last_payment_error, inProblem);
        assert.deepEqual((await failedEventObject(intent.id)).last_payment_error, inProblem);
      });
    }

    it("carries the gateway's decline_code and message when the gateway gives them", async () => {
      const sim = svc.ctx.gateways.get('sim');
      assert.ok(sim);
      const declining: GatewayConnector = {
        ...sim,
        async charge(request) {
          return {
            kind: 'failed',
            gatewayReference: `ch_${request.paymentIntentId}`,
            failureCode: 'card_declined',
            declineCode: 'insufficient_funds',
            gatewayCode: '51',
            message: 'Your card has insufficient funds.',
          };
        },
      };
      const ctx = { ...svc.ctx, gateways: new GatewayRegistry([declining]) };
      const intent = await pay.create();
      const applied = await confirmPaymentIntent(
        ctx,
        { merchantId: merchant.id, livemode: false },
        intent.id,
        {
          paymentMethodToken: 'tok_sim_decline',
        },
      );
      assert.equal(applied.intent.status, 'FAILED');
      const expected = {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        gateway_code: '51',
        message: 'Your card has insufficient funds.',
      };
      assert.deepEqual((await pay.retrieve(intent.id)).last_payment_error, expected);
      assert.deepEqual((await failedEventObject(intent.id)).last_payment_error, expected);
    });
  });
}
