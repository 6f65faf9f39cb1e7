import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { expireDueIntents } from '../src/app/payments/expire-payment-intents.ts';
import { reconcileOpenCharges, runDueDelayedCharges } from '../src/app/payments/settle-open-charges.ts';
import { ShiftedClock } from '../src/clock.ts';
import { newId } from '../src/domain/ids.ts';
import { testClockRoutes } from '../src/http/routes/admin/test-clock.ts';
import { validatorCompiler } from '../src/http/validation.ts';
import { insertChargeAttempt } from '../src/storage/repositories/charge-attempts.ts';
import { searchPaymentIntents } from '../src/storage/repositories/payment-search.ts';
import { insertTransaction } from '../src/storage/repositories/transactions.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const BATCH = 100;

for (const kind of databaseKinds()) {
  describe(`time-driven charge work (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      // A short gateway time-out, so that tok_sim_hang's withheld answer becomes a time-out quickly;
      // not shorter, because every other gateway call of these tests must answer within it, also
      // on a loaded machine (300 ms once timed out a reconciliation sync at load 12).
      svc = await startTestService(kind, { gatewayTimeoutMs: 1000 });
      merchant = await svc.createMerchant('Clocked shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    const advance = async (seconds: number) => {
      const response = await svc.request({
        method: 'POST',
        url: '/admin/v1/test-clock/advance',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { seconds },
      });
      assert.equal(response.statusCode, 200);
    };

    /** Leaves an intent as a crash right after the first phase of confirm would: attempt CHARGING. */
    async function crashedAfterPhaseOne(intent: IntentJson, token: string) {
      const now = svc.clock.now();
      const record = await svc.ctx.db.transaction(async (tx) => {
        const attempt = await insertChargeAttempt(tx, {
          paymentIntentId: intent.id,
          merchantId: merchant.id,
          livemode: false,
          gatewayId: 'sim',
          paymentMethodToken: token,
          status: 'CHARGING',
          nextCheckAt: new Date(now.getTime() + 120_000),
          createdAt: now,
          updatedAt: now,
        });
        await insertTransaction(tx, {
          id: newId('txn'),
          merchantId: merchant.id,
          livemode: false,
          type: 'PAYMENT',
          status: 'PENDING',
          amountMinor: intent.amount_minor,
          currency: 'USD',
          paymentIntentId: intent.id,
          refundId: null,
          gatewayId: 'sim',
          createdAt: now,
          updatedAt: now,
        });
        return attempt;
      });
      return record;
    }

    describe('reconciliation', () => {
      it('leaves a timed-out charge PROCESSING, then settles it by syncing with the gateway', async () => {
        const intent = await pay.create();
        const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_hang' });
        assert.equal(response.statusCode, 200);
        assert.equal(response.json().status, 'PROCESSING');
        assert.deepEqual(await pay.eventTypes(intent.id), []);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['PENDING']);

        assert.equal((await reconcileOpenCharges(svc.ctx, BATCH)).handled, 0, 'not due yet');
        await advance(31);
        const run = await reconcileOpenCharges(svc.ctx, BATCH);
        assert.equal(run.handled, 1);
        assert.deepEqual(run.warnings, []);
        assert.equal((await pay.retrieve(intent.id)).status, 'SUCCEEDED');
        assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.succeeded']);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
        await advance(3600);
        assert.equal((await reconcileOpenCharges(svc.ctx, BATCH)).handled, 0, 'a settled attempt is closed');
      });

      it('settles an attempt left CHARGING by a crash after the charge was made', async () => {
        const intent = await pay.create();
        const attempt = await crashedAfterPhaseOne(intent, 'tok_sim_approve');
        const connector = svc.ctx.gateways.get('sim');
        const charged = await connector?.charge({
          idempotencyKey: attempt.idempotencyKey,
          paymentIntentId: intent.id,
          amountMinor: intent.amount_minor,
          currency: 'USD',
          paymentMethodToken: 'tok_sim_approve',
          livemode: false,
          returnUrl: null,
        });
        assert.equal(charged?.kind, 'succeeded');

        // While the attempt is open, neither another confirm nor a cancel may race it.
        const confirm = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
        assert.equal(confirm.statusCode, 409);
        const cancel = await svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${intent.id}/cancel`,
          key: merchant.secretTest,
        });
        assert.equal(cancel.statusCode, 409);
        assert.equal(cancel.json().code, 'invalid_state_transition');

        assert.equal((await reconcileOpenCharges(svc.ctx, BATCH)).handled, 0, 'its confirm still has time');
        await advance(121);
        assert.equal((await reconcileOpenCharges(svc.ctx, BATCH)).handled, 1);
        assert.equal((await pay.retrieve(intent.id)).status, 'SUCCEEDED');
        assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.succeeded']);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
      });

      it('fails an attempt left CHARGING by a crash before the gateway got the charge (nothing charged)', async () => {
        const intent = await pay.create();
        await crashedAfterPhaseOne(intent, 'tok_sim_approve');
        await advance(121);
        assert.equal((await reconcileOpenCharges(svc.ctx, BATCH)).handled, 1);
        assert.equal((await pay.retrieve(intent.id)).status, 'FAILED');
        assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.failed']);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['DECLINED']);
      });

      it('settles each due attempt once when several workers run at the same time', async () => {
        const intents = await Promise.all([pay.create(), pay.create(), pay.create()]);
        for (const intent of intents) {
          await pay.confirm(intent.id, { payment_method_token: 'tok_sim_hang' });
        }
        await advance(31);
        const runs = await Promise.all([1, 2, 3].map(() => reconcileOpenCharges(svc.ctx, BATCH)));
        assert.equal(
          runs.reduce((sum, run) => sum + run.handled, 0),
          3,
        );
        for (const intent of intents) {
          assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.succeeded']);
        }
      });
    });

    describe('the amount-13 rule', () => {
      for (const [token, status, event] of [
        ['tok_sim_approve', 'SUCCEEDED', 'payment_intent.succeeded'],
        ['tok_sim_decline', 'FAILED', 'payment_intent.failed'],
      ] as const) {
        it(`answers PROCESSING and settles ${status} 60 s later for ${token}`, async () => {
          const intent = await pay.create({ amount_minor: 1013 });
          const response = await pay.confirm(intent.id, { payment_method_token: token });
          assert.equal(response.statusCode, 200);
          assert.equal(response.json().status, 'PROCESSING');
          assert.deepEqual(await pay.eventTypes(intent.id), []);
          const notYet = await pay.gatewayCharge(intent.id, 1);
          assert.equal(notYet.kind === 'failed' && notYet.gatewayReference, null, 'not charged at confirm');

          await advance(59);
          assert.equal((await runDueDelayedCharges(svc.ctx, BATCH)).handled, 0);
          assert.equal((await pay.retrieve(intent.id)).status, 'PROCESSING');
          await advance(2);
          assert.equal((await runDueDelayedCharges(svc.ctx, BATCH)).handled, 1);
          assert.equal((await pay.retrieve(intent.id)).status, status);
          assert.deepEqual(await pay.eventTypes(intent.id), [event]);
          assert.deepEqual(await pay.paymentTransactions(intent.id), [
            status === 'SUCCEEDED' ? 'APPROVED' : 'DECLINED',
          ]);
          assert.equal((await runDueDelayedCharges(svc.ctx, BATCH)).handled, 0);
        });
      }

      it('answers at once for an amount that does not end in 13', async () => {
        const intent = await pay.create({ amount_minor: 1014 });
        const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
        assert.equal(response.json().status, 'SUCCEEDED');
      });
    });

    describe('expiry', () => {
      it('expires a CREATED intent once expires_at passes, with one payment_intent.expired event', async () => {
        const soon = await pay.create({ expires_in_seconds: 60 });
        const later = await pay.create({ expires_in_seconds: 600 });
        await advance(59);
        await expireDueIntents(svc.ctx, BATCH);
        assert.equal((await pay.retrieve(soon.id)).status, 'CREATED');
        await advance(2);
        assert.ok((await expireDueIntents(svc.ctx, BATCH)) >= 1);
        assert.equal((await pay.retrieve(soon.id)).status, 'EXPIRED');
        assert.equal((await pay.retrieve(later.id)).status, 'CREATED');
        assert.deepEqual(await pay.eventTypes(soon.id), ['payment_intent.expired']);
        await expireDueIntents(svc.ctx, BATCH);
        assert.deepEqual(await pay.eventTypes(soon.id), ['payment_intent.expired']);
      });

      it('expires an intent waiting for the payer, abandoning its attempt and declining its transaction', async () => {
        const intent = await pay.create({ expires_in_seconds: 60 });
        await pay.confirm(intent.id, { payment_method_token: 'tok_sim_challenge' });
        await advance(61);
        await expireDueIntents(svc.ctx, BATCH);
        assert.equal((await pay.retrieve(intent.id)).status, 'EXPIRED');
        assert.deepEqual(await pay.eventTypes(intent.id), [
          'payment_intent.requires_action',
          'payment_intent.expired',
        ]);
        assert.equal((await pay.attempts(intent.id))[0]?.status, 'ABANDONED');
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['DECLINED']);
      });

      it('does not expire an intent whose charge is being sent (it reads PROCESSING)', async () => {
        const intent = await pay.create({ expires_in_seconds: 60 });
        await crashedAfterPhaseOne(intent, 'tok_sim_approve');
        await advance(61);
        await expireDueIntents(svc.ctx, BATCH);
        assert.equal((await pay.retrieve(intent.id)).status, 'PROCESSING');
      });

      it('expires an intent past expires_at on confirm instead of charging it (409)', async () => {
        const intent = await pay.create({ expires_in_seconds: 60 });
        await advance(61);
        const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
        assert.equal(response.statusCode, 409);
        assert.equal(response.json().code, 'invalid_state_transition');
        assert.equal((await pay.retrieve(intent.id)).status, 'EXPIRED');
        assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.expired']);
        assert.deepEqual(await pay.attempts(intent.id), []);
      });

      it('does not expire on confirm an intent whose charge is being sent: the same 409 as a concurrent confirm', async () => {
        const intent = await pay.create({ expires_in_seconds: 60 });
        await crashedAfterPhaseOne(intent, 'tok_sim_approve');
        await advance(61);
        const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
        assert.equal(response.statusCode, 409);
        assert.equal(response.json().code, 'invalid_state_transition');
        assert.match(response.json().detail, /already being confirmed/);
        assert.equal((await pay.retrieve(intent.id)).status, 'PROCESSING');
        assert.deepEqual(await pay.eventTypes(intent.id), []);
      });

      it('expires each intent once when several workers run at the same time', async () => {
        const intents = await Promise.all(
          Array.from({ length: 6 }, () => pay.create({ expires_in_seconds: 60 })),
        );
        await advance(61);
        await Promise.all([1, 2, 3].map(() => expireDueIntents(svc.ctx, 2)));
        await expireDueIntents(svc.ctx, BATCH);
        for (const intent of intents) {
          assert.deepEqual(await pay.eventTypes(intent.id), ['payment_intent.expired']);
        }
      });
    });

    // Runs after reconciliation: the attempt it leaves CHARGING would be due for a sync.
    describe('a confirm while a charge is in flight', () => {
      it('is refused by the open-attempt index with 409 invalid_state_transition; nothing is written', async () => {
        const intent = await pay.create();
        await crashedAfterPhaseOne(intent, 'tok_sim_approve');
        const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
        assert.equal(response.statusCode, 409);
        assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
        const problem = response.json();
        assert.equal(problem.code, 'invalid_state_transition');
        assert.equal(
          problem.detail,
          'This payment intent is already being confirmed; retrieve it to see the outcome.',
        );
        assert.deepEqual(
          (await pay.attempts(intent.id)).map((a) => [a.attemptNumber, a.status]),
          [[1, 'CHARGING']],
        );
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['PENDING']);
        assert.equal((await pay.retrieve(intent.id)).status, 'PROCESSING');
        const second = await pay.gatewayCharge(intent.id, 2);
        assert.equal(second.kind === 'failed' && second.gatewayReference, null, 'no charge sent');
      });

      it('reads PROCESSING, also in a status search, until the outcome is recorded; cancel is refused', async () => {
        const intent = await pay.create();
        await crashedAfterPhaseOne(intent, 'tok_sim_approve');
        assert.equal((await pay.retrieve(intent.id)).status, 'PROCESSING');
        const scope = { merchantId: merchant.id, livemode: false };
        const found = async (status: 'CREATED' | 'PROCESSING') =>
          (await searchPaymentIntents(svc.ctx.db, scope, { id: intent.id, status }, null, 10)).map(
            (row) => row.intent.id,
          );
        assert.deepEqual(await found('PROCESSING'), [intent.id]);
        assert.deepEqual(await found('CREATED'), []);
        const cancel = await svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${intent.id}/cancel`,
          key: merchant.secretTest,
        });
        assert.equal(cancel.statusCode, 409);
        assert.equal(cancel.json().code, 'invalid_state_transition');
        // The gateway never got this charge: reconciliation records the failure, which then shows.
        await advance(121);
        await reconcileOpenCharges(svc.ctx, BATCH);
        assert.equal((await pay.retrieve(intent.id)).status, 'FAILED');
        assert.deepEqual(await found('PROCESSING'), []);
      });
    });
  });
}

describe('test-clock endpoint', () => {
  it('moves the clock and wakes the time-driven jobs', async () => {
    const clock = new ShiftedClock();
    let woken = 0;
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    await app.register(testClockRoutes, { clock, onAdvance: () => woken++ });
    const before = clock.now().getTime();
    const response = await app.inject({
      method: 'POST',
      url: '/admin/v1/test-clock/advance',
      payload: { seconds: 3600 },
    });
    assert.equal(response.statusCode, 200);
    assert.ok(Date.parse(response.json().now) - before >= 3_600_000);
    assert.equal(woken, 1);
    await app.close();
  });
});
