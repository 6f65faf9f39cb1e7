// The demo shop paying through the merchant's OWN Stripe account (added with the operator API,
// with its own publishable key), not the operator's environment default: the checkout frame loads
// Stripe.js (the fake's stand-in) with the account's key, its CSP opens the account's origin, and
// the payment succeeds in headless Chromium on the account's gateway_id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type StripeFake, startStripeFake } from '@paygate/gateway-fakes';
import { FAKE_DEFAULTS } from '../src/gateways.ts';
import {
  OWN_ACCOUNT_GATEWAY_ID,
  recordRequests,
  type Stack,
  startStack,
  waitForCheckoutEvents,
} from './support.ts';

const FRAME = 'iframe[data-paygate-checkout]';
const ACCOUNT_KEY = 'pk_test_shopOwnAccount';

describe("demo shop on the merchant's own Stripe account in Chromium", () => {
  let fake: StripeFake;
  let stack: Stack;
  before(async () => {
    fake = await startStripeFake({
      secretKey: FAKE_DEFAULTS.stripe.secretKey,
      webhookSecret: FAKE_DEFAULTS.stripe.webhookSecret,
      webhookUrl: null,
    });
    stack = await startStack({
      gateway: 'stripe',
      fakeUrl: fake.url,
      ownAccount: { publishableKey: ACCOUNT_KEY },
    });
    fake.setNotificationUrl(`${stack.paygate.url}${stack.accountNotificationPath}`);
  });
  after(async () => {
    await stack?.close();
    await fake?.close();
  });

  it("takes a card with the account's component key, the frame's CSP opened to the account's origin", async () => {
    const page = await stack.browser.newPage({ viewport: { width: 800, height: 900 } });
    const log = recordRequests(page);
    const frameResponse = page.waitForResponse((r) => r.url().includes('/checkout/v1/frame?'));
    await page.goto(stack.shop.url);
    await page.getByRole('button', { name: 'Buy now' }).click();
    await page.waitForURL(/\/orders\/order_\d+\/pay$/);

    const csp = (await frameResponse).headers()['content-security-policy'] ?? '';
    const gatewayOrigin = new URL(fake.url).origin;
    assert.match(csp, new RegExp(`script-src 'self' ${gatewayOrigin}(;|$)`));

    const frame = page.frameLocator(FRAME);
    await frame.locator('body[data-state="form"]').waitFor({ timeout: 20_000 });
    const fields = frame.frameLocator('.gateway-component iframe');
    await fields.getByLabel('Card number').fill('4242 4242 4242 4242');
    await fields.getByLabel('Expiry date').fill('12 / 34');
    await fields.getByLabel('Security code').fill('123');
    await frame.getByRole('button', { name: /^Pay / }).click();
    const [event] = await waitForCheckoutEvents(page, 1);
    assert.equal(event?.type, 'success');
    const intentId = event?.type === 'success' ? event.paymentIntentId : '';
    const intent = (await stack.intent(intentId)) as { status: string; gateway_id?: string };
    assert.equal(intent.status, 'SUCCEEDED');
    assert.equal(intent.gateway_id, OWN_ACCOUNT_GATEWAY_ID);

    // Stripe.js was given the account's publishable key (the stand-in puts it in its fields' URL).
    const keyed = log.filter((r) => r.url.startsWith(gatewayOrigin) && r.url.includes(`key=${ACCOUNT_KEY}`));
    assert.ok(keyed.length > 0, "the card fields were opened with the account's key");
    assert.deepEqual(fake.violations, []);
    await page.close();
  });
});
