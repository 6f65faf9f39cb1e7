// Reconciliation with each real gateway, per merchant gateway account (issue 31, item 6): Stripe's
// books are its list API (payment intents and refunds by `created`, page by page), Adyen's its
// settlement details reports (CSV per batch, basic auth). Against the Stripe and Adyen fakes, with
// the gateways' notifications lost (as when every process was down), on both databases: what the
// gateway decided while Paygate waits is repaired; what Paygate never made is reported.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  ADYEN_FAKE_REPORT_USER,
  ADYEN_TEST_TOKENS,
  type AdyenFake,
  STRIPE_TEST_PAYMENT_METHODS,
  type StripeFake,
  startAdyenFake,
  startStripeFake,
} from '@paygate/gateway-fakes';
import { readMerchantReconciliation } from '../src/app/gateways/read-reconciliation.ts';
import { reconcileWithGateways } from '../src/app/gateways/reconcile-with-gateway.ts';
import { ShiftedClock, systemClock } from '../src/clock.ts';
import { createGatewayHttpExecutor } from '../src/gateways/http-executor.ts';
import { readStripeBooks } from '../src/gateways/stripe/books.ts';
import { databaseKinds } from './support/databases.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

const STRIPE = { secretKey: 'sk_test_booksFake01', webhookSecret: 'whsec_booksFake01' };
const ADYEN = {
  apiKey: 'adyen_books_api_key',
  merchantAccount: 'BooksECOM',
  hmacKeyHex: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
};

type Row = [string, string, string | null, string | null, boolean];

