import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { totpCodeAt } from '../src/domain/totp.ts';
import { launchChromium, screenshotsFor, seriousViolations } from './support/browser.ts';
import { firstOwner, TEST_PASSWORD } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { eventually } from './support/eventually.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const OWNER = 'owner@rest-browser.example';

for (const kind of databaseKinds()) {
  const shots = screenshotsFor(kind);
  describe(`dashboard overview, payments, keys, domains, second factor and clients in headless Chromium (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let merchant: MerchantKeys;
    let paid: IntentJson;
    let other: IntentJson;
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Rest browser shop');
      await firstOwner(svc, merchant.id, OWNER);
      const pay = paymentHelpers(svc, () => merchant);
      paid = await pay.create({ amount_minor: 4200, metadata: { order: 'ORD-7', note: '=cmd|calc' } });
      await pay.confirm(paid.id, { payment_method_token: 'tok_sim_approve' });
      other = await pay.create({ amount_minor: 990, currency: 'EUR', metadata: { order: 'ORD-8' } });
      await pay.confirm(other.id, { payment_method_token: 'tok_sim_decline' });
      const refund = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey() },
        body: { payment_intent_id: paid.id, amount_minor: 1000 },
      });
      assert.equal(refund.statusCode, 200, refund.body);
      await svc.request({
        method: 'GET',
        url: '/v1/transactions',
        key: merchant.secretTest,
        headers: { 'user-agent': 'paygate-python/1.0.0 python/3.12.1' },
      });
      await svc.app.clientTelemetry.flush();
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    async function newPage(): Promise<Page> {
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 }, acceptDownloads: true });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });
      return page;
    }

    async function signIn(page: Page, code?: string): Promise<void> {
      await page.goto(`${svc.baseUrl}/dashboard/sign-in?lang=en`);
      await page.getByLabel('E-mail address').fill(OWNER);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      if (code) await page.getByLabel('Authentication code or recovery code').fill(code);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/test\/payments/);
    }

    it('shows the overview with its chart and table, in English and Spanish', async () => {
      const page = await newPage();
      await signIn(page);
      await page.getByRole('link', { name: 'Overview' }).click();
      await page.waitForURL(/\/dashboard\/test\/overview/);
      // One panel per currency with payments; the first (EUR, a failed payment) shows until a tab is chosen.
      await page.getByRole('img', { name: /Volume over the last 30 days \(EUR\)/ }).waitFor();
      await page.getByRole('navigation', { name: 'Currency' }).getByRole('link', { name: 'USD' }).click();
      await page.getByRole('img', { name: /Volume over the last 30 days \(USD\)/ }).waitFor();
      assert.match((await page.locator('main table').first().textContent()) ?? '', /\$42\.00/);
      assert.deepEqual(await seriousViolations(page), [], 'overview');
      await page.screenshot({ path: `${shots}dashboard-overview.png`, fullPage: true });
      await page.goto(`${svc.baseUrl}/dashboard/test/overview?lang=es`);
      await page.getByRole('heading', { name: 'Resumen' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'overview (es)');
      await page.getByRole('link', { name: 'Datos reales' }).click();
      await page.waitForURL(/\/dashboard\/live\/overview/);
      await page.close();
    });

    it('searches payments by metadata and downloads the same list as CSV', async () => {
      const page = await newPage();
      await signIn(page);
      await page.getByLabel('Metadata key').fill('order');
      await page.getByLabel('Metadata value').fill('ORD-7');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/metadata_value=ORD-7/);
      await page.getByRole('link', { name: paid.id }).waitFor();
      assert.equal(await page.getByRole('link', { name: other.id }).count(), 0);
      assert.deepEqual(await seriousViolations(page), [], 'payments search');
      await page.screenshot({ path: `${shots}dashboard-payments-search.png`, fullPage: true });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download CSV' }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^payments-test-.*\.csv$/);
      const csv = await readFile((await download.path()) as string, 'utf8');
      const lines = csv.trimEnd().split('\r\n');
      assert.equal(lines.length, 2, csv);
      assert.match(lines[1] ?? '', new RegExp(`^${paid.id},.*,SUCCEEDED,4200,USD,1000,sim,false,`));
      await page.close();
    });

    it('shows a payment with its timeline, attempts and events', async () => {
      const page = await newPage();
      await signIn(page);
      await page.goto(`${svc.baseUrl}/dashboard/test/payments/${paid.id}?lang=en`);
      await page.getByRole('heading', { name: 'Status timeline' }).waitFor();
      assert.match((await page.locator('ol.timeline').textContent()) ?? '', /Created.*Succeeded/s);
      assert.match((await page.locator('main').textContent()) ?? '', /refund\.succeeded/);
      assert.deepEqual(await seriousViolations(page), [], 'payment page');
      await page.screenshot({ path: `${shots}dashboard-payment-detail.png`, fullPage: true });
      await page.close();
    });

    it('rolls and revokes an API key; the revoked key is refused by the API', async () => {
      const page = await newPage();
      await signIn(page);
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.waitForURL(/\/dashboard\/test\/api-keys/);
      await page.getByRole('button', { name: 'Create a key' }).click();
      // The page the post redirects to shows the new key once, beside its hint.
      const created = page.getByRole('status').locator('code.secret');
      await created.waitFor();
      const key = (await created.textContent()) as string;
      assert.match(key, /^sk_test_[0-9A-Za-z]+$/);
      assert.equal((await svc.request({ method: 'GET', url: '/v1/transactions', key })).statusCode, 200);
      await page.reload();
      const hint = (await page.locator('tbody tr').first().locator('code').textContent()) ?? '';
      await page.getByRole('button', { name: `Roll ${hint}` }).click();
      // The confirmation says what the roll does to the old key (24 hours by default) before anything changes.
      await page.waitForURL(/\/api-keys\/key_\w+\/roll\?/);
      assert.equal(
        await page.locator('main .statement').textContent(),
        `Roll the secret key ${hint}: a new key replaces it.`,
      );
      assert.match((await page.locator('main ul').textContent()) ?? '', /keeps working for 1 day, until/);
      await page.getByRole('button', { name: `Roll ${hint}` }).click();
      const replacement = (await page.locator('code.secret').textContent()) as string;
      assert.match(replacement, /^sk_test_[0-9A-Za-z]+$/);
      assert.notEqual(replacement, key);
      assert.equal(
        (await svc.request({ method: 'GET', url: '/v1/transactions', key })).statusCode,
        200,
        'grace period',
      );
      await page.getByRole('link', { name: 'Back to API keys' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Key rolled: ${hint}` })
        .waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'API keys page');
      await page.screenshot({ path: `${shots}dashboard-api-keys.png`, fullPage: true });
      const newHint = (await page.locator('tbody tr').first().locator('code').textContent()) ?? '';
      assert.match((await page.locator('tbody').textContent()) ?? '', /All permissions/);
      assert.ok((await page.locator('option').allTextContents()).includes('1 hour'), 'no "1 hours"');
      await page.getByRole('button', { name: `Revoke ${newHint}` }).click();
      // A confirmation names the key first; nothing is revoked until its button.
      await page.waitForURL(/\/api-keys\/key_\w+\/revoke\?/);
      assert.equal(await page.locator('main .statement').textContent(), `Revoke the secret key ${newHint}.`);
      assert.equal(
        (await svc.request({ method: 'GET', url: '/v1/transactions', key: replacement })).statusCode,
        200,
      );
      assert.deepEqual(await seriousViolations(page), [], 'revoke confirmation');
      await page.getByRole('button', { name: `Revoke ${newHint}` }).click();
      await page.waitForURL(/\/api-keys\?revoked=/);
      await page.getByRole('status').filter({ hasText: 'Key revoked' }).waitFor();
      assert.equal(
        await page.getByRole('button', { name: `Revoke ${newHint}` }).count(),
        0,
        'shown revoked at once',
      );
      await eventually(
        'the revoked key refused',
        async () =>
          (await svc.request({ method: 'GET', url: '/v1/transactions', key: replacement })).statusCode,
        (status) => status === 401,
        { timeoutMs: 5000 },
      );
      await page.close();
    });

    it('adds and removes an embedding domain', async () => {
      const page = await newPage();
      await signIn(page);
      await page.getByRole('link', { name: 'Embedding domains' }).click();
      await page.getByLabel('Origin').fill('https://shop.example');
      await page.getByRole('button', { name: 'Add domain' }).click();
      await page.getByRole('status').filter({ hasText: 'Added https://shop.example' }).waitFor();
      await page.reload();
      assert.deepEqual(await seriousViolations(page), [], 'embedding domains page');
      await page.screenshot({ path: `${shots}dashboard-embed-domains.png` });
      await page.getByRole('button', { name: 'Remove https://shop.example' }).click();
      // Removing stops the checkout on that site: a confirmation says so, then its button removes.
      await page.waitForURL(/\/embed-domains\/remove\?/);
      await page.getByRole('button', { name: 'Remove https://shop.example' }).click();
      await page.getByRole('status').filter({ hasText: 'Removed https://shop.example' }).waitFor();
      await page.reload();
      await page.getByText('No embedding domains').waitFor();
      await page.close();
    });

    it('lists the clients that called the API', async () => {
      const page = await newPage();
      await signIn(page);
      await page.getByRole('link', { name: 'Clients' }).click();
      await page.getByRole('cell', { name: 'paygate-python' }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'clients page');
      await page.screenshot({ path: `${shots}dashboard-clients.png` });
      await page.close();
    });

    it('turns on two-step sign-in and then signs in with a code from the secret', async () => {
      const page = await newPage();
      await signIn(page);
      await page.getByRole('link', { name: 'Two-step sign-in' }).click();
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      await page.getByRole('img', { name: 'QR code of the authenticator key' }).waitFor();
      const secret = ((await page.locator('[data-totp-secret]').textContent()) ?? '').trim();
      assert.deepEqual(await seriousViolations(page), [], 'second factor enrolment');
      await page.screenshot({ path: `${shots}dashboard-totp.png`, fullPage: true });
      await page.getByLabel('Authentication code').fill(totpCodeAt(secret, svc.clock.now()));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('status').filter({ hasText: 'recovery codes' }).waitFor();
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/dashboard\/sign-in/);
      // Without the code the sign-in is refused and says why; with the next step's code it works.
      await page.getByLabel('E-mail address').fill(OWNER);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Two-step sign-in is on' }).waitFor();
      svc.clock.advance(30);
      await signIn(page, totpCodeAt(secret, svc.clock.now()));
      await page.close();
    });

    it('ran every page without a script error or a CSP violation', () => {
      assert.deepEqual(
        pageErrors.filter((e) => !/401|Failed to load resource/.test(e)),
        [],
      );
    });
  });
}
