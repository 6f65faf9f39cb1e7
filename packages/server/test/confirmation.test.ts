import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyAttemptOutcome, nextCheckAt } from '../src/app/payments/charge-outcomes.ts';
import { confirmPaymentIntent } from '../src/app/payments/confirm-payment-intent.ts';
import { moveAttempt } from '../src/app/payments/intent-status.ts';
import type { ChargeOutcome, GatewayConnector } from '../src/gateways/connector.ts';
import { GatewayRegistry } from '../src/gateways/registry.ts';
import type { ChargeAttemptRecord } from '../src/storage/repositories/charge-attempts.ts';
import { databaseKinds } from './support/databases.ts';
import { type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`confirm a payment intent (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Confirm shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    it('approves with tok_sim_approve: SUCCEEDED, one event, PAYMENT transaction APPROVED', async () => {
      const intent = await pay.create();
      const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(response.statusCode, 200);
      const confirmed = response.json();
      assert.equal(confirmed.status, 'SUCCEEDED');
      assert.equal(confirmed.id, intent.id);
      assert.equal(confirmed.client_secret, intent.client_secret);
      assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.succeeded']);
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
      const [attempt] = await pay.attempts(intent.id);
      assert.equal(attempt?.status, 'SUCCEEDED');
      assert.equal(attempt?.idempotencyKey, `${intent.id}:attempt:1`);
      assert.equal((await pay.gatewayCharge(intent.id, 1)).kind, 'succeeded');
    });

    for (const [token, code] of [
      ['tok_sim_decline', 'card_declined'],
      ['tok_sim_reject', 'gateway_rejected'],
      ['tok_unknown_to_the_gateway', 'gateway_rejected'],
    ] as const) {
      it(`answers 402 ${code} for ${token}, carrying the FAILED intent`, async () => {
        const intent = await pay.create();
        const response = await pay.confirm(intent.id, { payment_method_token: token });
        assert.equal(response.statusCode, 402);
        assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
        const problem = response.json();
        assert.equal(problem.code, code);
        assert.equal(problem.status, 402);
        assert.equal(problem.payment_intent.id, intent.id);
        assert.equal(problem.payment_intent.status, 'FAILED');
        assert.equal(problem.payment_intent.client_secret, intent.client_secret);
        assert.equal((await pay.retrieve(intent.id)).status, 'FAILED');
        assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.failed']);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['DECLINED']);
      });
    }

    it('answers REQUIRES_ACTION with the gateway challenge page for tok_sim_challenge', async () => {
      const intent = await pay.create({ return_url: 'https://shop.test/back' });
      const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_challenge' });
      assert.equal(response.statusCode, 200);
      const confirmed = response.json();
      assert.equal(confirmed.status, 'REQUIRES_ACTION');
      assert.ok(confirmed.redirect_url.startsWith(`${svc.sim.url}/challenge/ch_`), confirmed.redirect_url);
      assert.equal((await pay.retrieve(intent.id)).redirect_url, confirmed.redirect_url);
      assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.requires_action']);
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['PENDING']);
    });

    it('answers 503 with Retry-After for tok_sim_unavailable; nothing charged, the intent may be confirmed again', async () => {
      const intent = await pay.create();
      const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_unavailable' });
      assert.equal(response.statusCode, 503);
      assert.equal(response.json().code, 'gateway_unavailable');
      assert.equal(response.headers['retry-after'], '2');
      assert.equal((await pay.retrieve(intent.id)).status, 'CREATED');
      assert.deepEqual(await pay.paymentTransactions(intent.id), []);
      assert.deepEqual(await pay.eventTypes(intent.id), []);
      assert.equal((await pay.attempts(intent.id))[0]?.status, 'UNAVAILABLE');

      const again = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().status, 'SUCCEEDED');
      assert.deepEqual(
        (await pay.attempts(intent.id)).map((a) => [a.attemptNumber, a.status]),
        [
          [1, 'UNAVAILABLE'],
          [2, 'SUCCEEDED'],
        ],
      );
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
    });

    it('refuses a confirm without payment_method_token, naming the field', async () => {
      const intent = await pay.create();
      for (const body of [{}, undefined]) {
        const response = await pay.confirm(intent.id, body);
        assert.equal(response.statusCode, 400);
        const problem = response.json();
        assert.equal(problem.code, 'validation_error');
        assert.equal(problem.errors[0].field, 'payment_method_token');
      }
      assert.equal((await pay.retrieve(intent.id)).status, 'CREATED');
      assert.deepEqual(await pay.attempts(intent.id), []);
    });

    it('answers 404 for an intent of another merchant', async () => {
      const other = await svc.createMerchant('Other shop');
      const intent = await pay.create();
      const response = await pay.confirm(
        intent.id,
        { payment_method_token: 'tok_sim_approve' },
        { 'x-api-key': other.secretTest },
      );
      assert.equal(response.statusCode, 404);
      assert.equal((await pay.retrieve(intent.id)).status, 'CREATED');
    });

    it('refuses to confirm an intent in any status but CREATED with 409 invalid_state_transition', async () => {
      const inStatus = async (token: string | null, cancel = false) => {
        const intent = await pay.create();
        if (token) await pay.confirm(intent.id, { payment_method_token: token });
        if (cancel) {
          await svc.request({
            method: 'POST',
            url: `/v1/payment-intents/${intent.id}/cancel`,
            key: merchant.secretTest,
          });
        }
        return intent.id;
      };
      const ids = {
        SUCCEEDED: await inStatus('tok_sim_approve'),
        FAILED: await inStatus('tok_sim_decline'),
        REQUIRES_ACTION: await inStatus('tok_sim_challenge'),
        PROCESSING: (await pay.create({ amount_minor: 1013 })).id,
        CANCELED: await inStatus(null, true),
      };
      await pay.confirm(ids.PROCESSING, { payment_method_token: 'tok_sim_approve' });
      for (const [status, id] of Object.entries(ids)) {
        assert.equal((await pay.retrieve(id)).status, status);
        const events = await pay.eventTypes(id);
        const response = await pay.confirm(id, { payment_method_token: 'tok_sim_approve' });
        assert.equal(response.statusCode, 409, status);
        assert.equal(response.json().code, 'invalid_state_transition');
        assert.equal((await pay.retrieve(id)).status, status);
        assert.deepEqual(await pay.eventTypes(id), events, `no new event for ${status}`);
      }
    });

    it('charges exactly once under 20 concurrent confirms of one intent', async () => {
      const intent = await pay.create();
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' })),
      );
      const statuses = responses.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [200, ...Array<number>(19).fill(409)]);
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        assert.equal(response.json().code, 'invalid_state_transition');
      }
      assert.equal((await pay.attempts(intent.id)).length, 1);
      assert.equal((await pay.gatewayCharge(intent.id, 1)).kind, 'succeeded');
      const second = await pay.gatewayCharge(intent.id, 2);
      assert.equal(
        second.kind === 'failed' && second.gatewayReference,
        null,
        'no second charge at the gateway',
      );
      assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.succeeded']);
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
    });

    describe('from the browser (publishable key + X-Client-Secret)', () => {
      const asBrowser = (clientSecret: string | undefined) => ({
        'x-api-key': merchant.publishableTest,
        ...(clientSecret === undefined ? {} : { 'x-client-secret': clientSecret }),
      });

      it('confirms and shows the checkout view, not the client secret', async () => {
        const intent = await pay.create();
        const response = await pay.confirm(
          intent.id,
          { payment_method_token: 'tok_sim_approve' },
          asBrowser(intent.client_secret),
        );
        assert.equal(response.statusCode, 200);
        const confirmed = response.json();
        assert.equal(confirmed.status, 'SUCCEEDED');
        assert.equal(confirmed.client_secret, undefined);
        assert.equal(confirmed.checkout.gateway_id, 'sim');
      });

      it('carries the browser view of the failed intent in a 402', async () => {
        const intent = await pay.create();
        const response = await pay.confirm(
          intent.id,
          { payment_method_token: 'tok_sim_decline' },
          asBrowser(intent.client_secret),
        );
        assert.equal(response.statusCode, 402);
        const problem = response.json();
        assert.equal(problem.payment_intent.status, 'FAILED');
        assert.equal(problem.payment_intent.client_secret, undefined);
        assert.equal(problem.payment_intent.checkout.gateway_id, 'sim');
      });

      it('refuses a wrong or missing client secret with 401 and charges nothing', async () => {
        const intent = await pay.create();
        const other = await pay.create();
        for (const secret of [
          other.client_secret,
          undefined,
          `${intent.id}_secret_AAAAAAAAAAAAAAAAAAAAAAAA`,
        ]) {
          const response = await pay.confirm(
            intent.id,
            { payment_method_token: 'tok_sim_approve' },
            asBrowser(secret),
          );
          assert.equal(response.statusCode, 401);
          assert.equal(response.json().code, 'invalid_client_secret');
        }
        assert.equal((await pay.retrieve(intent.id)).status, 'CREATED');
        assert.deepEqual(await pay.attempts(intent.id), []);
      });
    });

    describe('when the intent or its attempt changed while the gateway was answering', () => {
      /**
       * A confirm whose gateway, before answering `outcome`, lets `meanwhile` change the rows the
       * confirm recorded (what a reconciliation worker or a notification could do in that window).
       */
      async function confirmRacing(
        intentId: string,
        outcome: ChargeOutcome,
        meanwhile: (attempt: ChargeAttemptRecord) => Promise<void>,
      ) {
        const sim = svc.ctx.gateways.get('sim');
        if (!sim) throw new Error('no sim gateway');
        const racing: GatewayConnector = {
          ...sim,
          async charge(request) {
            const [attempt] = await pay.attempts(request.paymentIntentId);
            if (!attempt) throw new Error('no attempt recorded before the charge');
            await meanwhile(attempt);
            return outcome;
          },
        };
        const ctx = { ...svc.ctx, gateways: new GatewayRegistry([racing]) };
        return confirmPaymentIntent(ctx, { merchantId: merchant.id, livemode: false }, intentId, {
          paymentMethodToken: 'tok_sim_approve',
        });
      }
      const succeeded: ChargeOutcome = { kind: 'succeeded', gatewayReference: 'ch_race' };

      it('applies nothing twice when the outcome was applied first by someone else', async () => {
        const intent = await pay.create();
        const applied = await confirmRacing(intent.id, succeeded, async (attempt) => {
          await applyAttemptOutcome(svc.ctx, attempt, succeeded, 'sync');
        });
        assert.equal(applied.intent.status, 'SUCCEEDED');
        assert.equal(applied.failure, null);
        assert.equal((await pay.retrieve(intent.id)).status, 'SUCCEEDED');
        assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.succeeded']);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
        assert.equal((await pay.attempts(intent.id))[0]?.status, 'SUCCEEDED');
      });

      it('decides on the attempt as it is now, not as the confirm recorded it', async () => {
        const intent = await pay.create();
        const applied = await confirmRacing(
          intent.id,
          { kind: 'pending', gatewayReference: 'ch_race' },
          (attempt) =>
            // A sync that found the gateway busy: the attempt stays CHARGING with one check counted.
            moveAttempt(svc.ctx.db, attempt, {
              status: 'CHARGING',
              nextCheckAt: attempt.nextCheckAt,
              checked: true,
              updatedAt: svc.clock.now(),
            }),
        );
        assert.equal(applied.intent.status, 'PROCESSING');
        const [attempt] = await pay.attempts(intent.id);
        assert.equal(attempt?.status, 'PROCESSING');
        assert.equal(attempt?.checks, 1);
        // The next check backs off from the one check counted: 60 s, not the 30 s of a first one.
        const changedAt = attempt?.updatedAt ?? new Date(0);
        assert.equal(attempt?.nextCheckAt?.getTime(), nextCheckAt(changedAt, 1).getTime());
        assert.deepEqual(await pay.eventTypes(intent.id), []);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['PENDING']);
      });
    });
  });
}
