// The embedded checkout end to end in headless Chromium: the demo shop's page, the component, the
// hosted frame, the simulated gateway's hosted field and challenge page, and the shop's webhook.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@paygate/testing';
import type { Page } from 'playwright-core';
import {
  type LoggedRequest,
  type PageServer,
  recordRequests,
  SCREENSHOTS,
  type ShopEvent,
  type Stack,
  startPageServer,
  startStack,
  waitForCheckoutEvents,
} from './support.ts';

const CARDS = {
  approve: '4242 4242 4242 4242',
  decline: '4000 0000 0000 0002',
  challenge: '4000 0000 0000 3220',
};
const FRAME = 'iframe[data-paygate-checkout]';

describe('embedded checkout in Chromium (demo shop, embedded database)', () => {
  let stack: Stack;
  let serviceOrigin: string;
  before(async () => {
    stack = await startStack();
    serviceOrigin = new URL(stack.paygate.url).origin;
  });
  after(() => stack?.close());

  async function newPage(): Promise<{ page: Page; log: LoggedRequest[]; pageErrors: string[] }> {
    const page = await stack.browser.newPage({ viewport: { width: 800, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return { page, log: recordRequests(page), pageErrors };
  }

  /** An order created on the shop's server; answers its payment page's path and its intent. */
  async function createOrder(
    fields: Record<string, string> = {},
  ): Promise<{ payPath: string; intentId: string }> {
    const response = await fetch(`${stack.shop.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ amount_minor: '2500', currency: 'USD', ...fields }).toString(),
      redirect: 'manual',
    });
    assert.equal(response.status, 303);
    const payPath = response.headers.get('location') ?? '';
    const orderId = /\/orders\/(order_\d+)\/pay/.exec(payPath)?.[1] ?? '';
    const status = (await (await fetch(`${stack.shop.url}/orders/${orderId}/status`)).json()) as {
      payment_intent_id: string;
    };
    return { payPath, intentId: status.payment_intent_id };
  }

  const checkoutFrame = (page: Page) => page.frameLocator(FRAME);
  const hostedField = (page: Page) => checkoutFrame(page).frameLocator('iframe.hosted-fields');
  const frameState = (page: Page, state: string) =>
    checkoutFrame(page).locator(`body[data-state="${state}"]`).waitFor({ timeout: 20_000 });
  const screenshot = (page: Page, name: string) =>
    page.locator(FRAME).screenshot({ path: new URL(`checkout-${name}.png`, SCREENSHOTS).pathname });

  const LABELS = {
    en: { number: 'Card number', expiry: 'Expiry date', cvc: 'Security code', name: 'Name on card' },
    es: {
      number: 'Número de tarjeta',
      expiry: 'Fecha de vencimiento',
      cvc: 'Código de seguridad',
      name: 'Nombre en la tarjeta',
    },
  };

  /** Fills the gateway's four hosted fields (a future expiry, a code, a name). */
  async function enterCard(page: Page, card: string, language: 'en' | 'es' = 'en'): Promise<void> {
    await frameState(page, 'form');
    const labels = LABELS[language];
    const fields = hostedField(page);
    await fields.getByLabel(labels.number).fill(card);
    await fields.getByLabel(labels.expiry).fill('12 / 34');
    await fields.getByLabel(labels.cvc).fill('123');
    await fields.getByLabel(labels.name).fill('Ada Lovelace');
  }

  /** The page's boundaries, from its network log. */
  function assertBoundaries(log: LoggedRequest[], card: string): void {
    const fromPageToService = log.filter((r) => r.fromMainFrame && new URL(r.url).origin === serviceOrigin);
    assert.deepEqual(
      fromPageToService.map((r) => new URL(r.url).pathname),
      ['/checkout/v1/checkout.js'],
      'the merchant page loads the component script and nothing else from the service',
    );
    const digits = card.replace(/\s/g, '');
    const carriers = log.filter((r) =>
      `${r.url} ${r.postData ?? ''}`.replace(/[\s-]|%20/g, '').includes(digits),
    );
    assert.ok(carriers.length > 0, 'the card number was sent to the gateway');
    for (const request of carriers) {
      assert.equal(
        new URL(request.url).origin,
        stack.simOrigin,
        `card number sent to ${request.url} (service ${serviceOrigin}, shop ${stack.shop.url})`,
      );
    }
    // The rest of the card (the name typed into the gateway's fields) goes nowhere else either.
    for (const request of log.filter((r) => `${r.url} ${r.postData ?? ''}`.includes('Lovelace'))) {
      assert.equal(new URL(request.url).origin, stack.simOrigin, `cardholder name sent to ${request.url}`);
    }
    const apiCalls = log.filter((r) => {
      const url = new URL(r.url);
      return url.origin === serviceOrigin && !url.pathname.startsWith('/checkout/');
    });
    assert.ok(apiCalls.length > 0);
    for (const call of apiCalls) {
      assert.match(new URL(call.url).pathname, /^\/v1\/payment-intents\/pi_[0-9A-Za-z]{24}(\/confirm)?$/);
      assert.ok(
        call.frameUrl.startsWith(`${serviceOrigin}/checkout/v1/frame?`),
        `API called from ${call.frameUrl}`,
      );
      assert.doesNotMatch(call.url, /secret/i, 'no client secret in a URL');
    }
    const frameUrl = log.find((r) => r.url.includes('/checkout/v1/frame?'))?.url ?? '';
    assert.match(frameUrl, /[?&]pk=pk_test_/);
    assert.doesNotMatch(frameUrl, /_secret_/);
  }

  /** A page of the test's own that mounts the component loaded from `scriptSrc`. */
  async function syntheticPage(
    page: Page,
    server: PageServer,
    path: string,
    script: string,
    scriptSrc: string,
  ) {
    server.serve(
      path,
      'text/html',
      `<!doctype html><html lang="en"><title>Test page</title><div id="checkout"></div>
<script src="${scriptSrc}"></script>
<script>
window.shopCheckoutEvents = [];
const record = (type, detail) => window.shopCheckoutEvents.push({ type, ...detail });
const callbacks = {
  onSuccess: (r) => record('success', r),
  onError: (e) => record('error', e),
  onCancel: () => record('cancel', {}),
};
${script}
</script>`,
    );
    await page.goto(`${server.url}${path}`);
  }

  it('approves a test card typed into the hosted field, fires onSuccess, and the webhook confirms it', async () => {
    const { page, log, pageErrors } = await newPage();
    await page.goto(stack.shop.url);
    await page.getByRole('button', { name: 'Buy now' }).click();
    await page.waitForURL(/\/orders\/order_\d+\/pay$/);
    await enterCard(page, CARDS.approve);
    await screenshot(page, 'form');
    // Keyboard only: focus the Pay button and press Enter.
    const pay = checkoutFrame(page).getByRole('button', { name: /^Pay \$25\.00$/ });
    await pay.focus();
    await page.keyboard.press('Enter');

    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type, 'success');
    assert.equal(event.type === 'success' && event.status, 'SUCCEEDED');
    const paymentIntentId = event.type === 'success' ? event.paymentIntentId : '';
    assert.equal((await stack.intent(paymentIntentId)).status, 'SUCCEEDED');
    await frameState(page, 'succeeded');
    // The frame follows its content's height (the form was taller than the result).
    let height = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 40 && height >= 250; i += 1) {
      height = (await page.locator(FRAME).boundingBox())?.height ?? height;
      if (height >= 250) await page.waitForTimeout(50);
    }
    assert.ok(height >= 120 && height < 250, `frame height ${height}`);
    await screenshot(page, 'succeeded');

    await page
      .getByText('Order paid: confirmed by the payment_intent.succeeded webhook.')
      .waitFor({ timeout: 20_000 });
    const order = stack.shop.orders.byPaymentIntent(paymentIntentId);
    assert.ok(order?.events.includes('payment_intent.succeeded'));
    assert.equal(order?.paymentStatus, 'SUCCEEDED');
    await page.screenshot({ path: new URL('shop-paid.png', SCREENSHOTS).pathname });

    assertBoundaries(log, CARDS.approve);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });

  it('sends the challenge card through a top-level redirect to the bank page and back to the shop', async () => {
    const { page, log } = await newPage();
    const { payPath, intentId } = await createOrder();
    await page.goto(`${stack.shop.url}${payPath}`);
    await enterCard(page, CARDS.challenge);
    await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();

    // The whole tab moves to the gateway's page: it is the top document, not a frame.
    await page.waitForURL((url) => url.href.startsWith(`${stack.simOrigin}/challenge/`), { timeout: 20_000 });
    assert.equal(page.frames().length, 1);
    assert.equal((await stack.intent(intentId)).status, 'REQUIRES_ACTION');
    await page.screenshot({ path: new URL('challenge-page.png', SCREENSHOTS).pathname });
    await page.getByRole('button', { name: 'Approve' }).click();

    await page.waitForURL((url) => url.origin === stack.shop.url && url.pathname === '/return', {
      timeout: 20_000,
    });
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('payment_intent'), intentId);
    await page
      .getByText('Order paid: confirmed by the payment_intent.succeeded webhook.')
      .waitFor({ timeout: 20_000 });
    assert.equal((await stack.intent(intentId)).status, 'SUCCEEDED');
    assertBoundaries(log, CARDS.challenge);
    await page.close();
  });

  it('reports a declined card as payment_failed, in Spanish when the page asks for es', async () => {
    const { page, log } = await newPage();
    const { payPath, intentId } = await createOrder({ locale: 'es-MX' });
    await page.goto(`${stack.shop.url}${payPath}`);
    await enterCard(page, CARDS.decline, 'es');
    assert.equal(await checkoutFrame(page).locator('h1').textContent(), 'Pagar con tarjeta');
    await checkoutFrame(page)
      .getByRole('button', { name: /^Pagar / })
      .click();

    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type, 'error');
    assert.equal(event.type === 'error' && event.code, 'payment_failed');
    await frameState(page, 'declined');
    assert.equal(await checkoutFrame(page).locator('h1').textContent(), 'Pago rechazado');
    await screenshot(page, 'declined');
    assert.equal((await stack.intent(intentId)).status, 'FAILED');
    assertBoundaries(log, CARDS.decline);
    await page.close();
  });

  it('checks each hosted field, shows each error once, detects the brand, and pays by keyboard alone', async () => {
    const { page, log, pageErrors } = await newPage();
    const { payPath, intentId } = await createOrder();
    await page.goto(`${stack.shop.url}${payPath}`);
    await frameState(page, 'form');
    const fields = hostedField(page);
    /** A field's error as assistive technology reaches it: through its aria-describedby. */
    const errorOf = async (label: string) => {
      const input = fields.getByLabel(label);
      const id = await input.getAttribute('id');
      const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
      assert.ok(describedBy.split(' ').includes(`${id}-error`), `${label} is described by its error`);
      return {
        invalid: await input.getAttribute('aria-invalid'),
        error: (await fields.locator(`#${id}-error`).textContent()) ?? '',
      };
    };

    // One button pays: the frame's. The gateway's fields have none of their own.
    assert.equal(await fields.getByRole('button').count(), 0);
    assert.equal(await checkoutFrame(page).getByRole('button', { name: /^Pay / }).count(), 1);

    // Pay with nothing typed: every field says what it needs, the frame adds nothing, nothing is charged.
    await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
    await fields.getByLabel('Card number').and(fields.locator(':focus')).waitFor();
    assert.deepEqual(await errorOf('Card number'), { invalid: 'true', error: 'Enter the card number.' });
    assert.deepEqual(await errorOf('Expiry date'), { invalid: 'true', error: 'Enter the expiry date.' });
    assert.deepEqual(await errorOf('Security code'), { invalid: 'true', error: 'Enter the security code.' });
    assert.deepEqual(await errorOf('Name on card'), {
      invalid: 'true',
      error: 'Enter the name on the card.',
    });
    assert.equal(await checkoutFrame(page).locator('#form-error').textContent(), '');
    await frameState(page, 'form');

    // The brand shows as the payer types, and the code's length follows it.
    await fields.getByLabel('Card number').pressSequentially('3782');
    assert.equal(await fields.locator('#card-brand').textContent(), 'American Express');
    assert.equal(await fields.locator('#card-cvc-hint').textContent(), '4 digits on the front of the card');
    await fields.getByLabel('Card number').fill('');
    await fields.getByLabel('Card number').pressSequentially('4242424242424241');
    assert.equal(await fields.getByLabel('Card number').inputValue(), '4242 4242 4242 4241');
    assert.equal(await fields.locator('#card-brand').textContent(), 'Visa');
    await fields.getByLabel('Expiry date').fill('01 / 20');
    await fields.getByLabel('Security code').fill('12');
    await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
    await fields.getByText('The card number is not valid.').waitFor();
    assert.equal((await errorOf('Expiry date')).error, 'The card has expired.');
    assert.equal((await errorOf('Security code')).error, 'The security code has 3 digits.');
    assert.equal(await fields.getByText('The card number is not valid.').count(), 1, 'said once');
    assert.equal(await checkoutFrame(page).getByText('The card number is not valid.').count(), 0);
    assert.equal((await stack.intent(intentId)).status, 'CREATED');

    // Keyboard only: correct each field, Tab between them, Enter in the last one pays.
    await fields.getByLabel('Card number').focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(CARDS.approve);
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('1234');
    assert.equal(await fields.getByLabel('Expiry date').inputValue(), '12 / 34');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ada Lovelace');
    assert.equal((await errorOf('Card number')).invalid, null, 'the corrected number is no longer marked');
    await page.keyboard.press('Enter');
    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type === 'success' && event.paymentIntentId, intentId);
    assert.equal((await stack.intent(intentId)).status, 'SUCCEEDED');
    assertBoundaries(log, CARDS.approve);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });

  it('after a decline lets the payer try another card on a new intent, on the same page load', async () => {
    const { page, pageErrors } = await newPage();
    let loads = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) loads += 1;
    });
    const { payPath, intentId: declinedIntentId } = await createOrder({ locale: 'es' });
    await page.goto(`${stack.shop.url}${payPath}`);
    await enterCard(page, CARDS.decline, 'es');
    await checkoutFrame(page)
      .getByRole('button', { name: /^Pagar / })
      .click();
    await frameState(page, 'declined');
    // The decline is said once, in the frame; the shop's own line stays empty.
    assert.equal(await checkoutFrame(page).locator('h1').textContent(), 'Pago rechazado');
    assert.equal(
      await checkoutFrame(page).getByText('Tu tarjeta fue rechazada', { exact: false }).count(),
      1,
    );
    assert.equal(await page.locator('#outcome').textContent(), '');
    await screenshot(page, 'declined-retry');

    // Keyboard: focus "Try another card" and press Enter. The shop creates a new intent.
    await checkoutFrame(page).getByRole('button', { name: 'Probar con otra tarjeta' }).focus();
    await page.keyboard.press('Enter');
    await frameState(page, 'form');
    // The new form takes the keyboard focus in its first field: the payer goes on typing.
    await hostedField(page)
      .getByLabel('Número de tarjeta')
      .and(hostedField(page).locator(':focus'))
      .waitFor();
    await enterCard(page, CARDS.approve, 'es');
    await checkoutFrame(page)
      .getByRole('button', { name: /^Pagar / })
      .click();
    const events = await waitForCheckoutEvents(page, 3);
    assert.deepEqual(
      events.map((e) => e.type),
      ['error', 'retry', 'success'],
    );
    assert.equal(events[0]?.type === 'error' && events[0].code, 'payment_failed');
    const paidIntentId = events[2]?.type === 'success' ? events[2].paymentIntentId : '';
    assert.notEqual(paidIntentId, declinedIntentId);
    assert.equal((await stack.intent(declinedIntentId)).status, 'FAILED');
    assert.equal((await stack.intent(paidIntentId)).status, 'SUCCEEDED');
    await frameState(page, 'succeeded');
    await page
      .getByText('Order paid: confirmed by the payment_intent.succeeded webhook.')
      .waitFor({ timeout: 20_000 });
    assert.equal(loads, 1, 'one page load for both cards');
    assert.deepEqual(pageErrors, []);
    await page.close();
  });

  it('says once that the gateway is unavailable, keeps the form, and takes the next try on the same intent', async () => {
    const { page, pageErrors } = await newPage();
    const { payPath, intentId } = await createOrder();
    await page.goto(`${stack.shop.url}${payPath}`);
    await enterCard(page, '4000 0000 0000 0119');
    await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
    const unavailable =
      'The payment service is temporarily unavailable. Nothing was charged. Please try again.';
    await checkoutFrame(page).getByText(unavailable).waitFor();
    await frameState(page, 'form');
    assert.equal(await checkoutFrame(page).getByText(unavailable).count(), 1);
    assert.equal(await hostedField(page).getByText(unavailable).count(), 0);
    assert.equal(await page.getByText(unavailable).count(), 0, 'the shop page does not repeat it');
    await enterCard(page, CARDS.approve);
    await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type === 'success' && event.paymentIntentId, intentId);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });

  it('does not offer another card when the page gave no onRetry', async () => {
    const { page } = await newPage();
    const { payPath } = await createOrder();
    const order = stack.shop.orders.get(/order_\d+/.exec(payPath)?.[0] ?? '');
    await syntheticPage(
      page,
      stack.registeredPages,
      '/no-retry',
      `Paygate(${JSON.stringify(stack.credentials.publishableKey)}).checkout({ clientSecret: ${JSON.stringify(order?.clientSecret)}, container: '#checkout', ...callbacks });`,
      `${stack.paygate.url}/checkout/v1/checkout.js`,
    );
    await enterCard(page, CARDS.decline);
    await checkoutFrame(page).getByRole('button', { name: /^Pay / }).click();
    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type === 'error' && event.code, 'payment_failed');
    await frameState(page, 'declined');
    assert.equal(await checkoutFrame(page).getByRole('button').count(), 0);
    await page.close();
  });

  it('reports an intent that expired (test clock moved past expires_at) as intent_expired', async () => {
    const { page } = await newPage();
    const { payPath, intentId } = await createOrder({ expires_in_seconds: '60' });
    const advanced = await stack.admin('/admin/v1/test-clock/advance', { seconds: 61 });
    assert.equal(advanced.status, 200);
    // The expiry job runs when the clock moves; wait for it rather than for a schedule.
    await waitFor('the intent expires', async () => (await stack.intent(intentId)).status === 'EXPIRED');

    await page.goto(`${stack.shop.url}${payPath}`);
    const [event] = await waitForCheckoutEvents(page);
    assert.deepEqual(event && { type: event.type, code: event.type === 'error' && event.code }, {
      type: 'error',
      code: 'intent_expired',
    });
    await frameState(page, 'expired');
    await screenshot(page, 'expired');
    await page.close();
  });

  it('finishes a manual intent in the frame at its authorisation: onSuccess with REQUIRES_CAPTURE, nothing captured', async () => {
    const { page, log, pageErrors } = await newPage();
    const created = await fetch(`${stack.paygate.url}/v1/payment-intents`, {
      method: 'POST',
      headers: {
        'x-api-key': stack.credentials.secretKey,
        'idempotency-key': `manual-${Date.now()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        amount_minor: 4200,
        currency: 'USD',
        gateway_id: 'sim',
        capture_method: 'manual',
      }),
    });
    assert.equal(created.status, 200);
    const intent = (await created.json()) as { id: string; client_secret: string };
    await syntheticPage(
      page,
      stack.registeredPages,
      '/manual-capture',
      `Paygate(${JSON.stringify(stack.credentials.publishableKey)}).checkout({ clientSecret: ${JSON.stringify(intent.client_secret)}, container: '#checkout', ...callbacks });`,
      `${stack.paygate.url}/checkout/v1/checkout.js`,
    );
    await enterCard(page, CARDS.approve);
    await checkoutFrame(page)
      .getByRole('button', { name: /^Pay \$42\.00$/ })
      .click();
    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type, 'success');
    assert.equal(event.type === 'success' && event.status, 'REQUIRES_CAPTURE');
    await frameState(page, 'succeeded');
    const read = (await stack.intent(intent.id)) as unknown as {
      status: string;
      amount_captured_minor: number;
    };
    assert.equal(read.status, 'REQUIRES_CAPTURE');
    assert.equal(read.amount_captured_minor, 0, 'the frame never captures');
    assertBoundaries(log, CARDS.approve);
    assert.deepEqual(pageErrors, []);
    await page.close();
  });

  it('tells the payer, in their language, that the card is saved for the merchant when the intent saves it, and the payment then saves it', async () => {
    const api = (path: string, body: unknown, key: string) =>
      fetch(`${stack.paygate.url}${path}`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'idempotency-key': `consent-${Math.random()}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      }).then(async (response) => (await response.json()) as Record<string, string>);
    const secret = stack.credentials.secretKey;
    // provisionShop's merchant (examples/shop/src/provision.ts).
    const MERCHANT_NAME = 'Demo shop';
    const customer = await api('/v1/customers', { email: 'payer@example.com' }, secret);
    const intentFor = (extra: Record<string, unknown>) =>
      api(
        '/v1/payment-intents',
        { amount_minor: 1500, currency: 'USD', gateway_id: 'sim', ...extra },
        secret,
      );
    const saving = await intentFor({ customer_id: customer.id, setup_future_usage: 'off_session' });
    const plain = await intentFor({ customer_id: customer.id });
    const consentOf = async (clientSecret: string, locale: string, path: string) => {
      const { page, pageErrors } = await newPage();
      await syntheticPage(
        page,
        stack.registeredPages,
        path,
        `Paygate(${JSON.stringify(stack.credentials.publishableKey)}).checkout({ clientSecret: ${JSON.stringify(clientSecret)}, container: '#checkout', locale: ${JSON.stringify(locale)}, ...callbacks });`,
        `${stack.paygate.url}/checkout/v1/checkout.js`,
      );
      await frameState(page, 'form');
      const consent = checkoutFrame(page).locator('#save-consent');
      const shown = (await consent.count()) === 1 ? await consent.textContent() : null;
      return { page, pageErrors, shown };
    };

    const english = await consentOf(saving.client_secret ?? '', 'en', '/consent-en');
    assert.match(english.shown ?? '', /^By paying, you allow .+ to save this card and charge it later/);
    assert.ok(english.shown?.includes(MERCHANT_NAME), `${english.shown} names the merchant`);
    const pay = checkoutFrame(english.page).getByRole('button', { name: /^Pay \$15\.00$/ });
    const describedBy = (await pay.getAttribute('aria-describedby')) ?? '';
    assert.ok(describedBy.split(' ').includes('save-consent'), 'the Pay button is described by the consent');
    await enterCard(english.page, CARDS.approve);
    await pay.click();
    const [event] = await waitForCheckoutEvents(english.page);
    assert.equal(event?.type, 'success');
    assert.deepEqual(english.pageErrors, []);
    await english.page.close();
    const methods = await fetch(`${stack.paygate.url}/v1/customers/${customer.id}/saved-payment-methods`, {
      headers: { 'x-api-key': secret },
    }).then(async (response) => (await response.json()) as { data: { status: string }[] });
    assert.deepEqual(
      methods.data.map((method) => method.status),
      ['active'],
      'the payment the payer agreed to saved its card',
    );

    const spanish = await consentOf(plain.client_secret ?? '', 'es', '/consent-none');
    assert.equal(spanish.shown, null, 'no consent for an intent that saves nothing');
    await spanish.page.close();
    const savingAgain = await intentFor({ customer_id: customer.id, setup_future_usage: 'off_session' });
    const inSpanish = await consentOf(savingAgain.client_secret ?? '', 'es-MX', '/consent-es');
    assert.match(inSpanish.shown ?? '', /^Al pagar, autorizas a .+ a guardar esta tarjeta/);
    assert.ok(inSpanish.shown?.includes(MERCHANT_NAME));
    await inSpanish.page.close();
  });

  it('reports a wrong client secret as session_invalid, without calling the API from the page', async () => {
    const { page, log } = await newPage();
    const { intentId } = await createOrder();
    const wrongSecret = `${intentId}_secret_${'A'.repeat(24)}`;
    await syntheticPage(
      page,
      stack.registeredPages,
      '/wrong-secret',
      `Paygate(${JSON.stringify(stack.credentials.publishableKey)}).checkout({ clientSecret: ${JSON.stringify(wrongSecret)}, container: '#checkout', ...callbacks });`,
      `${stack.paygate.url}/checkout/v1/checkout.js`,
    );
    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type === 'error' && event.code, 'session_invalid');
    await frameState(page, 'session_invalid');
    await screenshot(page, 'session-invalid');
    const reads = log.filter((r) => r.url.includes(`/v1/payment-intents/${intentId}`));
    assert.equal(reads.length, 1);
    assert.equal(reads[0]?.fromMainFrame, false);
    assert.equal((await stack.intent(intentId)).status, 'CREATED');
    await page.close();
  });

  it('tells a page whose origin is not registered embed_origin_denied', async () => {
    const { page } = await newPage();
    const { payPath } = await createOrder();
    const orderId = /order_\d+/.exec(payPath)?.[0] ?? '';
    const order = stack.shop.orders.get(orderId);
    // Same shop, same keys and secret, but served from an origin the merchant never registered.
    await syntheticPage(
      page,
      stack.strangerPages,
      '/not-registered',
      `Paygate(${JSON.stringify(stack.credentials.publishableKey)}).checkout({ clientSecret: ${JSON.stringify(order?.clientSecret)}, container: '#checkout', ...callbacks });`,
      `${stack.paygate.url}/checkout/v1/checkout.js`,
    );
    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type === 'error' && event.code, 'embed_origin_denied');
    await frameState(page, 'denied');
    await screenshot(page, 'embed-origin-denied');
    await page.close();
  });

  it('gives session_invalid after 10 s when the frame never answers; unmount() twice is harmless', async () => {
    const { page, pageErrors } = await newPage();
    // The page's own clock, paused and moved by the test: the 10 s are exact, whatever the load.
    await page.clock.install({ time: 0 });
    await page.clock.pauseAt(1000);
    const script = await (await fetch(`${stack.paygate.url}/checkout/v1/checkout.js`)).text();
    // A "service" whose frame page loads but never says ready.
    const dead = await startPageServer();
    dead.serve('/checkout/v1/checkout.js', 'text/javascript', script);
    dead.serve('/checkout/v1/frame', 'text/html', '<!doctype html><title>silent</title><p>silent</p>');
    await syntheticPage(
      page,
      stack.registeredPages,
      '/silent-frame',
      `
      window.pk = ${JSON.stringify(stack.credentials.publishableKey)};
      const silent = Paygate(window.pk).checkout({ clientSecret: 'pi_000000000000000000000000_secret_000000000000000000000000', container: '#checkout', ...callbacks });
      const other = Paygate(window.pk).checkout({
        clientSecret: 'pi_000000000000000000000000_secret_000000000000000000000000', container: '#checkout',
        onError: (e) => record('other-error', e), onSuccess: (r) => record('other-success', r),
      });
      other.unmount();
      other.unmount();
      window.framesAfterUnmount = document.querySelectorAll('iframe').length;
      `,
      `${dead.url}/checkout/v1/checkout.js`,
    );
    assert.equal(await page.evaluate('window.framesAfterUnmount'), 1, 'one mount left, the other removed');
    await page.clock.runFor(9_999);
    const seen = () => page.evaluate((): unknown[] => Reflect.get(globalThis, 'shopCheckoutEvents') ?? []);
    assert.deepEqual(await seen(), [], 'nothing before 10 s');
    await page.clock.runFor(1);
    const events = await waitForCheckoutEvents(page, 1);
    assert.deepEqual(
      events.map((e: ShopEvent) => [e.type, e.type === 'error' ? e.code : null]),
      [['error', 'session_invalid']],
    );
    // The unmounted checkout's timer was cleared with it: nothing more arrives, however long.
    await page.clock.runFor(60_000);
    assert.equal((await seen()).length, 1);
    // The key check is immediate and local.
    const refused = await page.evaluate<string>(
      "(() => { try { Paygate('sk_test_' + 'a'.repeat(32)); return 'accepted'; } catch (e) { return e.name; } })()",
    );
    assert.equal(refused, 'PaygateConfigurationError');
    assert.deepEqual(pageErrors, []);
    await page.close();
    await dead.close();
  });

  it('lets the payer cancel with the Cancel button (onCancel), and the shop unmounts the frame', async () => {
    const { page } = await newPage();
    const { payPath } = await createOrder();
    await page.goto(`${stack.shop.url}${payPath}`);
    await frameState(page, 'form');
    await checkoutFrame(page).getByRole('button', { name: 'Cancel' }).click();
    const [event] = await waitForCheckoutEvents(page);
    assert.equal(event?.type, 'cancel');
    await page.locator(FRAME).waitFor({ state: 'detached' });
    await page.close();
  });
});
