// The demo shop on the Stripe fake and on the Adyen fake, in headless Chromium: the checkout frame
// loads the gateway's own card component (the fake's stand-in) from the gateway's origin, with its
// CSP widened to that origin only; a decline then another card, a refund settled by the gateway's
// signed notification, and a 3-D Secure challenge through a top-level redirect that comes back
// through Paygate's return route (which completes the intent before the gateway's notification).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AdyenFake, type StripeFake, startAdyenFake, startStripeFake } from '@paygate/gateway-fakes';
import { waitFor } from '@paygate/testing';
import type { Page } from 'playwright-core';
import { FAKE_DEFAULTS } from '../src/gateways.ts';
import {
  type LoggedRequest,
  recordRequests,
  SCREENSHOTS,
  type Stack,
  startStack,
  waitForCheckoutEvents,
} from './support.ts';

const FRAME = 'iframe[data-paygate-checkout]';

interface GatewayCase {
  gateway: 'stripe' | 'adyen';
  start(): Promise<StripeFake | AdyenFake>;
  cards: { approve: string; decline: string; challenge: string };
  /** Adyen's card component asks for the holder name; its test refusal is the name REFUSED. */
  holderName: ((card: string) => string) | null;
  challengeButton: string;
}

const cases: GatewayCase[] = [
  {
    gateway: 'stripe',
    start: () =>
      startStripeFake({
        secretKey: FAKE_DEFAULTS.stripe.secretKey,
        webhookSecret: FAKE_DEFAULTS.stripe.webhookSecret,
        webhookUrl: null,
      }),
    cards: {
      approve: '4242 4242 4242 4242',
      decline: '4000 0000 0000 0002',
      challenge: '4000 0027 6000 3184',
    },
    holderName: null,
    challengeButton: 'Complete authentication',
  },
  {
    gateway: 'adyen',
    start: () =>
      startAdyenFake({
        apiKey: FAKE_DEFAULTS.adyen.apiKey,
        merchantAccount: FAKE_DEFAULTS.adyen.merchantAccount,
        hmacKeyHex: FAKE_DEFAULTS.adyen.hmacKeyHex,
        notificationUrl: null,
      }),
    cards: {
      approve: '4111 1111 4555 1142',
      decline: '4111 1111 4555 1142',
      challenge: '4212 3456 7891 0006',
    },
    holderName: (card) => (card === 'decline' ? 'REFUSED' : 'Ada Lovelace'),
    challengeButton: 'Complete authentication',
  },
];

