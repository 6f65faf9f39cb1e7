// The dashboard's reconciliation page (issue 31, item 6: differences "reported ... in the
// dashboard"): a merchant's differences with its own Stripe account's books, read-only, in the
// mode of the page, and the empty state when both books agree. Against the Stripe fake with its
// notifications lost, on both databases; the HTML the server renders is what is checked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRIPE_TEST_PAYMENT_METHODS, type StripeFake, startStripeFake } from '@paygate/gateway-fakes';
import { ShiftedClock } from '../src/clock.ts';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';

const STRIPE = { secretKey: 'sk_test_dashRecon01', webhookSecret: 'whsec_dashRecon01' };

for (const kind of databaseKinds()) {
  describe(`the dashboard's reconciliation page (${kind})`, () => {
    let svc: TestService;
    let shop: MerchantKeys;
    let other: MerchantKeys;
    let stripe: StripeFake;
    let owner: DashboardUser;
    let developer: DashboardUser;
    let otherOwner: DashboardUser;

    before(async () => {
      // No notification address: what Stripe decides is known to Paygate only by reading its books.
      stripe = await startStripeFake({ ...STRIPE, webhookUrl: null });
      svc = await startTestService(kind, { clock: new ShiftedClock() });
      shop = await svc.createMerchant('Shop with a reconciliation page');
      other = await svc.createMerchant('Another shop');
      const added = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${shop.id}/gateway-accounts`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: {
          livemode: false,
          connector: 'stripe',
          gateway_id: 'stripe-dash',
          credentials: { secret_key: STRIPE.secretKey, webhook_secret: STRIPE.webhookSecret },
          settings: { api_url: stripe.url },
        },
      });
      assert.equal(added.statusCode, 201, added.body);
      owner = await firstOwner(svc, shop.id, 'owner@recon-page.example');
      developer = await teamMember(svc, owner, 'dev@recon-page.example', 'developer');
      otherOwner = await firstOwner(svc, other.id, 'owner@other-recon.example');
    });
    after(async () => {
      await svc?.close();
      await stripe?.close();
    });

    const pageOf = async (user: DashboardUser, url: string) => {
      const response = await dashboardRequest(svc, user, 'GET', url);
      assert.equal(response.statusCode, 200, response.body);
      return response.body;
    };

    it('says that both books agree when they do, in the side navigation', async () => {
      const body = await pageOf(owner, '/dashboard/test/reconciliation');
      assert.match(body, /<title>Reconciliation · Paygate dashboard<\/title>/);
      assert.match(body, /Paygate and your gateway agree for the last 7 days\./);
      assert.doesNotMatch(body, /<table>/);
      assert.match(
        body,
        /<a href="\/dashboard\/test\/reconciliation\?lang=en" aria-current="page">Reconciliation<\/a>/,
      );
      const spanish = await pageOf(owner, '/dashboard/test/reconciliation?lang=es');
      assert.match(spanish, /Paygate y tu pasarela coinciden en los últimos 7 días\./);
    });

    it("lists each difference: kind, the record's id, both views and the amount", async () => {
      // A payment the payer approved at Stripe after a challenge, whose notification was lost.
      const created = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: shop.secretTest,
        headers: { 'idempotency-key': freshKey('rp') },
        body: {
          amount_minor: 4_250,
          currency: 'EUR',
          gateway_id: 'stripe-dash',
          return_url: 'https://shop.example/back',
        },
      });
      assert.equal(created.statusCode, 200, created.body);
      const waiting = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${created.json().id}/confirm`,
        key: shop.secretTest,
        headers: { 'idempotency-key': freshKey('rp') },
        body: { payment_method_token: STRIPE_TEST_PAYMENT_METHODS.challenge },
      });
      assert.equal(waiting.json().status, 'REQUIRES_ACTION', waiting.body);
      const approved = await fetch(waiting.json().redirect_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      assert.ok(
        approved.status === 302 || approved.status === 303,
        `Stripe's page answered ${approved.status}`,
      );
      // And a payment made in the Stripe account outside Paygate.
      const outside = await fetch(`${stripe.url}/v1/payment_intents`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${STRIPE.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `amount=777&currency=eur&confirm=true&payment_method=${STRIPE_TEST_PAYMENT_METHODS.approve}`,
      });
      assert.equal(outside.status, 200, await outside.clone().text());
      const outsideId = ((await outside.json()) as { id: string }).id;

      for (const user of [owner, developer]) {
        const body = await pageOf(user, '/dashboard/test/reconciliation');
        assert.match(body, /<caption>Differences with the gateway<\/caption>/);
        const rows = [...body.matchAll(/<tr><td>([\s\S]*?)<\/tr>/g)].map((r) =>
          (r[1] ?? '').replace(/<[^>]*>/g, '|').replace(/\|+/g, '|'),
        );
        assert.deepEqual(
          rows.sort(),
          [
            `Status differs|Payment |${created.json().id}|REQUIRES_ACTION|succeeded|€42.50|stripe-dash|`,
            `Unknown to Paygate|Payment |${outsideId}|no record|succeeded|€7.77|stripe-dash|`,
          ].sort(),
        );
        assert.doesNotMatch(body, /agree for the last/);
      }
      // Read-only: the page repaired nothing.
      const still = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${created.json().id}`,
        key: shop.secretTest,
      });
      assert.equal(still.json().status, 'REQUIRES_ACTION');
    });

    it("shows neither another merchant's differences nor the other mode's", async () => {
      assert.match(
        await pageOf(otherOwner, '/dashboard/test/reconciliation'),
        /Paygate and your gateway agree for the last 7 days\./,
      );
      assert.match(
        await pageOf(owner, '/dashboard/live/reconciliation'),
        /Paygate and your gateway agree for the last 7 days\./,
      );
    });

    it("shows the other accounts' differences when one account's books cannot be read, and that account's failure with its cause", async () => {
      // A second Stripe account of the shop whose key the gateway refuses: its books are unreadable.
      const broken = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${shop.id}/gateway-accounts`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: {
          livemode: false,
          connector: 'stripe',
          gateway_id: 'stripe-broken',
          credentials: { secret_key: 'sk_test_refusedByStripe', webhook_secret: 'whsec_refused01' },
          settings: { api_url: stripe.url },
        },
      });
      assert.equal(broken.statusCode, 201, broken.body);
      const accountId: string = broken.json().id;
      const body = await pageOf(owner, '/dashboard/test/reconciliation');
      assert.match(
        body,
        /<caption>Differences with the gateway<\/caption>/,
        'the readable account is compared',
      );
      assert.match(body, /stripe-dash/);
      const alert = body.match(/<p role="alert">([\s\S]*?)<\/p>/)?.[1]?.replace(/<[^>]*>/g, '') ?? '';
      assert.match(alert, new RegExp(`The books of stripe-broken \\(${accountId}\\) could not be read`));
      assert.match(alert, /401|Invalid API Key|unavailable|refused/i, `the cause is named: ${alert}`);
      const spanish = await pageOf(owner, '/dashboard/test/reconciliation?lang=es');
      assert.match(spanish, /No se pudieron leer los libros de stripe-broken/);
      assert.match(
        await pageOf(otherOwner, '/dashboard/test/reconciliation'),
        /Paygate and your gateway agree for the last 7 days\./,
        "another merchant does not see this merchant's account",
      );
    });
  });
}
