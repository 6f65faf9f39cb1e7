// Authorise now, capture later (issue 43; CONTRACT.md "Additions of contract v1, second round"):
// a manual intent on the simulated gateway, over the real HTTP API, on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  OPERATION_LEASE_SECONDS,
  repairAuthorizationOperations,
  sendAuthorizationOperation,
  startAuthorizationOperation,
} from '../src/app/captures/authorization-operations.ts';
import { lapseDueAuthorizations } from '../src/app/captures/lapse-authorizations.ts';
import { reconcileWithGateways } from '../src/app/gateways/reconcile-with-gateway.ts';
import { requestHash } from '../src/app/idempotent-phases.ts';
import { findPaymentIntent } from '../src/storage/repositories/payment-intents.ts';
import { databaseKinds } from './support/databases.ts';
import { type PaymentHelpers, paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`capture later (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Shop that ships first');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc?.close());

    it('a manual intent confirmed with an approving token is REQUIRES_CAPTURE: capturable, with its deadline and event', async () => {
      const created = await pay.create({ amount_minor: 10_000, capture_method: 'manual' });
      assert.equal(created.capture_method, 'manual');
      assert.equal(created.amount_capturable_minor, 0);
      const confirmed = await pay.confirm(created.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const intent = confirmed.json();
      assert.equal(intent.status, 'REQUIRES_CAPTURE');
      assert.equal(intent.amount_capturable_minor, 10_000);
      assert.equal(intent.amount_captured_minor, 0);
      const deadline = Date.parse(intent.capture_before) - svc.clock.now().getTime();
      assert.ok(deadline > 6 * 86_400_000 && deadline <= 7 * 86_400_000, intent.capture_before);
      assert.deepEqual(await pay.eventTypes(created.id), ['payment_intent.requires_capture']);
      assert.deepEqual(await pay.paymentTransactions(created.id), ['PENDING']);
      const read = await pay.retrieve(created.id);
      assert.equal(read.capture_before, intent.capture_before);
      assert.equal(read.version, intent.version);
    });

    it('an automatic intent reads capture_method automatic and, once paid, amount_captured_minor its amount', async () => {
      const created = await pay.create({ amount_minor: 4_200 });
      assert.equal(created.capture_method, 'automatic');
      const paid = (await pay.confirm(created.id, { payment_method_token: 'tok_sim_approve' })).json();
      assert.equal(paid.status, 'SUCCEEDED');
      assert.equal(paid.amount_captured_minor, 4_200);
      assert.equal(paid.amount_capturable_minor, 0);
      assert.equal(paid.capture_before, null);
    });

    it('refuses a capture_method that is neither automatic nor manual, naming the field', async () => {
      const response = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('pi') },
        body: { amount_minor: 2500, currency: 'USD', gateway_id: 'sim', capture_method: 'later' },
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'validation_error');
      assert.match(JSON.stringify(response.json().errors), /capture_method/);
    });

    const authorised = async (amountMinor = 10_000) => {
      const created = await pay.create({ amount_minor: amountMinor, capture_method: 'manual' });
      const confirmed = await pay.confirm(created.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().status, 'REQUIRES_CAPTURE', confirmed.body);
      return created.id as string;
    };
    const capture = (id: string, body: Record<string, unknown> = {}, key = freshKey('cap'), as = merchant) =>
      svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/capture`,
        key: as.secretTest,
        headers: { 'idempotency-key': key },
        body,
      });

    it('captures all of it: SUCCEEDED, amount_captured_minor, PAYMENT APPROVED, one succeeded event', async () => {
      const id = await authorised(10_000);
      const captured = await capture(id);
      assert.equal(captured.statusCode, 200, captured.body);
      const intent = captured.json();
      assert.equal(intent.status, 'SUCCEEDED');
      assert.equal(intent.amount_captured_minor, 10_000);
      assert.equal(intent.amount_capturable_minor, 0);
      assert.equal(intent.capture_before, null);
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_capture',
        'payment_intent.succeeded',
      ]);
      const { rows } = await svc.ctx.db.query<{ status: string; amount_minor: string }>(
        "SELECT status, amount_minor FROM transactions WHERE payment_intent_id = $1 AND type = 'PAYMENT'",
        [id],
      );
      assert.deepEqual(
        rows.map((r) => [r.status, Number(r.amount_minor)]),
        [['APPROVED', 10_000]],
      );
    });

    it('captures part of it: the rest is released, and refunds take at most what was captured', async () => {
      const id = await authorised(10_000);
      const captured = await capture(id, { amount_minor: 6_000 });
      assert.equal(captured.statusCode, 200, captured.body);
      assert.equal(captured.json().amount_captured_minor, 6_000);
      const { rows } = await svc.ctx.db.query<{ amount_minor: string }>(
        "SELECT amount_minor FROM transactions WHERE payment_intent_id = $1 AND type = 'PAYMENT'",
        [id],
      );
      assert.equal(Number(rows[0]?.amount_minor), 6_000);
      const tooMuch = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('re') },
        body: { payment_intent_id: id, amount_minor: 6_001 },
      });
      assert.equal(tooMuch.statusCode, 422, tooMuch.body);
      assert.equal(tooMuch.json().code, 'amount_exceeds_refundable');
      const all = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey('re') },
        body: { payment_intent_id: id },
      });
      assert.equal(all.statusCode, 200, all.body);
      assert.equal(all.json().amount_minor, 6_000);
    });

    it('replays a capture byte for byte under its Idempotency-Key, and captures once', async () => {
      const id = await authorised(3_000);
      const key = freshKey('cap');
      const first = await capture(id, { amount_minor: 2_000 }, key);
      const again = await capture(id, { amount_minor: 2_000 }, key);
      assert.equal(again.statusCode, first.statusCode);
      assert.equal(again.body, first.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const other = await capture(id, { amount_minor: 1_000 }, key);
      assert.equal(other.statusCode, 409);
      assert.equal(other.json().code, 'idempotency_key_reuse');
    });

    it('refuses each bad capture with its own problem, sends nothing and changes nothing', async () => {
      const id = await authorised(5_000);
      const before = await pay.retrieve(id);
      const over = await capture(id, { amount_minor: 5_001 });
      assert.equal(over.statusCode, 422, over.body);
      assert.equal(over.json().code, 'amount_exceeds_capturable');
      assert.match(JSON.stringify(over.json().errors), /amount_minor/);
      for (const amount of [0, -5, 1.5]) {
        const bad = await capture(id, { amount_minor: amount });
        assert.equal(bad.statusCode, 400, `${amount}: ${bad.body}`);
        assert.equal(bad.json().code, 'validation_error');
      }
      const noKey = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/capture`,
        key: merchant.secretTest,
        body: {},
      });
      assert.equal(noKey.statusCode, 400, noKey.body);
      const stranger = await svc.createMerchant('Someone else');
      const foreign = await capture(id, {}, freshKey('cap'), stranger);
      assert.equal(foreign.statusCode, 404, foreign.body);
      const automatic = await pay.create({ amount_minor: 2_000 });
      await pay.confirm(automatic.id, { payment_method_token: 'tok_sim_approve' });
      const ofAutomatic = await capture(automatic.id);
      assert.equal(ofAutomatic.statusCode, 409, ofAutomatic.body);
      assert.match(ofAutomatic.json().detail, /automatic/);
      const unconfirmed = await pay.create({ amount_minor: 2_000, capture_method: 'manual' });
      const early = await capture(unconfirmed.id);
      assert.equal(early.statusCode, 409, early.body);
      assert.equal(early.json().code, 'invalid_state_transition');
      const after = await pay.retrieve(id);
      assert.deepEqual(after, before, 'nothing changed');
      const { rows } = await svc.ctx.db.query(
        'SELECT 1 FROM authorization_operations WHERE payment_intent_id = $1',
        [id],
      );
      assert.equal(rows.length, 0, 'nothing was sent');
      assert.equal((await capture(id)).json().status, 'SUCCEEDED', 'and a good capture still works');
      const twice = await capture(id);
      assert.equal(twice.statusCode, 409, twice.body);
    });

    it('a capture the gateway refuses leaves the intent REQUIRES_CAPTURE with last_payment_error, and answers 402', async () => {
      const id = await authorised(10_000);
      const refused = await capture(id, { amount_minor: 5_099 });
      assert.equal(refused.statusCode, 402, refused.body);
      assert.equal(refused.json().code, 'gateway_rejected');
      const intent = refused.json().payment_intent;
      assert.equal(intent.status, 'REQUIRES_CAPTURE');
      assert.equal(intent.amount_capturable_minor, 10_000);
      assert.match(intent.last_payment_error.message, /refused the capture/);
      assert.equal(
        (await capture(id, { amount_minor: 5_000 })).json().status,
        'SUCCEEDED',
        'a new capture may follow',
      );
    });

    it('two concurrent captures of one intent give one capture and one 409', async () => {
      const id = await authorised(8_000);
      const answers = await Promise.all([capture(id), capture(id)]);
      const statuses = answers.map((a) => a.statusCode).sort();
      assert.deepEqual(statuses, [200, 409], answers.map((a) => a.body).join('\n'));
      const { rows } = await svc.ctx.db.query<{ status: string }>(
        'SELECT status FROM authorization_operations WHERE payment_intent_id = $1',
        [id],
      );
      assert.deepEqual(
        rows.map((r) => r.status),
        ['SUCCEEDED'],
      );
    });

    it('cancel of a REQUIRES_CAPTURE intent voids it at the gateway: CANCELED (requested), PAYMENT DECLINED', async () => {
      const id = await authorised(7_000);
      const canceled = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/cancel`,
        key: merchant.secretTest,
        body: {},
      });
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.equal(canceled.json().status, 'CANCELED');
      assert.equal(canceled.json().cancellation_reason, 'requested');
      assert.equal(canceled.json().amount_capturable_minor, 0);
      assert.deepEqual(await pay.paymentTransactions(id), ['DECLINED']);
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_capture',
        'payment_intent.canceled',
      ]);
      const late = await capture(id);
      assert.equal(late.statusCode, 409, late.body);
      const gateway = await svc.ctx.db.query<{ kind: string; status: string }>(
        'SELECT kind, status FROM authorization_operations WHERE payment_intent_id = $1',
        [id],
      );
      assert.deepEqual(gateway.rows, [{ kind: 'void', status: 'SUCCEEDED' }]);
    });

    it("reconciliation finds the sim's books and Paygate's agree on every authorisation: held, captured in part, voided", async () => {
      const held = await authorised(3_300);
      const partial = await authorised(4_400);
      assert.equal((await capture(partial, { amount_minor: 1_100 })).json().status, 'SUCCEEDED');
      const voided = await authorised(5_500);
      await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${voided}/cancel`,
        key: merchant.secretTest,
        body: {},
      });
      const report = await reconcileWithGateways(svc.ctx, {
        from: new Date(svc.clock.now().getTime() - 3_600_000),
        to: new Date(svc.clock.now().getTime() + 1000),
        repair: false,
      });
      const mine = report.differences.filter((d) => [held, partial, voided].includes(d.paygateId ?? ''));
      assert.deepEqual(mine, []);
    });
  });

  describe(`capture later: time-outs, repair and lapse (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      // A short gateway time-out, so that a withheld capture answer becomes a time-out quickly.
      svc = await startTestService(kind, { gatewayTimeoutMs: 1000 });
      merchant = await svc.createMerchant('Shop with a slow gateway');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc?.close());

    const authorised = async (amountMinor: number) => {
      const created = await pay.create({ amount_minor: amountMinor, capture_method: 'manual' });
      const confirmed = await pay.confirm(created.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().status, 'REQUIRES_CAPTURE', confirmed.body);
      return created.id as string;
    };
    const capture = (id: string, body: Record<string, unknown> = {}, key = freshKey('cap')) =>
      svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/capture`,
        key: merchant.secretTest,
        headers: { 'idempotency-key': key },
        body,
      });

    it('a capture whose answer is lost reads PROCESSING, and the repair job finishes it with the same key, once', async () => {
      const id = await authorised(9_000);
      const key = freshKey('cap');
      const lost = await capture(id, { amount_minor: 5_013 }, key);
      assert.equal(lost.statusCode, 200, lost.body);
      assert.equal(lost.json().status, 'PROCESSING', 'the capture may have happened: not REQUIRES_CAPTURE');
      assert.equal((await pay.retrieve(id)).status, 'PROCESSING');
      const second = await capture(id);
      assert.equal(second.statusCode, 409, 'no second capture while the first is unknown');
      const cancel = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/cancel`,
        key: merchant.secretTest,
        body: {},
      });
      assert.equal(cancel.statusCode, 409, 'nor a void');
      assert.equal(await repairAuthorizationOperations(svc.ctx), 0, 'its lease still runs');
      svc.clock.advance(OPERATION_LEASE_SECONDS + 1);
      assert.equal(await repairAuthorizationOperations(svc.ctx), 1);
      const intent = await pay.retrieve(id);
      assert.equal(intent.status, 'SUCCEEDED');
      assert.equal(intent.amount_captured_minor, 5_013);
      const { rows } = await svc.ctx.db.query<{ gateway_idempotency_key: string; status: string }>(
        'SELECT gateway_idempotency_key, status FROM authorization_operations WHERE payment_intent_id = $1',
        [id],
      );
      assert.equal(rows.length, 1, 'one capture, sent twice with one key');
      assert.equal(rows[0]?.status, 'SUCCEEDED');
      const chargeKey = rows[0]?.gateway_idempotency_key.replace(/:capture:1$/, '') ?? '';
      const charge = await fetch(
        `${svc.sim.url}/v1/charges?idempotency_key=${encodeURIComponent(chargeKey)}`,
        {
          headers: { authorization: `Bearer ${svc.simApiSecret}` },
        },
      );
      const gateway = (await charge.json()) as { status: string; amount_captured_minor: number };
      assert.deepEqual(
        [gateway.status, gateway.amount_captured_minor],
        ['succeeded', 5_013],
        'the gateway captured once',
      );
      const replayed = await capture(id, { amount_minor: 5_013 }, key);
      assert.equal(replayed.body, lost.body, "the key's stored answer is replayed");
    });

    /** Phase 1 of a capture as the route runs it (the merchant's key and hash), committed: a crash point. */
    async function startCommittedCapture(id: string, body: { amount_minor: number }, key: string) {
      return svc.ctx.db.transaction(async (tx) => {
        const intent = await findPaymentIntent(tx, { merchantId: merchant.id, livemode: false }, id, {
          forUpdate: true,
        });
        assert.ok(intent);
        const hash = requestHash('POST', `/v1/payment-intents/${id}/capture`, body);
        return startAuthorizationOperation(
          tx,
          intent,
          'capture',
          body.amount_minor,
          { key, hash },
          svc.clock.now(),
        );
      });
    }
    const gatewayCaptured = async (id: string) => {
      const { rows } = await svc.ctx.db.query<{ gateway_idempotency_key: string }>(
        'SELECT gateway_idempotency_key FROM authorization_operations WHERE payment_intent_id = $1',
        [id],
      );
      const chargeKey = rows[0]?.gateway_idempotency_key.replace(/:capture:1$/, '') ?? '';
      const charge = await fetch(
        `${svc.sim.url}/v1/charges?idempotency_key=${encodeURIComponent(chargeKey)}`,
        {
          headers: { authorization: `Bearer ${svc.simApiSecret}` },
        },
      );
      return ((await charge.json()) as { amount_captured_minor: number }).amount_captured_minor;
    };

    it('a capture interrupted before the gateway call is in flight for its lease; the merchant’s retry then sends it once', async () => {
      const id = await authorised(8_000);
      const key = freshKey('cap-crash');
      const started = await startCommittedCapture(id, { amount_minor: 6_000 }, key);
      // The process dies before phase 2: the gateway never heard of it.
      assert.equal((await pay.retrieve(id)).status, 'PROCESSING');
      const early = await capture(id, { amount_minor: 6_000 }, key);
      assert.equal(early.statusCode, 409, early.body);
      assert.equal(early.json().code, 'idempotency_key_in_flight');
      const reuse = await capture(id, { amount_minor: 5_000 }, key);
      assert.equal(reuse.json().code, 'idempotency_key_reuse', 'another body under the key is refused');
      const other = await capture(id, { amount_minor: 6_000 });
      assert.equal(other.statusCode, 409, 'no second capture beside the interrupted one');

      svc.clock.advance(OPERATION_LEASE_SECONDS + 1);
      const retry = await capture(id, { amount_minor: 6_000 }, key);
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.json().status, 'SUCCEEDED');
      assert.equal(retry.json().amount_captured_minor, 6_000);
      const { rows } = await svc.ctx.db.query<{ id: string; status: string }>(
        'SELECT id, status FROM authorization_operations WHERE payment_intent_id = $1',
        [id],
      );
      assert.deepEqual(
        rows,
        [{ id: started.operation.id, status: 'SUCCEEDED' }],
        'the retry finished the same capture',
      );
      assert.equal(await gatewayCaptured(id), 6_000);
      const replayed = await capture(id, { amount_minor: 6_000 }, key);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(replayed.body, retry.body);
      assert.equal(await repairAuthorizationOperations(svc.ctx), 0, 'nothing left to repair');
    });

    it('a capture the gateway made before the process died is finished by the repair job; the retry answers it', async () => {
      const id = await authorised(7_000);
      const key = freshKey('cap-crash');
      const started = await startCommittedCapture(id, { amount_minor: 7_000 }, key);
      const outcome = await sendAuthorizationOperation(svc.ctx, started);
      assert.equal(outcome.kind, 'succeeded');
      // The process dies here: phase 3 never runs.
      assert.equal(
        (await pay.retrieve(id)).status,
        'PROCESSING',
        'never REQUIRES_CAPTURE once it may be captured',
      );
      assert.equal(await gatewayCaptured(id), 7_000);
      svc.clock.advance(OPERATION_LEASE_SECONDS + 1);
      assert.equal(await repairAuthorizationOperations(svc.ctx), 1);
      const intent = await pay.retrieve(id);
      assert.equal(intent.status, 'SUCCEEDED');
      assert.equal(intent.amount_captured_minor, 7_000);
      assert.deepEqual(await pay.paymentTransactions(id), ['APPROVED']);
      const retry = await capture(id, { amount_minor: 7_000 }, key);
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(
        retry.json().status,
        'SUCCEEDED',
        'the retry answers the finished capture, sending nothing',
      );
      assert.equal(await gatewayCaptured(id), 7_000, 'captured once at the gateway');
      assert.deepEqual(
        (await pay.eventTypes(id)).filter((type) => type === 'payment_intent.succeeded'),
        ['payment_intent.succeeded'],
      );
    });

    it('an authorisation past capture_before cannot be captured, and lapses to CANCELED (authorization_expired)', async () => {
      const id = await authorised(4_000);
      svc.clock.advance(7 * 24 * 60 * 60 + 1);
      const late = await capture(id);
      assert.equal(late.statusCode, 409, late.body);
      assert.match(late.json().detail, /lapsed/);
      assert.ok((await lapseDueAuthorizations(svc.ctx, 50)) >= 1);
      const intent = await pay.retrieve(id);
      assert.equal(intent.status, 'CANCELED');
      assert.equal(intent.cancellation_reason, 'authorization_expired');
      assert.equal(intent.capture_before, null);
      assert.deepEqual(await pay.paymentTransactions(id), ['DECLINED']);
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_capture',
        'payment_intent.canceled',
      ]);
    });
  });
}