for (const kind of databaseKinds()) {
  describe(`reconciliation with each merchant's Stripe and Adyen books (${kind})`, () => {
    let svc: TestService;
    let shop: MerchantKeys;
    let stripe: StripeFake;
    let adyen: AdyenFake;
    let windowStart: Date;

    const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      svc.request({ method, url, headers: { 'x-admin-token': ADMIN_TOKEN }, body });
    const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      svc.request({
        method,
        url,
        key: shop.secretTest,
        ...(method === 'POST' ? { headers: { 'idempotency-key': freshKey('b') } } : {}),
        body,
      });

    before(async () => {
      // No notification address: whatever the gateways report by notification is lost.
      stripe = await startStripeFake({ ...STRIPE, webhookUrl: null });
      adyen = await startAdyenFake({ ...ADYEN, notificationUrl: null });
      svc = await startTestService(kind, { clock: new ShiftedClock() });
      shop = await svc.createMerchant('Shop reconciling its own accounts');
      const added = [
        await admin('POST', `/admin/v1/merchants/${shop.id}/gateway-accounts`, {
          livemode: false,
          connector: 'stripe',
          gateway_id: 'stripe-books',
          credentials: { secret_key: STRIPE.secretKey, webhook_secret: STRIPE.webhookSecret },
          settings: { api_url: stripe.url },
        }),
        await admin('POST', `/admin/v1/merchants/${shop.id}/gateway-accounts`, {
          livemode: false,
          connector: 'adyen',
          gateway_id: 'adyen-books',
          credentials: {
            api_key: ADYEN.apiKey,
            hmac_key: ADYEN.hmacKeyHex,
            report_username: ADYEN_FAKE_REPORT_USER.username,
            report_password: ADYEN_FAKE_REPORT_USER.password,
          },
          settings: {
            merchant_account: ADYEN.merchantAccount,
            api_url: adyen.url,
            report_url: `${adyen.url}/reports/download/MerchantAccount/${ADYEN.merchantAccount}`,
          },
        }),
      ];
      for (const response of added) assert.equal(response.statusCode, 201, response.body);
    });
    after(async () => {
      await svc?.close();
      await stripe?.close();
      await adyen?.close();
    });
    beforeEach(async () => {
      // Each test's window starts at a whole second after everything the previous ones made (the
      // gateways count in whole seconds).
      const next = Math.floor(svc.clock.now().getTime() / 1000) * 1000 + 1000;
      await new Promise((resolve) => setTimeout(resolve, next - svc.clock.now().getTime() + 5));
      windowStart = new Date(next);
    });

    const reconcile = (repair: boolean) =>
      reconcileWithGateways(svc.ctx, {
        from: windowStart,
        to: new Date(svc.clock.now().getTime() + 2000),
        repair,
      });
    const rows = (report: Awaited<ReturnType<typeof reconcile>>, gatewayId: string): Row[] =>
      report.differences
        .filter((d) => d.gatewayId === gatewayId)
        .map((d) => [d.object, d.kind, d.paygateStatus, d.gatewayStatus, d.repaired]);

    async function confirmed(gatewayId: string, token: string, amountMinor = 5_000) {
      const created = await api('POST', '/v1/payment-intents', {
        amount_minor: amountMinor,
        currency: 'EUR',
        gateway_id: gatewayId,
        return_url: 'https://shop.example/back',
      });
      assert.equal(created.statusCode, 200, created.body);
      const answer = await api('POST', `/v1/payment-intents/${created.json().id}/confirm`, {
        payment_method_token: token,
      });
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json() as { id: string; status: string; redirect_url: string | null };
    }

    async function payerApprovesAtGateway(gatewayPage: string): Promise<void> {
      const answered = await fetch(gatewayPage, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      assert.ok(
        answered.status === 302 || answered.status === 303,
        `the gateway's page answered ${answered.status}`,
      );
    }

    const statusOf = async (url: string) => (await api('GET', url)).json().status as string;

    it('stripe: finds nothing when the list API agrees, and walks it page by page', async () => {
      const paid = await confirmed('stripe-books', STRIPE_TEST_PAYMENT_METHODS.approve);
      assert.equal(paid.status, 'SUCCEEDED');
      await confirmed('stripe-books', STRIPE_TEST_PAYMENT_METHODS.approve, 5_100);
      await confirmed('stripe-books', STRIPE_TEST_PAYMENT_METHODS.approve, 5_200);
      const report = await reconcile(true);
      assert.deepEqual(rows(report, 'stripe-books'), []);
      const compared = report.gateways.find((g) => g.gatewayId === 'stripe-books');
      assert.equal(compared?.charges, 3);
      assert.ok(compared?.gatewayAccountId?.startsWith('gwa_'));
      assert.equal(compared?.merchantId, shop.id);
      // Two to a page: the same three intents over two pages, none twice.
      const books = await readStripeBooks(
        createGatewayHttpExecutor({ gatewayId: 'stripe-books', clock: systemClock }),
        { baseUrl: stripe.url, secretKey: STRIPE.secretKey, defaultReturnUrl: 'https://shop.example' },
        { from: windowStart, to: new Date(svc.clock.now().getTime() + 2000) },
        2,
      );
      assert.equal(books.charges.length, 3);
      assert.equal(new Set(books.charges.map((c) => c.gatewayReference)).size, 3);
    });

    it('stripe: applies a challenge the payer passed and a refund Stripe made, both notifications lost', async () => {
      const waiting = await confirmed('stripe-books', STRIPE_TEST_PAYMENT_METHODS.challenge);
      assert.equal(waiting.status, 'REQUIRES_ACTION');
      assert.ok(waiting.redirect_url);
      await payerApprovesAtGateway(waiting.redirect_url);
      const paid = await confirmed('stripe-books', STRIPE_TEST_PAYMENT_METHODS.approve);
      const refund = (
        await api('POST', '/v1/refunds', { payment_intent_id: paid.id, amount_minor: 1_000 })
      ).json();
      assert.equal(refund.status, 'PENDING');
      stripe.settleRefunds();

      const dryRun = await reconcile(false);
      assert.deepEqual(rows(dryRun, 'stripe-books'), [
        ['charge', 'status_differs', 'REQUIRES_ACTION', 'succeeded', false],
        ['refund', 'status_differs', 'PENDING', 'succeeded', false],
      ]);
      assert.equal(dryRun.unrepaired, 2);

      const repaired = await reconcile(true);
      assert.deepEqual(
        rows(repaired, 'stripe-books').map((r) => r[4]),
        [true, true],
      );
      assert.equal(repaired.unrepaired, 0);
      assert.equal(await statusOf(`/v1/payment-intents/${waiting.id}`), 'SUCCEEDED');
      assert.equal(await statusOf(`/v1/refunds/${refund.id}`), 'SUCCEEDED');
      assert.deepEqual(rows(await reconcile(false), 'stripe-books'), []);
    });

    it('stripe: reports a payment made outside Paygate, without repairing it', async () => {
      const outside = await fetch(`${stripe.url}/v1/payment_intents`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${STRIPE.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `amount=777&currency=eur&confirm=true&payment_method=${STRIPE_TEST_PAYMENT_METHODS.approve}`,
      });
      assert.equal(outside.status, 200, await outside.clone().text());
      const report = await reconcile(true);
      assert.deepEqual(rows(report, 'stripe-books'), [
        ['charge', 'unknown_to_paygate', null, 'succeeded', false],
      ]);
      assert.equal(report.unrepaired, 1);
      // The operator API shows the same, read-only.
      const read = await admin(
        'GET',
        `/admin/v1/reconciliation?merchant_id=${shop.id}&from=${windowStart.toISOString()}&to=${new Date(svc.clock.now().getTime() + 2000).toISOString()}`,
      );
      assert.equal(read.statusCode, 200, read.body);
      const body = read.json();
      assert.equal(body.object, 'reconciliation');
      assert.deepEqual(
        body.differences.map((d: { gateway_id: string; kind: string }) => [d.gateway_id, d.kind]),
        [['stripe-books', 'unknown_to_paygate']],
      );
      assert.equal(body.unrepaired, 1);
      // And the dashboard's read of the merchant's own accounts.
      const mine = await readMerchantReconciliation(
        svc.ctx,
        { merchantId: shop.id, livemode: false },
        { from: windowStart.toISOString(), to: new Date(svc.clock.now().getTime() + 2000).toISOString() },
      );
      assert.deepEqual(
        mine.differences.map((d) => [d.gatewayId, d.kind]),
        [['stripe-books', 'unknown_to_paygate']],
      );
      const refused = await admin(
        'GET',
        '/admin/v1/reconciliation?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
      );
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().code, 'validation_error');
    });

    it('adyen: a batch not settled yet is no difference; its settlement report repairs a capture and a refund', async () => {
      adyen.closeSettlementBatch();
      const waiting = await confirmed('adyen-books', ADYEN_TEST_TOKENS.challenge);
      assert.equal(waiting.status, 'REQUIRES_ACTION');
      assert.ok(waiting.redirect_url);
      await payerApprovesAtGateway(waiting.redirect_url);
      const paid = await confirmed('adyen-books', ADYEN_TEST_TOKENS.approve);
      assert.equal(paid.status, 'SUCCEEDED');
      const refund = (
        await api('POST', '/v1/refunds', { payment_intent_id: paid.id, amount_minor: 2_000 })
      ).json();
      assert.equal(refund.status, 'PENDING');
      adyen.settleRefunds();
      // Nothing is settled in a report yet: nothing to compare, nothing reported.
      assert.deepEqual(rows(await reconcile(false), 'adyen-books'), []);

      adyen.closeSettlementBatch();
      const dryRun = await reconcile(false);
      assert.deepEqual(rows(dryRun, 'adyen-books'), [
        ['charge', 'status_differs', 'REQUIRES_ACTION', 'succeeded', false],
        ['refund', 'status_differs', 'PENDING', 'succeeded', false],
      ]);
      const repaired = await reconcile(true);
      assert.deepEqual(
        rows(repaired, 'adyen-books').map((r) => r[4]),
        [true, true],
      );
      assert.equal(await statusOf(`/v1/payment-intents/${waiting.id}`), 'SUCCEEDED');
      assert.equal(await statusOf(`/v1/refunds/${refund.id}`), 'SUCCEEDED');
      assert.equal((await api('GET', `/v1/payment-intents/${paid.id}`)).json().amount_refunded_minor, 2_000);
    });

    it('adyen: an authorisation waiting for its capture is in no settlement report, and no difference', async () => {
      const created = await api('POST', '/v1/payment-intents', {
        amount_minor: 6_100,
        currency: 'EUR',
        gateway_id: 'adyen-books',
        capture_method: 'manual',
      });
      assert.equal(created.statusCode, 200, created.body);
      const held = await api('POST', `/v1/payment-intents/${created.json().id}/confirm`, {
        payment_method_token: ADYEN_TEST_TOKENS.approve,
      });
      assert.equal(held.json().status, 'REQUIRES_CAPTURE', held.body);
      const paid = await confirmed('adyen-books', ADYEN_TEST_TOKENS.approve, 2_300);
      adyen.closeSettlementBatch();
      const report = await reconcile(false);
      const books = report.gateways.find((g) => g.gatewayId === 'adyen-books');
      assert.equal(books?.charges, 1, 'the report settled the automatic payment only');
      assert.deepEqual(rows(report, 'adyen-books'), []);
      assert.equal(await statusOf(`/v1/payment-intents/${paid.id}`), 'SUCCEEDED');
    });

    it('adyen: reports a payment the settlement report shows that Paygate never made', async () => {
      const outside = await fetch(`${adyen.url}/payments`, {
        method: 'POST',
        headers: { 'x-api-key': ADYEN.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          merchantAccount: ADYEN.merchantAccount,
          reference: 'made-in-the-customer-area',
          amount: { currency: 'EUR', value: 1234 },
          paymentMethod: { type: 'scheme', storedPaymentMethodId: ADYEN_TEST_TOKENS.approve },
          returnUrl: 'https://shop.example/back',
          shopperReference: 'customer-area',
          shopperInteraction: 'ContAuth',
          recurringProcessingModel: 'CardOnFile',
        }),
      });
      assert.equal(outside.status, 200, await outside.clone().text());
      adyen.closeSettlementBatch();
      const report = await reconcile(true);
      assert.deepEqual(rows(report, 'adyen-books'), [
        ['charge', 'unknown_to_paygate', null, 'succeeded', false],
      ]);
      assert.equal(report.unrepaired, 1);
    });
  });
}
