// Issue 33, item 1: each phase of a payment is ONE round trip to the database, and the SQL that
// does it in one only applies what the domain decided (docs/decisions/payment-sql-functions.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { paymentIntentStatuses } from '@paygate/contract';
import pg from 'pg';
import { applyAuthorizationOutcome, capturedStep } from '../src/app/captures/authorization-operations.ts';
import { paymentChangeOf } from '../src/app/payments/intent-status.ts';
import { captureAmountFor } from '../src/domain/capture.ts';
import { canTransition, type IntentAction, statusesAllowing } from '../src/domain/payment-intent.ts';
import {
  finishCaptureInOneStatement,
  startCaptureInOneStatement,
} from '../src/storage/repositories/authorization-operations.ts';
import { startConfirm } from '../src/storage/repositories/charge-attempts.ts';
import { findPaymentIntent } from '../src/storage/repositories/payment-intents.ts';
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

    async function authorised() {
      const intent = await pay.create({ capture_method: 'manual' });
      const confirmed = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().status, 'REQUIRES_CAPTURE', confirmed.body);
      return intent;
    }
    const capture = (id: string, key: string) =>
      svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/capture`,
        key: merchant.secretTest,
        headers: { 'idempotency-key': key },
        body: {},
      });
    const operationsOf = async (id: string) =>
      (
        await svc.ctx.db.query<{ kind: string; status: string; request_key: string }>(
          'SELECT kind, status, request_key FROM authorization_operations WHERE payment_intent_id = $1',
          [id],
        )
      ).rows.map((r) => [r.kind, r.status, r.request_key]);

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

    // The figure docs/payments.md and bench/RESULTS.md give for a capture: one statement for the
    // key's checks with the recovery point, one for the outcome with its stored answer.
    it('captures in two statements: the key with the recovery point, then the outcome with its stored answer', async () => {
      const intent = await authorised();
      const sent = await recordStatements(() => capture(intent.id, `capture-${intent.id}`));
      assert.deepEqual(
        sent.map((s) => [s.sql.slice(0, s.sql.indexOf('(')), s.ownRoundTrip]),
        [
          ['SELECT paygate_capture_start', true],
          ['SELECT paygate_capture_finish', true],
        ],
        JSON.stringify(sent, null, 1),
      );
      const captured = await pay.retrieve(intent.id);
      assert.equal(captured.status, 'SUCCEEDED');
      assert.equal(captured.amount_captured_minor, intent.amount_minor);
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED']);
      assert.deepEqual(await operationsOf(intent.id), [['capture', 'SUCCEEDED', `capture-${intent.id}`]]);
      assert.ok((await pay.eventTypes(intent.id)).includes('payment_intent.succeeded'));
    });
  });
}

for (const kind of databaseKinds()) {
  describe(`a capture's two statements take only the common case (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Capture statements shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    const scope = () => ({ merchantId: merchant.id, livemode: false });
    async function authorised(overrides: Record<string, unknown> = {}) {
      const intent = await pay.create({ capture_method: 'manual', ...overrides });
      const confirmed = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().status, 'REQUIRES_CAPTURE', confirmed.body);
      return intent;
    }
    const capture = (id: string, key: string, body: Record<string, unknown> = {}) =>
      svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/capture`,
        key: merchant.secretTest,
        headers: { 'idempotency-key': key },
        body,
      });
    const start = (id: string, key: string, requestedMinor: number | null = null) => {
      const now = svc.clock.now();
      return startCaptureInOneStatement(svc.ctx.db, {
        scope: scope(),
        key: { lockId: BigInt(Math.floor(Math.random() * 2 ** 40)), key, hash: 'h' },
        now,
        paymentIntentId: id,
        requestedMinor,
        operationId: `auo_rt${key.replace(/[^0-9A-Za-z]/g, '').slice(-18)}`,
        leaseUntil: new Date(now.getTime() + 120_000),
      });
    };
    const operationsOf = async (id: string) =>
      (
        await svc.ctx.db.query<{ kind: string; status: string; request_key: string }>(
          'SELECT kind, status, request_key FROM authorization_operations WHERE payment_intent_id = $1 ORDER BY created_at',
          [id],
        )
      ).rows.map((r) => [r.kind, r.status, r.request_key]);
    const storedKeys = async (key: string) =>
      (
        await svc.ctx.db.query(
          'SELECT 1 FROM idempotency_keys WHERE merchant_id = $1 AND idempotency_key = $2',
          [merchant.id, key],
        )
      ).rows.length;
    const intentRecord = async (id: string) => {
      const found = await findPaymentIntent(svc.ctx.db, scope(), id);
      assert.ok(found);
      return found;
    };
    /** Whether the domain would capture `requested` of the intent as it is now. */
    const domainAccepts = async (id: string, requested: number | null) => {
      try {
        captureAmountFor(await intentRecord(id), requested ?? undefined, svc.clock.now());
        return true;
      } catch {
        return false;
      }
    };

    it('the first statement starts a capture exactly where the domain accepts one, and writes nothing elsewhere', async () => {
      const cases: { name: string; prepare: () => Promise<{ id: string; requested: number | null }> }[] = [
        ...paymentIntentStatuses.map((status) => ({
          name: `status ${status}`,
          prepare: async () => {
            const intent = await authorised();
            await svc.ctx.db.query('UPDATE payment_intents SET status = $2 WHERE id = $1', [
              intent.id,
              status,
            ]);
            return { id: intent.id, requested: null };
          },
        })),
        {
          name: 'an automatic intent',
          prepare: async () => {
            const intent = await authorised();
            await svc.ctx.db.query(`UPDATE payment_intents SET capture_method = 'automatic' WHERE id = $1`, [
              intent.id,
            ]);
            return { id: intent.id, requested: null };
          },
        },
        {
          name: 'a lapsed authorisation',
          prepare: async () => {
            const intent = await authorised();
            await svc.ctx.db.query('UPDATE payment_intents SET capture_before = $2 WHERE id = $1', [
              intent.id,
              new Date(svc.clock.now().getTime() - 1000),
            ]);
            return { id: intent.id, requested: null };
          },
        },
        ...[1, 2499, 2500, 2501].map((requested) => ({
          name: `${requested} of 2500`,
          prepare: async () => ({ id: (await authorised({ amount_minor: 2500 })).id, requested }),
        })),
      ];
      for (const c of cases) {
        const { id, requested } = await c.prepare();
        const accepts = await domainAccepts(id, requested);
        const before = await intentRecord(id);
        const started = await start(id, `first-${id}`, requested);
        assert.equal(started !== null, accepts, c.name);
        if (started) {
          assert.equal(started.intent.version, before.version, c.name);
          assert.equal(started.operation.amountMinor, requested ?? before.amountMinor, c.name);
          assert.equal(started.operation.gatewayIdempotencyKey, `${id}:attempt:1:capture:1`, c.name);
          assert.deepEqual(await operationsOf(id), [['capture', 'PENDING', `first-${id}`]], c.name);
        } else {
          assert.deepEqual(await operationsOf(id), [], c.name);
          assert.deepEqual(await intentRecord(id), before, c.name);
        }
      }
    });

    it("the first statement leaves the key's own cases to the general path: a stored answer, a key in use, a capture in flight", async () => {
      const replayed = await authorised();
      assert.equal(
        (await capture(replayed.id, `again-${replayed.id}`, { amount_minor: 100 })).statusCode,
        200,
      );
      assert.equal(
        await start(replayed.id, `again-${replayed.id}`),
        null,
        'an answer is stored under the key',
      );

      const inFlight = await authorised();
      assert.ok(await start(inFlight.id, `one-${inFlight.id}`));
      assert.equal(await start(inFlight.id, `one-${inFlight.id}`), null, 'the key started a capture already');
      assert.equal(await start(inFlight.id, `two-${inFlight.id}`), null, 'another capture is in flight');
      assert.deepEqual(await operationsOf(inFlight.id), [['capture', 'PENDING', `one-${inFlight.id}`]]);
      // The general path answers them as it always did.
      const again = await capture(inFlight.id, `two-${inFlight.id}`);
      assert.equal(again.statusCode, 409, again.body);
      assert.equal(again.json().code, 'invalid_state_transition');
    });

    it('the last statement writes nothing when the intent or the capture moved on, and the general path finishes it', async () => {
      const sim = svc.ctx.gateways.get('sim');
      assert.ok(sim?.capture);
      const original = sim.capture;
      for (const moved of ['the intent', 'the capture'] as const) {
        const intent = await authorised();
        const key = `moved-${intent.id}`;
        // While the gateway captures, the intent changes (its version), or a notification settles
        // the capture: the outcome statement, decided on the rows as phase 1 left them, refuses.
        sim.capture = async (request) => {
          const answer = await original.call(sim, request);
          if (moved === 'the intent') {
            await svc.ctx.db.query('UPDATE payment_intents SET version = version + 1 WHERE id = $1', [
              intent.id,
            ]);
          } else {
            // The gateway's notification of the capture arrives before its answer.
            const { rows } = await svc.ctx.db.query<{ id: string }>(
              'SELECT id FROM authorization_operations WHERE payment_intent_id = $1',
              [intent.id],
            );
            const operation = { id: String(rows[0]?.id), paymentIntentId: intent.id };
            await svc.ctx.db.transaction((tx) =>
              applyAuthorizationOutcome(svc.ctx, tx, operation, answer, 'repair'),
            );
          }
          return answer;
        };
        let sent: Sent[];
        try {
          sent = await recordStatements(() =>
            capture(intent.id, key).then((r) => assert.equal(r.statusCode, 200, r.body)),
          );
        } finally {
          sim.capture = original;
        }
        if (kind === 'postgres') {
          // Counted at node-postgres: the two statements, then the general finish's transaction.
          const names = sent.map((s) => s.sql.slice(0, 40));
          const finish = names.findIndex((name) => name.startsWith('SELECT paygate_capture_finish'));
          assert.ok(finish > 0, `${moved}: ${JSON.stringify(names)}`);
          assert.ok(
            names.slice(finish).includes('BEGIN'),
            `${moved}: the general finish ran (${JSON.stringify(names)})`,
          );
        }
        const captured = await pay.retrieve(intent.id);
        assert.equal(captured.status, 'SUCCEEDED', moved);
        assert.deepEqual(await pay.paymentTransactions(intent.id), ['APPROVED'], moved);
        assert.deepEqual(await operationsOf(intent.id), [['capture', 'SUCCEEDED', key]], moved);
        assert.equal(await storedKeys(key), 1, moved);
        const events = (await pay.eventTypes(intent.id)).filter((t) => t === 'payment_intent.succeeded');
        assert.deepEqual(events, ['payment_intent.succeeded'], `${moved}: one event`);
      }
    });

    it('the last statement is all or nothing: an operation settled meanwhile leaves intent, books and key as they were', async () => {
      const intent = await authorised();
      const key = `settled-${intent.id}`;
      const started = await start(intent.id, key);
      assert.ok(started);
      await svc.ctx.db.query(`UPDATE authorization_operations SET status = 'FAILED' WHERE id = $1`, [
        started.operation.id,
      ]);
      const { change } = capturedStep(
        started.intent,
        started.operation,
        { kind: 'succeeded', gatewayReference: 'cap_1' },
        svc.clock.now(),
      );
      const written = paymentChangeOf(change);
      assert.ok(written);
      const now = svc.clock.now();
      const finished = await finishCaptureInOneStatement(svc.ctx.db, {
        operationId: started.operation.id,
        gatewayReference: 'cap_1',
        change: written,
        scope: scope(),
        answer: {
          lockId: 1n,
          key,
          requestMethod: 'POST',
          requestPath: `/v1/payment-intents/${intent.id}/capture`,
          requestHash: 'h',
          responseStatus: 200,
          responseBody: '{}',
          expiresAt: new Date(now.getTime() + 86_400_000),
        },
      });
      assert.equal(finished, false);
      assert.equal((await pay.retrieve(intent.id)).status, 'REQUIRES_CAPTURE');
      assert.deepEqual(await pay.paymentTransactions(intent.id), ['PENDING']);
      assert.equal(await storedKeys(key), 0);
      assert.ok(!(await pay.eventTypes(intent.id)).includes('payment_intent.succeeded'));
    });
  });
}