for (const testCase of cases) {
  describe(`demo shop on the ${testCase.gateway} fake in Chromium`, () => {
    let fake: StripeFake | AdyenFake;
    let stack: Stack;
    before(async () => {
      fake = await testCase.start();
      stack = await startStack({ gateway: testCase.gateway, fakeUrl: fake.url });
      fake.setNotificationUrl(`${stack.paygate.url}/gateway-notifications/${testCase.gateway}`);
    });
    after(async () => {
      await stack?.close();
      await fake?.close();
    });

    const checkoutFrame = (page: Page) => page.frameLocator(FRAME);
    const cardFields = (page: Page) => checkoutFrame(page).frameLocator('.gateway-component iframe');
    const frameState = (page: Page, state: string) =>
      checkoutFrame(page).locator(`body[data-state="${state}"]`).waitFor({ timeout: 20_000 });
    const orderStatus = async (orderId: string) =>
      (await (await fetch(`${stack.shop.url}/orders/${orderId}/status`)).json()) as {
        payment_intent_id: string;
        payment_status: string | null;
        refund_status: string | null;
      };

    async function enterCard(page: Page, which: keyof GatewayCase['cards']): Promise<void> {
      await frameState(page, 'form');
      const fields = cardFields(page);
      await fields.getByLabel('Card number').fill(testCase.cards[which]);
      await fields.getByLabel('Expiry date').fill('12 / 34');
      await fields.getByLabel('Security code').fill('123');
      if (testCase.holderName) await fields.getByLabel('Name on card').fill(testCase.holderName(which));
    }

    /** Card digits travelled only to the gateway's origin; the Paygate API saw only tokens. */
    function assertCardOnlyToGateway(log: LoggedRequest[], card: string): void {
      const digits = card.replace(/\s/g, '');
      const carriers = log.filter((r) => `${r.url} ${r.postData ?? ''}`.includes(digits));
      assert.ok(carriers.length > 0, 'the card number was sent to the gateway');
      for (const request of carriers) assert.equal(new URL(request.url).origin, new URL(fake.url).origin);
    }

    async function openOrder(page: Page): Promise<string> {
      await page.goto(stack.shop.url);
      await page.getByRole('button', { name: 'Buy now' }).click();
      await page.waitForURL(/\/orders\/order_\d+\/pay$/);
      return /order_\d+/.exec(page.url())?.[0] ?? '';
    }

    it("pays with the gateway's card component after a decline, then refunds, all settled by its notifications", async () => {
      const page = await stack.browser.newPage({ viewport: { width: 800, height: 900 } });
      const log = recordRequests(page);
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const frameCsp = page.waitForResponse((r) => r.url().includes('/checkout/v1/frame?'));
      const orderId = await openOrder(page);

      // The frame loads the component from the gateway's origin, and its CSP names only that origin.
      const csp = (await frameCsp).headers()['content-security-policy'] ?? '';
      const gatewayOrigin = new URL(fake.url).origin;
      const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
      assert.equal(directive('script-src'), `script-src 'self' ${gatewayOrigin}`);
      assert.equal(directive('connect-src'), `connect-src 'self' ${gatewayOrigin}`);
      assert.ok(directive('frame-src').split(' ').includes(gatewayOrigin), csp);
      assert.doesNotMatch(csp, /\*|https?:(;| |$)/, 'no wildcard and no bare scheme');

      await enterCard(page, 'decline');
      await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
      await frameState(page, 'declined');
      await checkoutFrame(page).getByRole('button', { name: 'Try another card' }).click();
      await enterCard(page, 'approve');
      await page
        .locator(FRAME)
        .screenshot({ path: new URL(`checkout-${testCase.gateway}-form.png`, SCREENSHOTS).pathname });
      await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
      const events = await waitForCheckoutEvents(page, 3);
      assert.deepEqual(
        events.map((e) => e.type),
        ['error', 'retry', 'success'],
      );
      const paid = events[2]?.type === 'success' ? events[2].paymentIntentId : '';
      assert.equal((await stack.intent(paid)).status, 'SUCCEEDED');
      await page
        .getByText('Order paid: confirmed by the payment_intent.succeeded webhook.')
        .waitFor({ timeout: 20_000 });
      assertCardOnlyToGateway(log, testCase.cards.approve);
      if (testCase.gateway === 'adyen') {
        // Adyen Web's real payload: the card's encrypted fields, passed on as the token unread.
        const confirm = log
          .filter((r) => r.url === `${stack.paygate.url}/v1/payment-intents/${paid}/confirm`)
          .at(-1);
        const token = JSON.parse(JSON.parse(confirm?.postData ?? '{}').payment_method_token ?? '{}');
        assert.equal(token.type, 'scheme');
        for (const name of [
          'encryptedCardNumber',
          'encryptedExpiryMonth',
          'encryptedExpiryYear',
          'encryptedSecurityCode',
        ]) {
          assert.match(String(token[name]), /^adyenjs_/, name);
        }
      }

      // The refund: created by the shop's server, settled later by the gateway's signed notification.
      const refunded = await fetch(`${stack.shop.url}/orders/${orderId}/refund`, { method: 'POST' });
      assert.equal(refunded.status, 200);
      const refund = (await refunded.json()) as { refund_id: string; status: string };
      assert.equal(refund.status, 'PENDING');
      assert.equal(fake.settleRefunds(), 1);
      await fake.idle();
      await waitFor('the shop hears refund.succeeded', async () => {
        return (await orderStatus(orderId)).refund_status === 'SUCCEEDED';
      });
      const read = await fetch(`${stack.paygate.url}/v1/refunds/${refund.refund_id}`, {
        headers: { 'x-api-key': stack.credentials.secretKey },
      });
      assert.equal(((await read.json()) as { status: string }).status, 'SUCCEEDED');
      assert.deepEqual(fake.violations, [], 'every request the connector built matches the description');
      assert.deepEqual(pageErrors, []);
      await page.close();
    });

    it("takes a 3-D Secure challenge through a top-level redirect, completed by Paygate's return route before any notification", async () => {
      const page = await stack.browser.newPage({ viewport: { width: 800, height: 900 } });
      const log = recordRequests(page);
      const orderId = await openOrder(page);
      const { payment_intent_id: intentId } = await orderStatus(orderId);
      await enterCard(page, 'challenge');
      await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL((url) => url.href.startsWith(`${fake.url}/redirect/3ds/`), { timeout: 20_000 });
      assert.equal((await stack.intent(intentId)).status, 'REQUIRES_ACTION');
      // The gateway's notification is held back: only the payer's return can complete the intent.
      await fake.idle();
      fake.holdNotifications();
      const deliveredBefore = fake.delivered.length;
      await page.getByRole('button', { name: testCase.challengeButton }).click();
      await page.waitForURL((url) => url.origin === stack.shop.url && url.pathname === '/return', {
        timeout: 20_000,
      });
      const landed = new URL(page.url());
      assert.equal(landed.searchParams.get('payment_intent'), intentId);
      assert.equal(landed.searchParams.get('order'), orderId);
      const viaReturnRoute = log.filter((r) => r.url.startsWith(`${stack.paygate.url}/gateway-returns/`));
      assert.equal(viaReturnRoute.length, 1, 'the gateway sent the payer to Paygate, not to the shop');
      assert.equal((await stack.intent(intentId)).status, 'SUCCEEDED', 'completed before any notification');
      assert.equal(fake.delivered.length, deliveredBefore, 'no notification reached Paygate yet');

      // The late notification then changes nothing but lets the shop hear its webhook.
      assert.ok(fake.releaseNotifications() >= 1);
      await fake.idle();
      await page
        .getByText('Order paid: confirmed by the payment_intent.succeeded webhook.')
        .waitFor({ timeout: 20_000 });
      assert.equal((await stack.intent(intentId)).status, 'SUCCEEDED');
      assert.deepEqual(fake.violations, []);
      await page.close();
    });
  });
}
