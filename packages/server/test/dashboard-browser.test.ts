import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshotsFor, seriousViolations } from './support/browser.ts';
import {
  dashboardRequest,
  firstOwner,
  signIn as signInApi,
  TEST_PASSWORD,
  teamMember,
} from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  const shots = screenshotsFor(kind);
  describe(`dashboard pages in headless Chromium (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let merchant: MerchantKeys;
    let paid: IntentJson;
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Browser shop');
      const owner = await firstOwner(svc, merchant.id, 'owner@browser.example');
      await teamMember(svc, owner, 'viewer@browser.example', 'viewer');
      await teamMember(svc, owner, 'helper@browser.example', 'developer');
      const pay = paymentHelpers(svc, () => merchant);
      paid = await pay.create({ amount_minor: 4200 });
      assert.equal(
        (await pay.confirm(paid.id, { payment_method_token: 'tok_sim_approve' })).json().status,
        'SUCCEEDED',
      );
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    async function newPage(): Promise<Page> {
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });
      return page;
    }

    async function signIn(page: Page, email: string, lang = 'en'): Promise<void> {
      await page.goto(`${svc.baseUrl}/dashboard?lang=${lang}`);
      assert.match(page.url(), /\/dashboard\/sign-in/);
      await page.getByLabel(lang === 'es' ? 'Correo electrónico' : 'E-mail address').fill(email);
      await page.getByLabel(lang === 'es' ? 'Contraseña' : 'Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: lang === 'es' ? 'Iniciar sesión' : 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/test\/payments/);
    }

    it('signs in, and a wrong password is announced on the sign-in page', async () => {
      const page = await newPage();
      await page.goto(`${svc.baseUrl}/dashboard/sign-in?lang=en`);
      assert.deepEqual(await seriousViolations(page), [], 'sign-in page');
      await page.screenshot({ path: `${shots}dashboard-sign-in.png` });
      await page.getByLabel('E-mail address').fill('owner@browser.example');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor();
      await signIn(page, 'owner@browser.example');
      await page.getByRole('link', { name: paid.id }).waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'payments page');
      await page.screenshot({ path: `${shots}dashboard-payments.png` });
      await page.close();
    });

    it('captures part of an authorisation from the To capture list through a confirmation stating amount and currency', async () => {
      const pay = paymentHelpers(svc, () => merchant);
      const manual = await pay.create({ amount_minor: 8000, currency: 'EUR', capture_method: 'manual' });
      assert.equal(
        (await pay.confirm(manual.id, { payment_method_token: 'tok_sim_approve' })).json().status,
        'REQUIRES_CAPTURE',
      );
      const page = await newPage();
      await signIn(page, 'owner@browser.example');
      await page.getByRole('link', { name: 'To capture' }).click();
      await page.waitForURL(/status=REQUIRES_CAPTURE/);
      await page.getByRole('link', { name: manual.id }).click();
      await page.waitForURL(new RegExp(`/payments/${manual.id}\\?`));
      assert.match((await page.locator('main dl').textContent()) ?? '', /Authorised\s*€80\.00/);
      assert.deepEqual(await seriousViolations(page), [], 'payment page of an authorisation');
      await page.getByLabel('Amount to capture (EUR)').fill('50');
      await page.getByRole('button', { name: 'Review the capture' }).click();
      await page.waitForURL(/\/capture\?/);
      const statement = (await page.locator('main .statement').textContent()) ?? '';
      assert.equal(statement, `Capture €50.00 (EUR) of the €80.00 authorised on ${manual.id}.`);
      assert.deepEqual(await seriousViolations(page), [], 'capture confirmation');
      assert.equal((await pay.retrieve(manual.id)).status, 'REQUIRES_CAPTURE', 'nothing moved yet');
      await page.getByRole('button', { name: 'Capture €50.00' }).click();
      await page.waitForURL(new RegExp(`/payments/${manual.id}\\?.*captured=1`));
      await page.getByRole('status').filter({ hasText: 'Captured €50.00.' }).waitFor();
      const facts = (await page.locator('main dl').textContent()) ?? '';
      assert.match(facts, /Captured\s*€50\.00/);
      assert.match(facts, /Released\s*€30\.00/);
      // A refund takes at most what the capture took.
      await page.getByRole('button', { name: 'Refund the rest (€50.00)' }).waitFor();
      await page.screenshot({ path: `${shots}dashboard-payment-capture.png` });
      assert.equal((await pay.retrieve(manual.id)).amount_captured_minor, 5000);
      await page.close();
    });

    it('refunds from the payment page through a confirmation, by keyboard, and shows the new state at once', async () => {
      const page = await newPage();
      await signIn(page, 'owner@browser.example');
      await page.getByRole('link', { name: paid.id }).click();
      await page.waitForURL(new RegExp(`/payments/${paid.id}`));
      assert.deepEqual(await seriousViolations(page), [], 'payment page');
      const amount = page.getByLabel('Amount to refund');
      assert.equal(await amount.inputValue(), '', 'the refund form starts empty');
      await page.getByRole('button', { name: 'Refund the rest ($42.00)' }).waitFor();
      await amount.fill('12.005');
      await amount.press('Enter');
      await page.getByRole('alert').filter({ hasText: "USD has 2 decimals; '12.005' has 3" }).waitFor();
      await page.goBack();
      await page.getByLabel('Amount to refund').fill('12');
      await page.getByLabel('Amount to refund').press('Enter');
      await page.waitForURL(/\/refund\?/);
      const statement = (await page.locator('main .statement').textContent()) ?? '';
      assert.equal(statement, `Refund $12.00 of $42.00 on ${paid.id}.`);
      assert.deepEqual(await seriousViolations(page), [], 'refund confirmation');
      // Nothing moved yet: the confirmation only states what will happen.
      const before = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${paid.id}`,
        key: merchant.secretTest,
      });
      assert.equal(before.json().amount_refunded_minor, 0);
      await page.getByRole('button', { name: 'Refund $12.00' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`/payments/${paid.id}\\?.*refund=re_`));
      await page
        .getByRole('status')
        .filter({ hasText: /\$12\.00, SUCCEEDED/ })
        .waitFor();
      assert.match((await page.locator('main dl').textContent()) ?? '', /Refunded\s*\$12\.00/);
      await page.screenshot({ path: `${shots}dashboard-payment-refund.png` });
      const intent = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${paid.id}`,
        key: merchant.secretTest,
      });
      assert.equal(intent.json().amount_refunded_minor, 1200);
      // Back to the confirmation: it is asked again (never cached), so it states the new state.
      await page.goBack();
      await page.getByText('Already refunded: $12.00.').waitFor();
      await page.getByText('After this refund, $18.00 remains refundable.').waitFor();
      await page.close();
    });

    it('refunds the rest without JavaScript: confirmation, POST, redirect to the new state', async () => {
      const pay = paymentHelpers(svc, () => merchant);
      const rest = await pay.create({ amount_minor: 2500, currency: 'EUR' });
      await pay.confirm(rest.id, { payment_method_token: 'tok_sim_approve' });
      const first = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey() },
        body: { payment_intent_id: rest.id, amount_minor: 500 },
      });
      assert.equal(first.statusCode, 200, first.body);
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      // Signing in needs the script; the session cookie of an API sign-in is used instead.
      const owner = await signInApi(svc, 'owner@browser.example');
      const [name, value] = owner.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: `${svc.baseUrl}/dashboard` }]);
      await page.goto(`${svc.baseUrl}/dashboard/test/payments/${rest.id}?lang=es`);
      await page.getByRole('button', { name: /Reembolsar el resto/ }).click();
      const statement = (await page.locator('main .statement').textContent()) ?? '';
      assert.equal(statement, `Reembolsar 20,00\u00a0€ de 25,00\u00a0€ en ${rest.id}.`);
      await page.getByRole('button', { name: 'Reembolsar 20,00 €' }).click();
      await page.waitForURL(new RegExp(`/payments/${rest.id}\\?.*refund=re_`));
      assert.match((await page.locator('main dl').textContent()) ?? '', /Reembolsado\s*25,00\s€/);
      assert.equal(await page.getByLabel('Importe a reembolsar').count(), 0, 'nothing left to refund');
      await context.close();
    });

    it('adds and disables a webhook endpoint on the webhooks page', async () => {
      const page = await newPage();
      await signIn(page, 'owner@browser.example');
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.waitForURL(/\/dashboard\/test\/webhooks/);
      await page.getByLabel('URL').fill('http://127.0.0.1:9/browser-hooks');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      // The answer of the add is its secret, once; the webhooks page then lists it.
      await page.locator('code.secret', { hasText: 'whsec_' }).waitFor();
      await page.goto(`${svc.baseUrl}/dashboard/test/webhooks?lang=en`);
      await page.getByRole('button', { name: 'Disable http://127.0.0.1:9/browser-hooks' }).click();
      // A confirmation says what disabling does; nothing changes until its button.
      await page.waitForURL(/\/webhooks\/we_\w+\/disable\?/);
      assert.equal(
        await page.locator('main .statement').textContent(),
        'Disable the webhook endpoint http://127.0.0.1:9/browser-hooks.',
      );
      await page.getByRole('button', { name: 'Disable http://127.0.0.1:9/browser-hooks' }).click();
      await page.getByRole('status').filter({ hasText: 'Endpoint disabled' }).waitFor();
      await page.goto(`${svc.baseUrl}/dashboard/test/webhooks?lang=en`);
      assert.match((await page.locator('main table').textContent()) ?? '', /Disabled/);
      assert.deepEqual(await seriousViolations(page), [], 'webhooks page');
      await page.screenshot({ path: `${shots}dashboard-webhooks.png` });
      await page.close();
    });

    it('shows the team and the audit log to an owner, in Spanish too', async () => {
      const page = await newPage();
      await signIn(page, 'owner@browser.example', 'es');
      await page.getByRole('link', { name: 'Equipo' }).click();
      await page.getByRole('heading', { name: 'Registro de auditoría' }).waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'es');
      assert.deepEqual(await seriousViolations(page), [], 'team page (es)');
      await page.goto(`${svc.baseUrl}/dashboard/team?lang=en`);
      assert.match((await page.locator('main').textContent()) ?? '', /refund\.created/);
      await page.screenshot({ path: `${shots}dashboard-team.png`, fullPage: true });
      await page.close();
    });

    it('lets an owner change a role, remove a member and revoke an invitation on the team page', async () => {
      const page = await newPage();
      await signIn(page, 'owner@browser.example', 'en');
      await page.goto(`${svc.baseUrl}/dashboard/team?lang=en`);
      const usersTable = page.getByRole('table', { name: 'Users' });
      const helperRole = usersTable.locator('tr', { hasText: 'helper@browser.example' }).locator('td').nth(1);
      assert.equal(await helperRole.textContent(), 'developer');
      await page.getByLabel('Role of helper@browser.example', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Change role of helper@browser.example' }).click();
      await helperRole.filter({ hasText: /^viewer$/ }).waitFor();

      // The last owner cannot make themselves a viewer: the refusal is announced, nothing changes.
      await page.getByLabel('Role of owner@browser.example', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Change role of owner@browser.example' }).click();
      await page.getByRole('alert').filter({ hasText: 'It did not work' }).waitFor();
      await page.goto(`${svc.baseUrl}/dashboard/team?lang=en`);
      const ownerRole = usersTable.locator('tr', { hasText: 'owner@browser.example' }).locator('td').nth(1);
      assert.equal(await ownerRole.textContent(), 'owner');
      assert.equal(
        await page.getByRole('button', { name: 'Remove owner@browser.example' }).count(),
        0,
        'not on your own row',
      );
      assert.equal(await page.getByRole('button', { name: 'Remove viewer@browser.example' }).count(), 1);

      await page.getByLabel('E-mail address', { exact: true }).fill('pending@browser.example');
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Invitation e-mailed to pending@browser.example' })
        .waitFor();
      await page.reload();
      const pending = page.getByRole('table', { name: 'Pending invitations' });
      assert.match((await pending.textContent()) ?? '', /pending@browser\.example/);
      assert.deepEqual(await seriousViolations(page), [], 'team page with its controls');
      await page.screenshot({ path: `${shots}dashboard-team-controls.png`, fullPage: true });

      // Revoking stops the e-mailed link: a confirmation first, nothing changes until its button.
      await page.getByRole('button', { name: 'Revoke the invitation of pending@browser.example' }).click();
      await page.waitForURL(/\/dashboard\/team\/invitations\/pending%40browser\.example\/revoke\?/);
      assert.equal(
        await page.locator('main .statement').textContent(),
        'Revoke the invitation of pending@browser.example (viewer).',
      );
      await page.getByRole('button', { name: 'Revoke the invitation of pending@browser.example' }).click();
      await page.waitForURL(/\/dashboard\/team\?invitation_revoked=/);
      await page.getByText('No pending invitations.').waitFor();
      await page.getByRole('button', { name: 'Remove helper@browser.example' }).click();
      // The confirmation names the person and what happens; the team is unchanged until its button.
      await page.waitForURL(/\/dashboard\/team\/usr_\w+\/remove\?/);
      assert.equal(
        await page.locator('main .statement').textContent(),
        'Remove helper@browser.example (viewer) from the team.',
      );
      assert.deepEqual(await seriousViolations(page), [], 'removal confirmation');
      await page.getByRole('button', { name: 'Remove helper@browser.example' }).click();
      await page.waitForURL(/\/dashboard\/team\?removed=/);
      await page.getByRole('status').filter({ hasText: 'Removed helper@browser.example' }).waitFor();
      assert.equal(await usersTable.locator('tr', { hasText: 'helper@browser.example' }).count(), 0);
      assert.deepEqual(await teamEmails(page), ['owner@browser.example', 'viewer@browser.example']);
      await page.close();
    });

    it('the audit log page: an owner reaches it from the menu and filters by action', async () => {
      const page = await newPage();
      await signIn(page, 'owner@browser.example', 'en');
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      await page.getByLabel('Action').fill('refund.created');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/action=refund\.created/);
      const rows = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
      assert.ok((await rows.count()) >= 1);
      for (const text of await rows.allTextContents()) assert.match(text, /refund\.created/);
      assert.deepEqual(await seriousViolations(page), [], 'audit page');
      await page.screenshot({ path: `${shots}dashboard-audit.png`, fullPage: true });
      await page.close();
    });

    it('offers a viewer no refund and no audit log, and switches to live data', async () => {
      const page = await newPage();
      await signIn(page, 'viewer@browser.example');
      await page.goto(`${svc.baseUrl}/dashboard/test/payments/${paid.id}?lang=en`);
      assert.equal(await page.getByLabel('Amount to refund').count(), 0);
      await page.goto(`${svc.baseUrl}/dashboard/team?lang=en`);
      assert.equal(await page.getByRole('heading', { name: 'Audit log' }).count(), 0);
      await page.goto(`${svc.baseUrl}/dashboard/test/payments?lang=en`);
      await page.getByRole('link', { name: 'Live data' }).click();
      await page.waitForURL(/\/dashboard\/live\/payments/);
      await page.getByText('No payments match.').waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'live payments page');
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/dashboard\/sign-in/);
      await page.goto(`${svc.baseUrl}/dashboard/team`);
      assert.match(page.url(), /\/dashboard\/sign-in/, 'the session ended');
      await page.close();
    });

    /** The team as the dashboard API tells the page, with its session cookie. */
    async function teamEmails(page: Page): Promise<string[]> {
      const users = await page.evaluate(async () => {
        const response = await fetch('/dashboard/api/v1/users', { credentials: 'same-origin' });
        return (await response.json()) as { data: { email: string }[] };
      });
      return users.data.map((u) => u.email).sort();
    }

    it("opens the invitation e-mail's link with the token in the field, without a script too", async () => {
      const owner = await signInApi(svc, 'owner@browser.example');
      const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
        email: 'linked@browser.example',
        role: 'viewer',
      });
      assert.equal(invited.statusCode, 201, invited.body);
      const mail = await svc.ctx.db.query<{ body_text: string }>(
        "SELECT body_text FROM mail_outbox WHERE 'linked@browser.example' = ANY (recipients)",
      );
      const mailed = /https?:\/\/\S+\/dashboard\/accept-invitation\?\S+/.exec(
        mail.rows[0]?.body_text ?? '',
      )?.[0];
      assert.ok(mailed, 'the e-mail carries the link');
      const link = `${svc.baseUrl}${new URL(mailed).pathname}${new URL(mailed).search}`;
      const token = invited.json().token as string;

      const noScript = await browser.newContext({ javaScriptEnabled: false });
      const bare = await noScript.newPage();
      await bare.goto(link);
      assert.equal(await bare.getByLabel('Invitation token').inputValue(), token);
      await noScript.close();

      // The operator API's link keeps the token in the #fragment, which the script reads.
      const page = await newPage();
      await page.goto(`${svc.baseUrl}/dashboard/accept-invitation?lang=en#${token}`);
      assert.equal(await page.getByLabel('Invitation token').inputValue(), token);
      await page.goto(link);
      assert.equal(await page.getByLabel('Invitation token').inputValue(), token);
      await page.getByLabel('Choose a password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.getByRole('status').filter({ hasText: 'Your account is ready' }).waitFor();
      await signIn(page, 'linked@browser.example');
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
