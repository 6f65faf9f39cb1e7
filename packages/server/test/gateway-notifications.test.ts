import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseKinds } from './support/databases.ts';
import {
  chargeNotification,
  type IntentJson,
  type PaymentHelpers,
  paymentHelpers,
} from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`gateway notifications (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let pay: PaymentHelpers;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Notified shop');
      pay = paymentHelpers(svc, () => merchant);
    });
    after(() => svc.close());

    /** Everything over real sockets, as a merchant server and a payer's browser would do it. */
    async function challengeOverHttp(decision: 'approve' | 'decline') {
      const headers = { 'x-api-key': merchant.secretTest, 'content-type': 'application/json' };
      const created = await fetch(`${svc.baseUrl}/v1/payment-intents`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': freshKey(`challenge-${decision}`) },
        body: JSON.stringify({
          amount_minor: 4200,
          currency: 'EUR',
          gateway_id: 'sim',
          return_url: 'https://shop.test/return?order=7',
        }),
      });
      const intent = (await created.json()) as IntentJson;
      const confirmed = await fetch(`${svc.baseUrl}/v1/payment-intents/${intent.id}/confirm`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ payment_method_token: 'tok_sim_challenge' }),
      });
      assert.equal(confirmed.status, 200);
      const waiting = (await confirmed.json()) as IntentJson;
      assert.equal(waiting.status, 'REQUIRES_ACTION');
      assert.ok(waiting.redirect_url);

      const page = await fetch(waiting.redirect_url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<form/i);
      const answered = await fetch(waiting.redirect_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ decision }).toString(),
        redirect: 'manual',
      });
      assert.equal(answered.status, 303);
      assert.equal(
        answered.headers.get('location'),
        `https://shop.test/return?order=7&payment_intent=${intent.id}`,
      );
      await svc.sim.idle();
      return intent.id;
    }

    it('refunds a payment that succeeded through the challenge (the notification recorded the charge)', async () => {
      const id = await challengeOverHttp('approve');
      const refund = await fetch(`${svc.baseUrl}/v1/refunds`, {
        method: 'POST',
        headers: {
          'x-api-key': merchant.secretTest,
          'content-type': 'application/json',
          'idempotency-key': `refund-after-challenge-${id}`,
        },
        body: JSON.stringify({ payment_intent_id: id, amount_minor: 1000 }),
      });
      assert.equal(refund.status, 200, await refund.clone().text());
      const body = (await refund.json()) as { status: string; amount_minor: number };
      assert.equal(body.status, 'SUCCEEDED');
      assert.equal(body.amount_minor, 1000);
      assert.equal((await pay.retrieve(id)).amount_refunded_minor, 1000);
    });

    it('runs the challenge flow end to end: approve on the gateway page, the notification settles SUCCEEDED once', async () => {
      const id = await challengeOverHttp('approve');
      const notice = svc.sim.notifications().at(-1);
      assert.equal(notice?.state, 'delivered');
      assert.equal(notice?.attempts, 1);
      const read = await fetch(`${svc.baseUrl}/v1/payment-intents/${id}`, {
        headers: { 'x-api-key': merchant.secretTest },
      });
      const intent = (await read.json()) as IntentJson;
      assert.equal(intent.status, 'SUCCEEDED');
      assert.equal(intent.redirect_url, null);
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_action',
        'payment_intent.succeeded',
      ]);
      assert.deepEqual(await pay.paymentTransactions(id), ['APPROVED']);
      assert.equal((await pay.attempts(id))[0]?.status, 'SUCCEEDED');
    });

    it('settles FAILED when the payer declines on the gateway page', async () => {
      const id = await challengeOverHttp('decline');
      assert.equal((await pay.retrieve(id)).status, 'FAILED');
      assert.deepEqual(await pay.eventTypes(id), ['payment_intent.requires_action', 'payment_intent.failed']);
      assert.deepEqual(await pay.paymentTransactions(id), ['DECLINED']);
    });

    /** An intent in REQUIRES_ACTION and what its charge looks like at the gateway. */
    async function waitingForPayer() {
      const intent = await pay.create();
      const response = await pay.confirm(intent.id, { payment_method_token: 'tok_sim_challenge' });
      assert.equal(response.json().status, 'REQUIRES_ACTION');
      const [attempt] = await pay.attempts(intent.id);
      assert.ok(attempt?.gatewayReference);
      return {
        id: intent.id,
        charge: (status: string, failureCode?: string) =>
          chargeNotification({
            idempotencyKey: attempt.idempotencyKey,
            gatewayReference: attempt.gatewayReference ?? '',
            status,
            ...(failureCode ? { failureCode } : {}),
          }),
      };
    }

    it('applies a redelivered notification once: the repeat answers 200 and changes nothing', async () => {
      const { id, charge } = await waitingForPayer();
      const body = charge('succeeded');
      const first = await pay.notify(body);
      assert.equal(first.statusCode, 200);
      assert.deepEqual(first.json(), { received: true, duplicate: false });
      for (let i = 0; i < 3; i++) {
        const again = await pay.notify(body);
        assert.equal(again.statusCode, 200);
        assert.equal(again.json().duplicate, true);
      }
      assert.equal((await pay.retrieve(id)).status, 'SUCCEEDED');
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_action',
        'payment_intent.succeeded',
      ]);
    });

    it('applies concurrent deliveries of one notification once', async () => {
      const { id, charge } = await waitingForPayer();
      const body = charge('succeeded');
      const responses = await Promise.all(Array.from({ length: 8 }, () => pay.notify(body)));
      assert.deepEqual(
        responses.map((r) => r.statusCode),
        Array<number>(8).fill(200),
      );
      assert.equal(responses.filter((r) => r.json().duplicate === false).length, 1);
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_action',
        'payment_intent.succeeded',
      ]);
    });

    it('ignores late and out-of-order notifications: one terminal state, one event per transition', async () => {
      const { id, charge } = await waitingForPayer();
      const late = [charge('failed', 'card_declined'), charge('requires_action'), charge('succeeded')];
      assert.equal((await pay.notify(charge('succeeded'))).statusCode, 200);
      for (const body of late) {
        const response = await pay.notify(body);
        assert.equal(response.statusCode, 200);
        assert.equal(response.json().duplicate, false);
      }
      assert.equal((await pay.retrieve(id)).status, 'SUCCEEDED');
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_action',
        'payment_intent.succeeded',
      ]);
      assert.deepEqual(await pay.paymentTransactions(id), ['APPROVED']);
    });

    it('moves a waiting intent through PROCESSING on a pending notification, then settles it', async () => {
      const { id, charge } = await waitingForPayer();
      await pay.notify(charge('pending'));
      assert.equal((await pay.retrieve(id)).status, 'PROCESSING');
      await pay.notify(charge('failed', 'card_declined'));
      await pay.notify(charge('pending'));
      assert.equal((await pay.retrieve(id)).status, 'FAILED');
      assert.deepEqual(await pay.eventTypes(id), ['payment_intent.requires_action', 'payment_intent.failed']);
      assert.equal((await pay.attempts(id))[0]?.failureCode, 'card_declined');
    });

    it('leaves a canceled intent canceled when the payer approves afterwards, booking the late capture', async () => {
      const { id, charge } = await waitingForPayer();
      const canceled = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${id}/cancel`,
        key: merchant.secretTest,
      });
      assert.equal(canceled.json().status, 'CANCELED');
      assert.equal((await pay.attempts(id))[0]?.status, 'ABANDONED');
      assert.deepEqual(await pay.paymentTransactions(id), ['DECLINED']);
      assert.equal((await pay.notify(charge('succeeded'))).statusCode, 200);
      assert.equal((await pay.retrieve(id)).status, 'CANCELED');
      // The gateway took the money after the cancel: the books show the capture (and its
      // automatic refund, test/late-captures.test.ts) and the merchant is told, but the intent
      // stays CANCELED (docs/decisions/money-safety.md).
      assert.deepEqual(await pay.paymentTransactions(id), ['APPROVED']);
      assert.deepEqual(await pay.eventTypes(id), [
        'payment_intent.requires_action',
        'payment_intent.canceled',
        'payment_intent.late_captured',
      ]);
    });

    /** Every row of the tables that hold money, state and what is sent to merchants. */
    async function businessRows() {
      const tables = [
        'payment_intents',
        'charge_attempts',
        'transactions',
        'refunds',
        'events',
        'webhook_deliveries',
      ];
      const snapshot: Record<string, unknown[]> = {};
      for (const table of tables) {
        snapshot[table] = (await svc.database.db.query(`SELECT * FROM ${table} ORDER BY 1`)).rows;
      }
      return snapshot;
    }

    it('answers 200 to a notification about a charge it does not know, changing nothing', async () => {
      // Something to leave untouched: an intent waiting at the gateway, with its attempt.
      await waitingForPayer();
      const before = await businessRows();
      assert.ok((before.payment_intents?.length ?? 0) > 0 && (before.charge_attempts?.length ?? 0) > 0);
      const body = chargeNotification({
        idempotencyKey: 'pi_000000000000000000000000:attempt:1',
        gatewayReference: 'ch_unknown',
        status: 'succeeded',
      });
      assert.equal((await pay.notify(body)).statusCode, 200);
      assert.deepEqual(await businessRows(), before);
    });

    it('verifies the signature on the exact bytes received', async () => {
      const { id, charge } = await waitingForPayer();
      // Spacing that a parse-and-serialise round trip would lose: the signature covers these bytes.
      const spaced = charge('succeeded').replace(/,"/g, ',   "').replace('{', '{\n  ');
      const response = await pay.notify(spaced);
      assert.equal(response.statusCode, 200);
      assert.equal((await pay.retrieve(id)).status, 'SUCCEEDED');
    });

    it('refuses a bad signature with 401 invalid_webhook_signature and changes nothing', async () => {
      const { id, charge } = await waitingForPayer();
      const body = charge('succeeded');
      const cases = [
        await pay.notify(body, { secret: 'not-the-secret' }),
        await pay.notify(body, { timestamp: Math.floor(svc.clock.now().getTime() / 1000) - 301 }),
        await svc.app.inject({
          method: 'POST',
          url: '/gateway-notifications/sim',
          headers: { 'content-type': 'application/json' },
          payload: body,
        }),
        await pay.notify(body, { sentBody: `${body} ` }),
      ];
      for (const response of cases) {
        assert.equal(response.statusCode, 401);
        assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
        assert.equal(response.json().code, 'invalid_webhook_signature');
      }
      assert.equal((await pay.retrieve(id)).status, 'REQUIRES_ACTION');
      // A refused notification is not recorded: the genuine one still applies.
      assert.equal((await pay.notify(body)).json().duplicate, false);
      assert.equal((await pay.retrieve(id)).status, 'SUCCEEDED');
    });

    it('answers 404 for a gateway it does not have', async () => {
      const response = await svc.app.inject({
        method: 'POST',
        url: '/gateway-notifications/nope',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, 'resource_not_found');
    });
  });
}
