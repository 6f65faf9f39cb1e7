// Issue 33, item 1: each phase of a payment is ONE round trip to the database, and the SQL that
// does it in one only applies what the domain decided (docs/decisions/payment-sql-functions.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { paymentIntentStatuses } from '@paygate/contract';
import pg from 'pg';
import { canTransition, type IntentAction, statusesAllowing } from '../src/domain/payment-intent.ts';
import { startConfirm } from '../src/storage/repositories/charge-attempts.ts';
import { databaseKinds } from './support/databases.ts';
import { type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

interface Sent {
  sql: string;
  /** Whether it needed a round trip of its own (false: it travelled with one still unanswered). */
  ownRoundTrip: boolean;
}

/**
 * Records every statement node-postgres is asked to send while `fn` runs, and whether it made a
 * round trip of its own: a statement written on a pipelined connection while another is still
 * unanswered travels with it (the same rule as bench/support/service-probe.mjs).
 */
async function recordStatements(fn: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const original = pg.Client.prototype.query;
  type Internals = {
    pipeline?: boolean;
    _activeQuery?: unknown;
    _sentQueryQueue?: unknown[];
    _queryQueue?: unknown[];
  };
  pg.Client.prototype.query = function recorded(this: pg.Client & Internals, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const sql = (typeof first === 'string' ? first : (first?.text ?? '')).replace(/\s+/g, ' ').trim();
    const inFlight =
      this.pipeline === true &&
      (Boolean(this._activeQuery) ||
        (this._sentQueryQueue?.length ?? 0) > 0 ||
        (this._queryQueue?.length ?? 0) > 0);
    sent.push({ sql, ownRoundTrip: !inFlight });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}

const CONFIRM: IntentAction = { type: 'confirm', result: 'processing' };

for (const kind of databaseKinds()) {
  describe(`the payment's SQL applies what the domain decided (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Round trips shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    /** The first phase of a test-mode confirm of `paymentIntentId` with an approving token, as the use case would pass it. */
    function firstPhase(paymentIntentId: string, transactionId: string) {
      const now = svc.clock.now();
      return {
        scope: { merchantId: merchant.id, livemode: false },
        paymentIntentId,
        confirmable: statusesAllowing(CONFIRM),
        now,
        delayedEnding: 13,
        processGateways: svc.ctx.gateways.ids(),
        accountConnectors: [],
        paymentMethodToken: 'tok_sim_approve',
        attemptStatus: 'CHARGING' as const,
        nextCheckAt: now,
        transactionId,
      };
    }

    it("confirm's first statement refuses exactly the statuses the domain refuses, writing nothing", async () => {
      for (const status of paymentIntentStatuses) {
        const intent = await pay.create();
        await svc.ctx.db.query('UPDATE payment_intents SET status = $2 WHERE id = $1', [intent.id, status]);
        const started = await startConfirm(
          svc.ctx.db,
          firstPhase(intent.id, `txn_rt_${status}_${intent.id.slice(-6)}`),
        );
        if (canTransition(status, CONFIRM)) {
          assert.equal(started.outcome, 'started', status);
          if (started.outcome !== 'started') continue;
          assert.equal(started.attempt.idempotencyKey, `${intent.id}:attempt:1`);
          assert.equal(started.attempt.status, 'CHARGING');
          assert.equal(started.intent.status, status);
          assert.deepEqual(await pay.paymentTransactions(intent.id), ['PENDING']);
        } else {
          assert.deepEqual(started, { outcome: 'refused', status }, status);
          assert.deepEqual(await pay.attempts(intent.id), [], status);
          assert.deepEqual(await pay.paymentTransactions(intent.id), [], status);
        }
      }
    });

    it('answers a refused confirm as the domain does: 409 invalid_state_transition naming the status', async () => {
      const intent = await pay.create();
      await svc.ctx.db.query(`UPDATE payment_intents SET status = 'CANCELED' WHERE id = $1`, [intent.id]);
      const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(response.statusCode, 409);
      assert.equal(response.json().code, 'invalid_state_transition');
      assert.match(response.json().detail, /CANCELED/);
      const missing = await pay.confirm('pi_0000000000000000000000xx', {
        payment_method_token: 'tok_sim_approve',
      });
      assert.equal(missing.statusCode, 404);
    });

    it('refuses a second open attempt through the open-attempt index: 409 already being confirmed', async () => {
      const intent = await pay.create();
      const start = () =>
        startConfirm(svc.ctx.db, firstPhase(intent.id, `txn_rt_open_${intent.id.slice(-8)}`));
      assert.equal((await start()).outcome, 'started');
      const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(response.statusCode, 409);
      assert.match(response.json().detail, /already being confirmed/);
      assert.equal((await pay.attempts(intent.id)).length, 1);
    });
  });
}

if (databaseKinds().includes('postgres')) {
  describe('round trips of a confirm (postgres, counted at the driver)', () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService('postgres');
      merchant = await svc.createMerchant('Counted shop');
      pay = paymentHelpers(svc, () => merchant);
      // Warm up: the API key's lookup and the statements' preparation are not what is counted.
      const warm = await pay.create();
      await pay.confirm(warm.id, { payment_method_token: 'tok_sim_approve' });
    });
    after(() => svc.close());

    // What is counted: every statement node-postgres is asked to send while the confirm request
    // runs (no BEGIN, no COMMIT: each phase is one statement outside a transaction), and the
    // round trips they make. The gateway's HTTP call sits between the two.
    for (const [token, status, event] of [
      ['tok_sim_approve', 'SUCCEEDED', 'payment_intent.succeeded'],
      ['tok_sim_decline', 'FAILED', 'payment_intent.failed'],
    ] as const) {
      it(`sends each phase of a confirm (${status}) as one statement in one round trip: two in all`, async () => {
        const intent = await pay.create();
        const sent = await recordStatements(() => pay.confirm(intent.id, { payment_method_token: token }));
        assert.deepEqual(
          sent.map((s) => [s.sql.slice(0, s.sql.indexOf('(')), s.ownRoundTrip]),
          [
            ['SELECT paygate_confirm_start', true],
            ['SELECT paygate_apply_payment_change', true],
          ],
          JSON.stringify(sent, null, 1),
        );
        assert.equal((await pay.retrieve(intent.id)).status, status);
        assert.deepEqual(await pay.eventTypes(intent.id), [event]);
        assert.deepEqual(await pay.paymentTransactions(intent.id), [
          status === 'SUCCEEDED' ? 'APPROVED' : 'DECLINED',
        ]);
      });
    }

    it('authorises a manual intent in the same two statements: capture_before is written by the step itself', async () => {
      const intent = await pay.create({ capture_method: 'manual' });
      const sent = await recordStatements(() =>
        pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' }),
      );
      assert.deepEqual(
        sent.map((s) => [s.sql.slice(0, s.sql.indexOf('(')), s.ownRoundTrip]),
        [
          ['SELECT paygate_confirm_start', true],
          ['SELECT paygate_apply_payment_change', true],
        ],
        JSON.stringify(sent, null, 1),
      );
      const authorised = await pay.retrieve(intent.id);
      assert.equal(authorised.status, 'REQUIRES_CAPTURE');
      const days = (Date.parse(String(authorised.capture_before)) - svc.clock.now().getTime()) / 86_400_000;
      assert.ok(days > 6.9 && days <= 7, `capture_before in ${days} days`);
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['PENDING']);
    });

    // The figure docs/payments.md and bench/RESULTS.md give for a capture: three phases, the
    // Idempotency-Key's look-up, lock and stored answer included (not yet one statement a phase).
    it('captures in 17 statements: the key, the recovery point, then the outcome with its stored answer', async () => {
      const intent = await pay.create({ capture_method: 'manual' });
      await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      const sent = await recordStatements(() =>
        svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${intent.id}/capture`,
          key: merchant.secretTest,
          headers: { 'idempotency-key': `capture-${intent.id}` },
          body: {},
        }),
      );
      assert.equal(
        sent.length,
        17,
        JSON.stringify(
          sent.map((s) => s.sql.slice(0, 60)),
          null,
          1,
        ),
      );
      assert.equal((await pay.retrieve(intent.id)).status, 'SUCCEEDED');
    });
  });
}
