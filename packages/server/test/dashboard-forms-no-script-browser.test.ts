import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCodeAt } from '../src/domain/totp.ts';
import { launchChromium } from './support/browser.ts';
import {
  type DashboardUser,
  dashboardRequest,
  firstOwner,
  TEST_PASSWORD,
  teamMember,
} from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';

const OWNER = 'owner@no-script.example';

/**
 * The dashboard's forms with JavaScript turned off (issue 32: pages work without a script and
 * show the new state after each action): sign-in with and without a second factor, the team's
 * invitation, role change and invitation revocation (through its confirmation), an API key shown
 * once, the second factor's enrolment; each result read back from the dashboard's JSON API, and a
 * refusal in Spanish on a Spanish page.
 */
for (const kind of databaseKinds()) {
  describe(`dashboard forms without JavaScript in headless Chromium (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let base: string;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      base = svc.baseUrl as string;
      const merchant = await svc.createMerchant('No-script shop');
      const owner = await firstOwner(svc, merchant.id, OWNER);
      await teamMember(svc, owner, 'developer@no-script.example', 'developer');
      browser = await launchChromium();
      context = await browser.newContext({
        viewport: { width: 1100, height: 800 },
        javaScriptEnabled: false,
      });
      page = await context.newPage();
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    /** The browser's session as a dashboard API caller (its CSRF token read from the API). */
    async function apiCaller(): Promise<DashboardUser> {
      const session = (await context.cookies()).find((c) => c.name === 'paygate_session');
      assert.ok(session, 'signed in');
      const cookie = `paygate_session=${session.value}`;
      const answer = await svc.request({
        method: 'GET',
        url: '/dashboard/api/v1/session',
        headers: { cookie },
      });
      assert.equal(answer.statusCode, 200, answer.body);
      return { email: OWNER, cookie, csrf: answer.json().csrf_token };
    }

    async function api(path: string) {
      const response = await dashboardRequest(svc, await apiCaller(), 'GET', path);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }

    async function signInWith(lang: 'en' | 'es', password: string, code?: string): Promise<void> {
      await page.goto(`${base}/dashboard/sign-in?lang=${lang}`);
      await page.getByLabel(lang === 'es' ? 'Correo electrónico' : 'E-mail address').fill(OWNER);
      await page.getByLabel(lang === 'es' ? 'Contraseña' : 'Password').fill(password);
      if (code) await page.locator('input[name=totp_code]').fill(code);
      await page.getByRole('button', { name: lang === 'es' ? 'Iniciar sesión' : 'Sign in' }).click();
    }

    it('signs in by a plain form post; a wrong password is refused on the page with the address kept, not the password', async () => {
      await signInWith('en', 'not the password');
      await page
        .getByRole('alert')
        .filter({ hasText: 'Sign-in failed: The e-mail address or the password is wrong.' })
        .waitFor();
      assert.equal(await page.getByLabel('E-mail address').inputValue(), OWNER);
      assert.equal(await page.getByLabel('Password').inputValue(), '');
      await signInWith('en', TEST_PASSWORD);
      await page.waitForURL(/\/dashboard\/test\/payments\?lang=en$/);
      assert.equal((await api('/dashboard/api/v1/session')).user.email, OWNER);
    });

    it('refuses a sign-in post without the form’s own token (another site cannot sign a browser in)', async () => {
      const forged = await svc.app.inject({
        method: 'POST',
        url: '/dashboard/sign-in?lang=en',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email: OWNER, password: TEST_PASSWORD }).toString(),
      });
      assert.equal(forged.statusCode, 403);
      assert.equal(
        forged.cookies.find((c) => c.name === 'paygate_session'),
        undefined,
      );
      assert.match(forged.body, /The sign-in form had expired/);
    });

    it('invites, changes a role and revokes the invitation through its confirmation, each shown after a redirect', async () => {
      await page.goto(`${base}/dashboard/team?lang=en`);
      await page.getByLabel('E-mail address', { exact: true }).fill('new@no-script.example');
      const inviteForm = page.locator('form', {
        has: page.getByRole('button', { name: 'Invite', exact: true }),
      });
      await inviteForm.locator('select[name=role]').selectOption('developer');
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      await page.waitForURL(/\/dashboard\/team\?invited=new%40no-script\.example/);
      await page
        .getByRole('status')
        .filter({ hasText: 'Invitation e-mailed to new@no-script.example' })
        .waitFor();
      const pending = (await api('/dashboard/api/v1/invitations')).data as { email: string; role: string }[];
      assert.deepEqual(
        pending.map((i) => [i.email, i.role]),
        [['new@no-script.example', 'developer']],
      );

      await page.getByLabel('Role of developer@no-script.example', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Change role of developer@no-script.example' }).click();
      await page.waitForURL(/role_changed=/);
      await page
        .getByRole('status')
        .filter({ hasText: 'The role of developer@no-script.example is now viewer.' })
        .waitFor();
      const users = (await api('/dashboard/api/v1/users')).data as { email: string; role: string }[];
      assert.equal(users.find((u) => u.email === 'developer@no-script.example')?.role, 'viewer');

      await page.getByRole('button', { name: 'Revoke the invitation of new@no-script.example' }).click();
      await page.waitForURL(/\/dashboard\/team\/invitations\/new%40no-script\.example\/revoke\?/);
      assert.equal(
        await page.locator('main .statement').textContent(),
        'Revoke the invitation of new@no-script.example (developer).',
      );
      assert.equal((await api('/dashboard/api/v1/invitations')).data.length, 1, 'nothing changed yet');
      await page.getByRole('button', { name: 'Revoke the invitation of new@no-script.example' }).click();
      await page.waitForURL(/\/dashboard\/team\?invitation_revoked=/);
      await page
        .getByRole('status')
        .filter({ hasText: 'Invitation of new@no-script.example revoked' })
        .waitFor();
      assert.deepEqual((await api('/dashboard/api/v1/invitations')).data, []);
    });

    it('creates an API key and shows it once: not in the URL, not again after a reload', async () => {
      await page.goto(`${base}/dashboard/test/api-keys?lang=en`);
      await page.getByLabel('Kind').selectOption('secret');
      await page.getByRole('button', { name: 'Create a key' }).click();
      await page.waitForURL(/\/dashboard\/test\/api-keys\?created=key_\w+/);
      const shown = (await page.locator('main [role=status] code.secret').textContent()) ?? '';
      assert.match(shown, /^sk_test_[0-9A-Za-z]+$/);
      assert.equal(page.url().includes(shown), false, 'never in the URL');
      const createdId = new URL(page.url()).searchParams.get('created');
      const keys = (await api('/dashboard/api/v1/test/api-keys')).data as { id: string; key_hint: string }[];
      const created = keys.find((k) => k.id === createdId);
      assert.ok(created, 'the API lists the new key');
      assert.ok(shown.endsWith(created.key_hint.slice(-4)), 'the hint is of the key shown');
      assert.equal(
        (await svc.request({ method: 'GET', url: '/v1/transactions', key: shown })).statusCode,
        200,
      );
      await page.reload();
      await page
        .getByRole('status')
        .filter({ hasText: `Key ${created.key_hint} created.` })
        .waitFor();
      assert.equal(await page.locator('code.secret').count(), 0, 'shown once');
      assert.equal((await page.content()).includes(shown), false);
    });

    it('turns on two-step sign-in; the next sign-in needs the code, then works with it', async () => {
      await page.goto(`${base}/dashboard/account?lang=en`);
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      await page.waitForURL(/\/dashboard\/account\?.*done=totp_started/);
      const secret = ((await page.locator('[data-totp-secret]').textContent()) ?? '').trim();
      await page.getByLabel('Authentication code').fill('000000');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('alert').filter({ hasText: 'is not the current authentication code' }).waitFor();
      assert.equal((await api('/dashboard/api/v1/totp')).enabled, false);
      await page.getByLabel('Authentication code').fill(totpCodeAt(secret, svc.clock.now()));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(/\/dashboard\/account\?.*done=totp_on/);
      const codes = await page.locator('.recovery-codes code').allTextContents();
      assert.equal(codes.length, 10);
      assert.equal((await api('/dashboard/api/v1/totp')).enabled, true);
      await page.reload();
      assert.equal(await page.locator('.recovery-codes').count(), 0, 'the recovery codes are shown once');
      await page.getByText('Two-step sign-in is on.').first().waitFor();

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/dashboard\/sign-in\?.*done=signed_out/);
      await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor();
      await signInWith('en', TEST_PASSWORD);
      await page.getByRole('alert').filter({ hasText: 'Two-step sign-in is on' }).waitFor();
      assert.equal(await page.getByLabel('E-mail address').inputValue(), OWNER);
      svc.clock.advance(30);
      await signInWith('en', TEST_PASSWORD, totpCodeAt(secret, svc.clock.now()));
      await page.waitForURL(/\/dashboard\/test\/payments/);
      assert.equal((await api('/dashboard/api/v1/session')).user.email, OWNER);
    });

    it('says a refusal in Spanish on a Spanish page, naming the field, and keeps what was typed', async () => {
      await page.goto(`${base}/dashboard/team?lang=es`);
      await page.getByLabel('Correo electrónico', { exact: true }).fill('developer@no-script.example');
      await page.getByRole('button', { name: 'Invitar', exact: true }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'No funcionó: correo electrónico: ya pertenece a un usuario del panel' })
        .waitFor();
      assert.equal(
        await page.getByLabel('Correo electrónico', { exact: true }).inputValue(),
        'developer@no-script.example',
      );
      assert.deepEqual((await api('/dashboard/api/v1/invitations')).data, []);

      await page.getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
      await page.waitForURL(/\/dashboard\/sign-in\?.*lang=es/);
      await signInWith('es', 'not the password');
      await page
        .getByRole('alert')
        .filter({
          hasText: 'No se pudo iniciar sesión: La dirección de correo o la contraseña no son correctas.',
        })
        .waitFor();
    });
  });
}
