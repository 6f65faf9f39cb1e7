import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { sendQueuedMail } from '../src/app/mail/send-queued-mail.ts';
import { createSmtpMailer, type Mailer } from '../src/mail/mailer.ts';
import { createDeliveryWorker, type DeliveryWorker, silentLogger } from '../src/webhooks/delivery-worker.ts';
import { launchChromium, screenshotsFor, seriousViolations } from './support/browser.ts';
import { firstOwner, TEST_PASSWORD, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, type MerchantKeys, startTestService, type TestService } from './support/service.ts';
import { type SmtpReceiver, startSmtpReceiver } from './support/smtp-receiver.ts';
import { answer, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

for (const kind of databaseKinds()) {
  const shots = screenshotsFor(kind);
  describe(`the webhooks pages in headless Chromium (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let merchant: MerchantKeys;
    let worker: DeliveryWorker;
    let receiver: WebhookReceiver;
    let smtp: SmtpReceiver;
    let mailer: Mailer;
    let page: Page;
    let endpointUrl: string;
    let firstSecret: string;
    let testEventId: string;
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Hooks browser shop');
      const owner = await firstOwner(svc, merchant.id, 'owner@hooks-browser.example');
      await teamMember(svc, owner, 'viewer@hooks-browser.example', 'viewer');
      worker = createDeliveryWorker(svc.ctx);
      receiver = await startWebhookReceiver(answer(500, 'receiver is down', { 'x-receiver': 'test' }));
      endpointUrl = `${receiver.url}/browser`;
      smtp = await startSmtpReceiver();
      mailer = createSmtpMailer({ url: smtp.url, from: 'alerts@paygate.test' });
      // The two invitation mails go first, so the alert below is the only message counted.
      assert.equal(await sendQueuedMail(svc.ctx, mailer, { limit: 10, logger: silentLogger }), 2);
      smtp.received.length = 0;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });
    });
    after(async () => {
      await browser?.close();
      await worker?.stop();
      mailer?.close();
      await Promise.all([receiver?.close(), smtp?.close()]);
      await svc?.close();
    });

    async function signIn(email: string): Promise<void> {
      await page.goto(`${svc.baseUrl}/dashboard/sign-in?lang=en`);
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/test\/payments/);
    }
    const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
    const endpointPage = () =>
      page
        .goto(`${svc.baseUrl}/dashboard/test/webhooks?lang=en`)
        .then(() => page.getByRole('link', { name: endpointUrl }).first().click());

    it('adds an endpoint, edits its events, reveals and rotates its secret', async () => {
      await signIn('owner@hooks-browser.example');
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('URL').fill(endpointUrl);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      // The answer of the add is the secret, shown once on its own page.
      firstSecret = (await page.locator('code.secret').textContent()) ?? '';
      assert.match(firstSecret, /^whsec_/);

      await endpointPage();
      await page.getByRole('heading', { name: 'Signing secret' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'endpoint page');
      await page.getByLabel('All events (also future ones)').uncheck();
      await page.getByLabel('payment_intent.succeeded', { exact: true }).check();
      await page.getByLabel('refund.succeeded', { exact: true }).check();
      await page.getByRole('button', { name: 'Save events' }).click();
      await status('Saved: the endpoint').waitFor();
      await page.reload();
      assert.match(
        (await page.locator('main dl').textContent()) ?? '',
        /payment_intent\.succeeded, refund\.succeeded/,
      );

      await page.getByRole('button', { name: 'Reveal secret' }).click();
      // A confirmation first (who sees it can sign events; the reveal is audited), then the secret once.
      await page.waitForURL(/\/reveal-secret\?/);
      assert.equal(
        await page.locator('main .statement').textContent(),
        `Show the signing secret of ${endpointUrl}.`,
      );
      assert.equal(await page.locator('code.secret').count(), 0, 'nothing shown before the button');
      await page.getByRole('button', { name: 'Show the secret' }).click();
      assert.equal(await page.locator('code.secret').textContent(), firstSecret);
      await page.getByRole('link', { name: 'Back to the endpoint' }).click();

      await page.getByRole('button', { name: 'Rotate secret' }).click();
      // A confirmation first (the old secret's last moment, the new one shown once), then the secret.
      await page.waitForURL(/\/rotate-secret\?/);
      await page.getByRole('button', { name: `Rotate the secret of ${endpointUrl}` }).click();
      const newSecret = await page.locator('code.secret').textContent();
      assert.ok(newSecret?.startsWith('whsec_') && newSecret !== firstSecret);
      await page.getByRole('link', { name: 'Back to the endpoint' }).click();
      await status('Rotation open').waitFor();
      const expiry = Date.parse(
        (await page
          .locator('main dl dd', { hasText: 'Open until' })
          .locator('time')
          .getAttribute('datetime')) ?? '',
      );
      const hoursOpen = (expiry - svc.clock.now().getTime()) / 3600_000;
      assert.ok(hoursOpen > 23.9 && hoursOpen <= 24, `rotation open for ${hoursOpen} h`);
      await page.getByRole('button', { name: 'Close rotation now' }).click();
      await status('Rotation closed').waitFor();
      await page.reload();
      assert.match((await page.locator('main dl').textContent()) ?? '', /None open/);
    });

    it('sends a test event, finds it in the delivery log and shows what its attempt exchanged', async () => {
      await page.getByLabel('Event type').selectOption('refund.succeeded');
      await page.getByRole('button', { name: 'Send: Send a test event' }).click();
      testEventId = ((await status('Test event').textContent()) ?? '').match(/evt_\w+/)?.[0] ?? '';
      assert.ok(testEventId);
      assert.equal(await worker.runOnce(), 1);

      await page.goto(`${svc.baseUrl}/dashboard/test/webhooks?lang=en`);
      await page.getByLabel('Event id').fill(testEventId);
      await page.getByLabel('State').selectOption('PENDING');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/event_id=/);
      const log = page.getByRole('table', { name: 'Delivery log' });
      assert.equal(await log.locator('tbody tr').count(), 1);
      assert.match((await log.textContent()) ?? '', /refund\.succeeded/);
      await page.getByLabel('State').selectOption('DELIVERED');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('No deliveries match.').waitFor();
      await page.getByLabel('State').selectOption('');
      await page.getByLabel('Type').selectOption('refund.succeeded');
      await page.getByRole('button', { name: 'Search' }).click();
      await log.locator('tbody a').first().click();
      await page.waitForURL(/\/webhooks\/deliveries\/wd_/);
      const attempt = page.getByRole('region', { name: 'Attempt 1' });
      const shown = (await attempt.textContent()) ?? '';
      assert.match(shown, /500/);
      assert.match(shown, /receiver is down/);
      assert.match(shown, /x-receiver: test/);
      assert.match(shown, /service-signature: t=\d+,v1=[0-9a-f]{64}/);
      assert.match(shown, /user-agent: Paygate-Webhooks\/1\.0\.0/);
      assert.deepEqual(await seriousViolations(page), [], 'delivery page');
      await page.screenshot({ path: `${shots}dashboard-webhook-delivery.png`, fullPage: true });
    });

    it('shows the failing banner on every page and mails the owner; a manual retry then succeeds', async () => {
      // A day of failures: the endpoint is failing from 24 hours on (the first failure's clock).
      svc.clock.advance(24 * 3600 + 5);
      const sent = await svc.request({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${(await svc.ctx.db.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE url = $1', [endpointUrl])).rows[0]?.id}/send-test-event`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: {},
      });
      assert.equal(sent.statusCode, 200, sent.body);
      await worker.runOnce();
      assert.equal(await sendQueuedMail(svc.ctx, mailer, { limit: 10, logger: silentLogger }), 1);
      assert.deepEqual(
        smtp.received.map((m) => [m.to, m.subject]),
        [[['owner@hooks-browser.example'], 'Paygate: a webhook endpoint is failing']],
      );

      await signIn('owner@hooks-browser.example'); // the day also ended the session
      const banner = page.getByRole('region', { name: 'Webhook endpoints that need attention' });
      assert.match((await banner.textContent()) ?? '', new RegExp(`is failing: ${endpointUrl}`));
      assert.deepEqual(await seriousViolations(page), [], 'payments page with the banner');
      await page.goto(`${svc.baseUrl}/dashboard/team?lang=en`);
      await banner.waitFor();
      await page.goto(`${svc.baseUrl}/dashboard/test/webhooks?lang=en`);
      await banner.waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'webhooks page with the banner');
      await page.screenshot({ path: `${shots}dashboard-webhooks-failing.png`, fullPage: true });

      receiver.respondWith(answer(200, 'ok'));
      await page.getByLabel('Event id').fill(testEventId);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('table', { name: 'Delivery log' }).locator('tbody a').first().click();
      await page.getByRole('button', { name: 'Retry now' }).click();
      await status('the delivery is Delivered').waitFor();
      await page.reload();
      assert.equal(await banner.count(), 0, 'a success clears the failure and the banner');
      assert.match((await page.locator('main dl').first().textContent()) ?? '', /Delivered/);
    });

    it('speaks Spanish on the webhooks pages, and offers a viewer no secret and no actions', async () => {
      await endpointPage();
      const endpointPath = new URL(page.url()).pathname;
      await page.goto(`${svc.baseUrl}${endpointPath}?lang=es`);
      await page.getByRole('heading', { name: 'Secreto de firma' }).waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'es');
      assert.deepEqual(await seriousViolations(page), [], 'endpoint page (es)');
      await page.goto(`${svc.baseUrl}${endpointPath}?lang=en`);
      await page.screenshot({ path: `${shots}dashboard-webhook-endpoint.png`, fullPage: true });

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/dashboard\/sign-in/);
      await signIn('viewer@hooks-browser.example');
      await page.goto(`${svc.baseUrl}${endpointPath}?lang=en`);
      await page.getByText('Enabled events').first().waitFor();
      assert.equal(await page.getByRole('button', { name: 'Reveal secret' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Rotate secret' }).count(), 0);
    });

    it('ran every page without a script error or a CSP violation', () => {
      assert.deepEqual(
        pageErrors.filter((e) => !/401|Failed to load resource/.test(e)),
        [],
      );
    });
  });
}
