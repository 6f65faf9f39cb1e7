import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './support/browser.ts';
import { englishOnlyTexts, visibleText } from './support/catalogue-texts.ts';
import { type DashboardUser, dashboardRequest, firstOwner, signIn } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { answer, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

/**
 * The webhooks and embedding-domains forms with JavaScript disabled: each is a plain form post
 * that redirects to the page showing the new state with a status line (checked against the JSON
 * API), rotating the secret goes through a confirmation stating the old secret's last moment, and
 * a refusal comes back on the page, in Spanish on a Spanish page, with what was typed kept.
 */
for (const kind of databaseKinds()) {
  describe(`the webhooks and embedding-domains forms without JavaScript (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let receiver: WebhookReceiver;
    let endpointUrl: string;
    let endpointPath: string;
    let endpointId: string;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Plain forms shop');
      await firstOwner(svc, merchant.id, 'owner@plain-forms.example');
      receiver = await startWebhookReceiver(answer(200, 'ok'));
      endpointUrl = `${receiver.url}/plain`;
      browser = await launchChromium();
      context = await browser.newContext({ javaScriptEnabled: false });
      // Signing in is another form's (not this test's): the session of an API sign-in is used.
      owner = await signIn(svc, 'owner@plain-forms.example');
      const [name, value] = owner.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: `${svc.baseUrl}/dashboard` }]);
      page = await context.newPage();
    });
    after(async () => {
      await context?.close();
      await browser?.close();
      await receiver?.close();
      await svc?.close();
    });

    const api = async (path: string) => {
      const response = await dashboardRequest(svc, owner, 'GET', `/dashboard/api/v1${path}`);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    const status = () => page.getByRole('status').first().textContent();
    const alert = (within = page.locator('main')) => within.getByRole('alert').textContent();

    it('adds an endpoint: its secret once, then its page', async () => {
      await page.goto(`${svc.baseUrl}/dashboard/test/webhooks?lang=en`);
      await page.getByLabel('URL').fill('ftp://nowhere.example/hooks');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      // Refused on the page, the field named, what was typed kept; nothing added.
      assert.equal(await alert(), 'url: must use https');
      assert.equal(await page.getByLabel('URL').inputValue(), 'ftp://nowhere.example/hooks');
      assert.deepEqual((await api('/test/webhook-endpoints')).data, []);

      await page.getByLabel('URL').fill(endpointUrl);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = (await page.locator('code.secret').textContent()) ?? '';
      assert.match(secret, /^whsec_/);
      const [created] = (await api('/test/webhook-endpoints')).data;
      assert.equal(created.url, endpointUrl);
      endpointId = created.id;
      await page.getByRole('link', { name: 'Go to the endpoint' }).click();
      endpointPath = new URL(page.url()).pathname;
      assert.equal(endpointPath, `/dashboard/test/webhooks/${endpointId}`);
    });

    it('edits the URL and the events, and refuses none ticked', async () => {
      await page.getByLabel('All events (also future ones)').uncheck();
      await page.getByRole('button', { name: 'Save events' }).click();
      assert.equal(await alert(), 'enabled_events: must name at least one event type');
      await page.getByLabel('refund.succeeded', { exact: true }).check();
      await page.getByLabel('payment_intent.failed', { exact: true }).check();
      await page.getByLabel('URL', { exact: true }).fill(`${endpointUrl}/v2`);
      await page.getByRole('button', { name: 'Save events' }).click();
      await page.waitForURL(/\?.*saved=1/);
      assert.equal(await status(), `Saved: the endpoint sends the events listed below to ${endpointUrl}/v2.`);
      const saved = await api(`/test/webhook-endpoints/${endpointId}`);
      assert.equal(saved.url, `${endpointUrl}/v2`);
      assert.deepEqual([...saved.enabled_events].sort(), ['payment_intent.failed', 'refund.succeeded']);
    });

    it('rotates the secret through a confirmation that names the old secret’s last moment', async () => {
      await page.getByLabel('Old secret keeps signing for').selectOption('3600');
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.waitForURL(/\/rotate-secret\?/);
      const details = (await page.locator('main ul').textContent()) ?? '';
      assert.match(details, /shown once/);
      assert.match(details, /stays valid beside it until .+ \(1 hour\)/);
      assert.equal(await page.locator('code.secret').count(), 0, 'nothing changes before the button');
      assert.equal((await api(`/test/webhook-endpoints/${endpointId}`)).rotation_started_at, null);
      await page.getByRole('button', { name: `Rotate the secret of ${endpointUrl}/v2` }).click();
      assert.match((await page.locator('code.secret').textContent()) ?? '', /^whsec_/);
      const rotated = await api(`/test/webhook-endpoints/${endpointId}`);
      assert.ok(rotated.rotation_started_at);
      assert.equal(
        Date.parse(rotated.rotation_expires_at) - Date.parse(rotated.rotation_started_at),
        3600_000,
      );
      await page.getByRole('link', { name: 'Back to the endpoint' }).click();
      assert.match((await status()) ?? '', /^Rotation open/);

      await page.getByRole('button', { name: 'Close rotation now' }).click();
      await page.waitForURL(/rotation_closed=1/);
      assert.equal(await status(), 'Rotation closed: only the new secret signs from now on.');
      assert.equal((await api(`/test/webhook-endpoints/${endpointId}`)).rotation_started_at, null);
    });

    it('sends a test event to its delivery page, retries it, and resends failed deliveries', async () => {
      await page.getByLabel('Event type').selectOption('refund.succeeded');
      await page.getByRole('button', { name: 'Send: Send a test event' }).click();
      await page.waitForURL(/\/webhooks\/deliveries\/wd_\w+\?.*test_event=1/);
      const deliveryId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
      const delivery = await api(`/test/webhook-deliveries/${deliveryId}`);
      assert.equal(delivery.event_type, 'refund.succeeded');
      assert.equal(
        await status(),
        `Test event ${delivery.event_id} queued for this endpoint; its delivery is below.`,
      );

      await page.getByRole('button', { name: 'Retry now' }).click();
      await page.waitForURL(/retried=1/);
      assert.equal(await status(), 'Attempted now; the delivery is Delivered.');
      assert.equal((await api(`/test/webhook-deliveries/${deliveryId}`)).status, 'DELIVERED');
      assert.equal(receiver.received.length, 1);

      await page.goto(`${svc.baseUrl}${endpointPath}?lang=en`);
      await page.getByLabel('Created since (ISO 8601)').fill('yesterday');
      await page.getByRole('button', { name: 'Resend FAILED deliveries' }).click();
      assert.equal(await alert(), 'since: must be an ISO 8601 instant');
      assert.equal(await page.getByLabel('Created since (ISO 8601)').inputValue(), 'yesterday');
      await page.getByLabel('Created since (ISO 8601)').fill('2020-01-01T00:00:00Z');
      await page.getByRole('button', { name: 'Resend FAILED deliveries' }).click();
      await page.waitForURL(/resent=0/);
      assert.equal(await status(), '0 FAILED deliveries queued again.');
    });

    it('disables through its confirmation and enables by a plain post', async () => {
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: `Disable ${endpointUrl}/v2` }).click();
      await page.waitForURL(/disabled=1/);
      assert.equal((await api(`/test/webhook-endpoints/${endpointId}`)).status, 'disabled');
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.waitForURL(/enabled=1/);
      assert.equal(await status(), 'Endpoint enabled; new events are sent to it again.');
      assert.equal((await api(`/test/webhook-endpoints/${endpointId}`)).status, 'enabled');
    });

    it('refuses in Spanish on a Spanish page, with no text of the English catalogue', async () => {
      const english = englishOnlyTexts();
      const spanishOnly = async () => {
        const shown = await visibleText(page);
        assert.deepEqual(
          english.filter((text) => shown.includes(text)),
          [],
          `English on the Spanish page ${page.url()}`,
        );
      };
      await page.goto(`${svc.baseUrl}${endpointPath}?lang=es`);
      await page.getByLabel('Creadas desde (ISO 8601)').fill('ayer');
      await page.getByRole('button', { name: 'Reenviar las entregas FAILED' }).click();
      assert.equal(await alert(), 'desde: debe ser un instante ISO 8601');
      assert.equal(await page.getAttribute('html', 'lang'), 'es');
      await spanishOnly();

      // A second rotation while one is open: the confirmation page says why, in Spanish.
      await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/webhook-endpoints/${endpointId}/rotate-secret`,
        {},
      );
      await page.goto(`${svc.baseUrl}${endpointPath}/rotate-secret?lang=es&expires_in_seconds=3600`);
      assert.equal(
        await alert(),
        'Ya hay una rotación de secreto abierta en este endpoint; ciérrala antes de rotar de nuevo.',
      );
      await spanishOnly();

      await page.goto(`${svc.baseUrl}/dashboard/embed-domains?lang=es`);
      await page.getByLabel('Origen').fill('https://*.tienda.example');
      await page.getByRole('button', { name: 'Añadir dominio' }).click();
      assert.match((await alert()) ?? '', /^origen: debe nombrar un único host exacto/);
      assert.equal(await page.getByLabel('Origen').inputValue(), 'https://*.tienda.example');
      await spanishOnly();
    });

    it('adds an embedding domain, and removes it through a confirmation', async () => {
      await page.goto(`${svc.baseUrl}/dashboard/embed-domains?lang=en`);
      await page.getByLabel('Origin').fill('https://shop.example');
      await page.getByRole('button', { name: 'Add domain' }).click();
      await page.waitForURL(/added=/);
      assert.equal(await status(), 'Added https://shop.example: the checkout may be embedded there.');
      const listed = async () => (await api('/embed-domains')).data.map((d: { origin: string }) => d.origin);
      assert.deepEqual(await listed(), ['https://shop.example']);

      await page.getByRole('button', { name: 'Remove https://shop.example' }).click();
      await page.waitForURL(/\/embed-domains\/remove\?/);
      assert.equal(
        await page.locator('main .statement').textContent(),
        'Remove the embedding domain https://shop.example.',
      );
      assert.deepEqual(await listed(), ['https://shop.example'], 'nothing changes before the button');
      await page.getByRole('button', { name: 'Remove https://shop.example' }).click();
      await page.waitForURL(/removed=/);
      assert.equal(await status(), 'Removed https://shop.example: the checkout frame is refused there.');
      assert.deepEqual(await listed(), []);
    });
  });
}
