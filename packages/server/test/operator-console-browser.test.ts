import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createOperator } from '../src/app/operators/operator-accounts.ts';
import { operatorNavigationEntries } from '../src/backoffice/kit/navigation.ts';
import { totpCodeAt } from '../src/domain/totp.ts';
import { launchChromium, screenshotsFor, seriousViolations } from './support/browser.ts';
import { signIn as dashboardSignIn, TEST_PASSWORD } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from './support/service.ts';

const OPERATOR = 'ops@console.example';
const PASSWORD = 'a long operator password';

/**
 * The operator's console walked in headless Chromium as an operator would: sign in (the only
 * page that needs a script), then every action through plain forms in a browser with scripts
 * OFF, each result compared with what the operator API answers for the same thing.
 */
for (const kind of databaseKinds()) {
  const shots = screenshotsFor(kind);
  describe(`the operator's console in headless Chromium (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let scripted: BrowserContext;
    let noScript: BrowserContext;
    let page: Page;
    let base: string;
    let merchantId = '';
    let accountId = '';
    let recoveryCodes: string[] = [];
    const pageErrors: string[] = [];
    const admin = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await svc.request({ method, url, headers: { 'x-admin-token': ADMIN_TOKEN }, body });
      assert.ok(response.statusCode < 300, `${url}: ${response.body}`);
      return response.json();
    };
    const url = (path: string, lang = 'en') => `${base}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      base = svc.baseUrl as string;
      await createOperator(svc.ctx, { email: OPERATOR, password: PASSWORD });
      browser = await launchChromium();
      scripted = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      noScript = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        javaScriptEnabled: false,
      });
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    async function signIn(code?: string): Promise<Page> {
      const signing = await scripted.newPage();
      signing.on('pageerror', (error) => pageErrors.push(error.message));
      await signing.goto(url('/operator'));
      await signing.waitForURL(/\/operator\/sign-in/);
      await signing.getByLabel('E-mail address').fill(OPERATOR);
      await signing.getByLabel('Password').fill(PASSWORD);
      if (code) await signing.getByLabel(/Authentication code or recovery code/).fill(code);
      await signing.getByRole('button', { name: 'Sign in' }).click();
      return signing;
    }

    it('signs in (a wrong password is announced), and the session then works in a browser without scripts', async () => {
      const signing = await scripted.newPage();
      await signing.goto(url('/operator/sign-in'));
      assert.deepEqual(await seriousViolations(signing), []);
      await signing.getByLabel('E-mail address').fill(OPERATOR);
      await signing.getByLabel('Password').fill('not the password');
      await signing.getByRole('button', { name: 'Sign in' }).click();
      await signing.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor();
      await signing.close();
      const signed = await signIn();
      await signed.waitForURL(/\/operator\/merchants/);
      await noScript.addCookies(await scripted.cookies());
      page = await noScript.newPage();
      await page.goto(url('/operator/merchants'));
      await page.getByRole('heading', { name: 'Merchants', level: 1 }).waitFor();
      await signed.close();
    });

    it('creates a merchant: the operator API then reads it, active', async () => {
      await page.getByLabel('Name').fill('Console Browser Shop');
      await page.getByRole('button', { name: 'Create a merchant' }).click();
      await page.waitForURL(/\/operator\/merchants\/acct_/);
      await page.getByRole('status').filter({ hasText: 'Merchant Console Browser Shop created.' }).waitFor();
      merchantId = new URL(page.url()).pathname.split('/').pop() as string;
      const merchant = await admin('GET', `/admin/v1/merchants/${merchantId}`);
      assert.equal(merchant.name, 'Console Browser Shop');
      assert.equal(merchant.status, 'active');
      assert.equal(await page.locator('[data-status]').first().getAttribute('data-status'), 'active');
      const list = await admin('GET', '/admin/v1/merchants?limit=5');
      await page.goto(url('/operator/merchants'));
      for (const m of list.data as { name: string }[])
        await page.getByRole('link', { name: m.name }).waitFor();
    });

    it("invites the first owner: the e-mail's ?token= link opens a filled form, and the owner signs in", async () => {
      await page.goto(url(`/operator/merchants/${merchantId}`));
      await page.getByLabel('E-mail address').fill('owner@console-browser.example');
      await page.getByLabel('Language of the e-mail').selectOption('es');
      await page.getByRole('button', { name: 'Send the invitation' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Invitation e-mailed to owner@console-browser.example.' })
        .waitFor();
      await page.getByText('owner@console-browser.example (owner)').waitFor();
      const mail = await svc.ctx.db.query<{ body_text: string; subject: string }>(
        "SELECT body_text, subject FROM mail_outbox WHERE 'owner@console-browser.example' = ANY (recipients)",
      );
      assert.equal(mail.rows.length, 1);
      const mailed = /https?:\/\/\S+\/dashboard\/accept-invitation\?\S+/.exec(
        mail.rows[0]?.body_text ?? '',
      )?.[0];
      assert.ok(mailed, 'the e-mail carries the link');
      assert.match(mailed, /[?&]token=inv_/);
      assert.match(mailed, /[?&]lang=es/);
      // (axe needs scripts: the walk at the end checks every page in a scripted browser.)
      // The form is a plain post: the owner accepts without a script, and is sent to sign in.
      const accept = await noScript.newPage();
      await accept.goto(`${base}${new URL(mailed).pathname}${new URL(mailed).search}`);
      assert.match(await accept.locator('input[name=token]').inputValue(), /^inv_/);
      await accept.locator('input[name=password]').fill(TEST_PASSWORD);
      await accept.locator('button[type=submit]').click();
      await accept.waitForURL(/\/dashboard\/sign-in\?.*done=accepted/);
      await accept.getByRole('status').waitFor();
      await accept.close();
      const owner = await dashboardSignIn(svc, 'owner@console-browser.example');
      assert.ok(owner.cookie);
    });

    it('adds a Stripe account: sealed, never shown back, listed by the operator API with the same hints', async () => {
      await page.goto(url(`/operator/merchants/${merchantId}`));
      const form = page.locator('form', { has: page.locator('input[name=connector][value=stripe]') });
      await form.getByLabel('gateway_id').fill('stripe_main');
      await form.getByLabel('secret_key').fill('sk_test_Console1234');
      await form.getByLabel('webhook_secret').fill('whsec_Console5678');
      // An address nothing answers at: the reconciliation page shows these books as unreadable.
      await form.getByLabel(/api_url/).fill('http://127.0.0.1:9');
      await form.getByRole('button', { name: 'Add a stripe account' }).click();
      await page.getByRole('status').filter({ hasText: 'Gateway account stripe_main added.' }).waitFor();
      const body = await page.content();
      assert.doesNotMatch(body, /sk_test_Console1234|whsec_Console5678/);
      const listed = await admin('GET', `/admin/v1/merchants/${merchantId}/gateway-accounts`);
      assert.equal(listed.data.length, 1);
      const account = listed.data[0];
      accountId = account.id;
      assert.equal(account.gateway_id, 'stripe_main');
      assert.equal(account.status, 'enabled');
      const row = page.locator('tr', { hasText: 'stripe_main' });
      for (const last of Object.values(account.credentials_hint) as string[]) {
        await row.getByText(last, { exact: true }).waitFor();
      }
      await row.getByText(account.notification_url).waitFor();
      await page.screenshot({ path: `${shots}operator-merchant.png`, fullPage: true });
    });

    it('rotates its credentials through a confirmation; a refused value changes nothing', async () => {
      await page.getByRole('link', { name: 'Replace credentials of stripe_main' }).click();
      await page
        .getByText(
          'Replace the credentials of gateway account stripe_main (stripe, Test data) of Console Browser Shop.',
        )
        .waitFor();
      await page.getByLabel('secret_key').fill('sk_test_Rotated9999');
      await page.getByLabel('webhook_secret').fill('not a signing secret');
      await page.getByRole('button', { name: 'Replace the credentials of stripe_main' }).click();
      await page.getByRole('alert').filter({ hasText: 'webhook_secret' }).waitFor();
      let account = await admin('GET', `/admin/v1/merchants/${merchantId}/gateway-accounts/${accountId}`);
      assert.doesNotMatch(JSON.stringify(account.credentials_hint), /9999/);
      await page.getByLabel('secret_key').fill('sk_test_Rotated9999');
      await page.getByLabel('webhook_secret').fill('whsec_Rotated8888');
      await page.getByRole('button', { name: 'Replace the credentials of stripe_main' }).click();
      await page.waitForURL(new RegExp(`/operator/merchants/${merchantId}\\?`));
      await page
        .getByRole('status')
        .filter({ hasText: 'The credentials of stripe_main were replaced.' })
        .waitFor();
      account = await admin('GET', `/admin/v1/merchants/${merchantId}/gateway-accounts/${accountId}`);
      assert.match(account.credentials_hint.secret_key, /9999$/);
      assert.doesNotMatch(await page.content(), /sk_test_Rotated9999|whsec_Rotated8888/);
    });

    it('shows late captures and the differences with the books, the unreadable account as such, as the operator API does', async () => {
      await page.goto(url('/operator/reconciliation'));
      const api = await admin('GET', '/admin/v1/reconciliation');
      assert.deepEqual(
        api.unreadable.map((u: { gateway_account_id: string }) => u.gateway_account_id),
        [accountId],
      );
      const unreadable = page.locator('li', { has: page.locator('[data-status=unreadable]') });
      await unreadable.filter({ hasText: accountId }).waitFor();
      assert.equal(await unreadable.count(), api.unreadable.length);
      for (const g of api.gateways as { gateway_id: string; charges: number; refunds: number }[]) {
        await page
          .getByText(`${g.gateway_id} (`)
          .filter({ hasText: `${g.charges} charges and ${g.refunds} refunds compared` })
          .first()
          .waitFor();
      }
      const lateCaptures = await admin('GET', '/admin/v1/late-captures');
      assert.equal(lateCaptures.data.length, 0);
      await page.getByText('No late capture.').waitFor();
      assert.equal(api.differences.length, 0);
      await page.getByText('Every book that could be read agrees with Paygate.').waitFor();
    });

    it('disables the merchant through a confirmation that says what stops, and enables it again', async () => {
      await page.goto(url(`/operator/merchants/${merchantId}`));
      await page.getByRole('link', { name: 'Disable this merchant' }).click();
      await page.getByText(`Disable merchant Console Browser Shop (${merchantId}).`).waitFor();
      await page.getByText(/is refused at once/).waitFor();
      assert.equal(
        (await admin('GET', `/admin/v1/merchants/${merchantId}`)).status,
        'active',
        'opening the confirmation changes nothing',
      );
      await page.screenshot({ path: `${shots}operator-disable-confirmation.png` });
      await page.getByRole('button', { name: 'Disable Console Browser Shop' }).click();
      await page.getByRole('status').filter({ hasText: 'Console Browser Shop is disabled' }).waitFor();
      assert.equal((await admin('GET', `/admin/v1/merchants/${merchantId}`)).status, 'disabled');
      assert.equal(await page.locator('dd [data-status]').getAttribute('data-status'), 'disabled');
      await page.getByRole('button', { name: 'Enable this merchant again' }).click();
      await page.getByRole('status').filter({ hasText: 'Console Browser Shop is enabled again.' }).waitFor();
      assert.equal((await admin('GET', `/admin/v1/merchants/${merchantId}`)).status, 'active');
    });

    it('announces a deprecation and shows who was told and when, as the operator API does', async () => {
      const key = await admin('POST', `/admin/v1/merchants/${merchantId}/api-keys`, {
        livemode: false,
        kind: 'secret',
      });
      await svc.request({
        method: 'GET',
        url: '/v1/transactions?limit=1',
        key: key.key,
        headers: { 'user-agent': 'paygate-php/1.0.0' },
      });
      await svc.app.clientTelemetry.flush();
      await page.goto(url('/operator/deprecations'));
      await page.getByLabel('Affected').selectOption('paygate-php');
      await page.getByLabel('Versions below (for a client)').fill('2.0.0');
      const withdrawOn = new Date(svc.clock.now().getTime() + 60 * 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel('Stops working on (UTC day)').fill(withdrawOn);
      await page.getByLabel('What changes and what to do').fill('PHP client 1.x ends; upgrade to 2.x.');
      await page.getByRole('button', { name: 'Announce a deprecation' }).click();
      await page.waitForURL(/\/operator\/deprecations\/dep_/);
      await page.getByRole('status').filter({ hasText: 'Announced' }).waitFor();
      const id = new URL(page.url()).pathname.split('/').pop() as string;
      const api = await admin('GET', `/admin/v1/deprecations/${id}`);
      assert.deepEqual(
        api.recipients.map((r: { email: string }) => r.email),
        ['owner@console-browser.example'],
      );
      const row = page.locator('tr', { hasText: 'owner@console-browser.example' });
      await row.locator(`time[datetime="${api.recipients[0].notified_at}"]`).waitFor();
      await row.getByText(merchantId).waitFor();
    });

    it('turns on two-step sign-in for the operator; the next sign-in needs a code', async () => {
      await page.goto(url('/operator/account'));
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      const secret = (await page.locator('[data-totp-secret]').textContent()) ?? '';
      assert.match(secret, /^[A-Z2-7]{16,}$/);
      await page.getByLabel('Authentication code').fill('000000');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Authentication code').fill(totpCodeAt(secret, svc.clock.now()));
      await page.getByRole('button', { name: 'Confirm' }).click();
      recoveryCodes = await page.locator('.recovery-codes code').allTextContents();
      assert.equal(recoveryCodes.length, 10);
      await page.goto(url('/operator/account'));
      await page.getByText('Two-step sign-in is on.').waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/operator\/sign-in/);
      await page.goto(url('/operator/merchants'));
      await page.waitForURL(/\/operator\/sign-in/);

      const withoutCode = await signIn();
      await withoutCode.getByRole('alert').waitFor();
      assert.match(withoutCode.url(), /\/operator\/sign-in/);
      await withoutCode.close();
      const withCode = await signIn(recoveryCodes[0]);
      await withCode.waitForURL(/\/operator\/merchants/);
      await withCode.close();
      await noScript.clearCookies();
      await noScript.addCookies(await scripted.cookies());
    });

    it('keeps an audit log of every operator action, shown newest first', async () => {
      await page.goto(url('/operator/audit'));
      const stored = await svc.ctx.db.query<{ action: string; target: string | null }>(
        'SELECT action, target FROM operator_audit_log ORDER BY created_at DESC, id DESC LIMIT 200',
      );
      const actions = new Set(stored.rows.map((r) => r.action));
      for (const action of [
        'sign_in.failed',
        'sign_in.succeeded',
        'merchant.created',
        'invitation.created',
        'gateway_account.added',
        'gateway_account.credentials_rotated',
        'merchant.disabled',
        'merchant.enabled',
        'deprecation.announced',
        'totp.enabled',
        'sign_out',
      ]) {
        assert.ok(actions.has(action), `${action} is recorded`);
      }
      const shown = await page.locator('tbody tr td:nth-child(3)').allTextContents();
      assert.deepEqual(
        shown,
        stored.rows.map((r) => r.action),
      );
    });

    it('finds no serious or critical axe violation on any console page, in en and es, light and dark', async () => {
      const paths = [
        ...operatorNavigationEntries().map((e) => e.path),
        `/operator/merchants/${merchantId}`,
        `/operator/merchants/${merchantId}/disable`,
        `/operator/merchants/${merchantId}/gateway-accounts/${accountId}/rotate`,
      ];
      const deprecation = await svc.ctx.db.query<{ id: string }>('SELECT id FROM deprecations LIMIT 1');
      paths.push(`/operator/deprecations/${deprecation.rows[0]?.id}`);
      const walker = await scripted.newPage();
      walker.on('pageerror', (error) => pageErrors.push(error.message));
      const failures: string[] = [];
      for (const path of paths) {
        for (const lang of ['en', 'es'] as const) {
          for (const colorScheme of ['light', 'dark'] as const) {
            await walker.emulateMedia({ colorScheme });
            const response = await walker.goto(url(path, lang));
            assert.equal(response?.status(), 200, path);
            const violations = await seriousViolations(walker);
            if (violations.length) failures.push(`${path} ${lang} ${colorScheme}: ${violations.join(', ')}`);
          }
        }
        await walker.setViewportSize({ width: 375, height: 800 });
        await walker.goto(url(path, 'es'));
        const [scroll, client] = await walker
          .locator('html')
          .evaluate((root) => [root.scrollWidth, root.clientWidth]);
        if ((scroll ?? 0) > (client ?? 0)) failures.push(`${path}: ${scroll} > ${client} at 375 px`);
        await walker.setViewportSize({ width: 1280, height: 900 });
      }
      assert.deepEqual(failures, []);
      await walker.goto(url('/operator/reconciliation'));
      await walker.screenshot({ path: `${shots}operator-reconciliation.png`, fullPage: true });
      assert.deepEqual(pageErrors, []);
    });
  });
}
