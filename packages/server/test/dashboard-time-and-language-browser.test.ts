import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { formatMoney } from '../src/backoffice/kit/format.ts';
import { exactTime } from '../src/backoffice/kit/time.ts';
import { launchChromium, seriousViolations } from './support/browser.ts';
import { englishOnlyTexts, visibleText } from './support/catalogue-texts.ts';
import { signIn, TEST_PASSWORD } from './support/dashboard.ts';
import { inLanguage, linksOn, merchantWithData, walkPages } from './support/dashboard-walk.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';

/**
 * Issue 32, items 2 to 4, as a person meets them in Chromium: times read as relative text with
 * the exact time in the user's own zone on hover (the zone taken from the browser at sign-in,
 * changed on the settings page, without a script too); confirmations that state what will happen,
 * in the page's language and number format; and every page, walked in Spanish, shows no text of
 * the English catalogue. The test moves the service clock by hours, so relative times are exact
 * whatever the few seconds the test itself takes.
 */

/** The page's own getComputedStyle: the function below runs in Chromium, and the tests compile without the DOM types. */
declare const getComputedStyle: (element: unknown) => {
  backgroundColor: string;
  color: string;
  borderTopColor: string;
};

/** A button's colours as Chromium paints them. */
function paintedColours(button: Locator): Promise<string> {
  return button.evaluate((b) => {
    const style = getComputedStyle(b);
    return [style.backgroundColor, style.color, style.borderTopColor].join(' ');
  });
}

for (const kind of databaseKinds()) {
  describe(`dashboard times, confirmations and Spanish in headless Chromium (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let ownerEmail: string;
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      ownerEmail = 'owner@times.example';
      await merchantWithData(svc, ownerEmail);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    const storedZone = async () =>
      (
        await svc.ctx.db.query<{ time_zone: string | null }>(
          'SELECT time_zone FROM dashboard_users WHERE email = $1',
          [ownerEmail],
        )
      ).rows[0]?.time_zone;

    /** A context signed in as the owner (a fresh session: the first test moves the clock past the first one's end). */
    async function signedIn(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
      const context = await browser.newContext(options);
      const [name, value] = (await signIn(svc, ownerEmail)).cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: `${svc.baseUrl}/dashboard` }]);
      return context;
    }

    async function watch(context: BrowserContext): Promise<Page> {
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        // Chromium's own request for /favicon.ico (no page asks for one) is not the page's error.
        const source = message.location().url;
        // A refusal page the test opens on purpose (a 400 of the document itself) is not one either.
        const refusal = source === page.url() && /status of 400/.test(message.text());
        if (message.type() === 'error' && !source.endsWith('/favicon.ico') && !refusal)
          pageErrors.push(`${page.url()}: ${source} ${message.text()}`);
      });
      return page;
    }

    it("takes the browser's time zone at sign-in and shows times as relative text with the exact time in it", async () => {
      const context = await browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US' });
      const page = await watch(context);
      assert.equal(await storedZone(), null, 'no zone before the browser offers one');
      await page.goto(`${svc.baseUrl}/dashboard/sign-in?lang=en`);
      await page.getByLabel('E-mail address').fill(ownerEmail);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/test\/payments/);
      assert.equal(await storedZone(), 'America/New_York');

      // Three hours later on the service clock (never the process's Date.now()).
      svc.clock.advance(3 * 3600);
      await page.reload();
      const created = page.locator('tbody tr').first().locator('time');
      assert.equal(await created.textContent(), '3 hours ago');
      const at = new Date((await created.getAttribute('datetime')) as string);
      assert.equal(await created.getAttribute('title'), exactTime(at, 'en', 'America/New_York'));
      assert.match((await created.getAttribute('title')) ?? '', /\d\d:\d\d:\d\d\s[AP]M EST$/);
      // Hovering shows the exact time (the title is the browser's tooltip).
      await created.hover();

      await page.goto(`${svc.baseUrl}/dashboard/test/payments?lang=es`);
      assert.equal(await page.locator('tbody tr').first().locator('time').textContent(), 'hace 3 horas');
      // Plurals from the language's own rules: one hour later is "1 hour", never "1 hours".
      svc.clock.advance(22 * 3600);
      await page.goto(`${svc.baseUrl}/dashboard/test/payments?lang=en`);
      const times = await page.locator('tbody time').allTextContents();
      assert.ok(
        times.every((text) => text === 'yesterday'),
        times.join(', '),
      );
      await page.goto(`${svc.baseUrl}/dashboard/team?lang=en`);
      assert.ok(
        (await page.locator('main time').allTextContents()).every((text) => !/\b1 \w+s\b/.test(text)),
        'no "1 hours"',
      );
      assert.deepEqual(await seriousViolations(page), [], 'team page with times');
      await context.close();
    });

    it('changes the time zone on the settings page, without a script too, and the browser does not override a choice', async () => {
      const context = await signedIn({ timezoneId: 'America/New_York' });
      const page = await watch(context);
      await page.goto(`${svc.baseUrl}/dashboard/test/overview?lang=en`);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.waitForURL(/\/dashboard\/settings\?/);
      const zone = page.locator('select[name=time_zone]');
      assert.equal(await zone.inputValue(), 'America/New_York');
      assert.equal(await page.getByRole('combobox', { name: /^Time zone/ }).count(), 1, 'labelled');
      await zone.selectOption('Asia/Tokyo');
      await page.getByRole('button', { name: 'Save the time zone' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Saved: exact times are now shown in Asia/Tokyo.' })
        .waitFor();
      assert.equal(await storedZone(), 'Asia/Tokyo');
      assert.deepEqual(await seriousViolations(page), [], 'settings page');
      await page.goto(`${svc.baseUrl}/dashboard/test/payments?lang=en`);
      const time = page.locator('tbody time').first();
      const title = (await time.getAttribute('title')) ?? '';
      assert.match(title, /GMT\+9$/);
      const at = new Date((await time.getAttribute('datetime')) as string);
      assert.equal(title, exactTime(at, 'en', 'Asia/Tokyo'));
      assert.equal(await storedZone(), 'Asia/Tokyo', "the browser's New York did not replace the choice");
      await context.close();

      // The same form without JavaScript: a plain POST with the CSRF field, then the new state.
      const plain = await signedIn({ javaScriptEnabled: false });
      const noScript = await plain.newPage();
      await noScript.goto(`${svc.baseUrl}/dashboard/settings?lang=es&mode=test`);
      await noScript.locator('select[name=time_zone]').selectOption('Europe/Madrid');
      await noScript.getByRole('button', { name: 'Guardar la zona horaria' }).click();
      await noScript.waitForURL(/saved=1/);
      assert.match(
        (await noScript.getByRole('status').textContent()) ?? '',
        /las horas exactas se muestran ahora en Europe\/Madrid/,
      );
      assert.equal(await storedZone(), 'Europe/Madrid');
      await plain.close();
    });

    it('states each action in the reader’s language and numbers before it happens; destructive buttons look different', async () => {
      const context = await signedIn();
      const page = await watch(context);
      await page.goto(`${svc.baseUrl}/dashboard/test/payments?lang=es`);
      // The walk's newest payment is the approved 42.00 USD one (10.00 of it refunded already).
      await page.locator('tbody tr').first().getByRole('link').click();
      const id = (await page.locator('main dl code').first().textContent()) as string;
      // The refund form starts empty, with "refund the rest" beside it.
      assert.equal(await page.getByLabel('Importe a reembolsar (p. ej. 10,50)').inputValue(), '');
      assert.equal(await page.getByRole('button', { name: /^Reembolsar el resto/ }).count(), 1);
      // A refused amount is explained in Spanish, with the field named.
      await page.getByLabel('Importe a reembolsar (p. ej. 10,50)').fill('10,005');
      await page.getByRole('button', { name: 'Revisar el reembolso' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: "importe: USD tiene 2 decimales; '10,005' tiene 3" })
        .waitFor();
      await page.goBack();
      await page.getByLabel('Importe a reembolsar (p. ej. 10,50)').fill('10,00');
      await page.getByRole('button', { name: 'Revisar el reembolso' }).click();
      await page.waitForURL(/\/refund\?/);
      const money = (minor: number) => formatMoney(minor, 'USD', 'es');
      assert.equal(
        await page.locator('main .statement').textContent(),
        `Reembolsar ${money(1000)} de ${money(4200)} en ${id}.`,
      );
      const refundButton = page.getByRole('button', { name: `Reembolsar ${money(1000)}` });
      assert.equal(await refundButton.getAttribute('class'), 'destructive');
      const destructiveLook = await paintedColours(refundButton);
      await page.getByRole('link', { name: 'Cancelar, no cambiar nada' }).click();

      // The primary button of the refund form (filled) and the destructive one do not look alike.
      const primaryLook = await paintedColours(page.getByRole('button', { name: 'Revisar el reembolso' }));
      assert.notEqual(primaryLook, destructiveLook);

      // Rolling a key with no grace period breaks its integrations: the page says so, in Spanish.
      await page.goto(`${svc.baseUrl}/dashboard/test/api-keys?lang=es`);
      const row = page.locator('tbody tr').first();
      await row.getByLabel('La clave anterior sigue funcionando durante').selectOption('0');
      await row.getByRole('button', { name: /^Renovar/ }).click();
      await page.waitForURL(/\/roll\?/);
      assert.match((await page.locator('main ul').textContent()) ?? '', /deja de funcionar al momento/);
      assert.equal(await page.locator('form.confirm button').getAttribute('class'), 'destructive');
      await page.getByRole('link', { name: 'Cancelar, no cambiar nada' }).click();
      await page.waitForURL(/\/api-keys\?/);
      await context.close();
    });

    it('walks every page in Spanish and finds no text of the English catalogue', async () => {
      const context = await signedIn({ viewport: { width: 1280, height: 900 } });
      const page = await watch(context);
      const english = englishOnlyTexts();
      assert.ok(english.length > 200, `${english.length} English texts`);
      const found: string[] = [];
      const visited = await walkPages(async (pathAndQuery) => {
        const response = await page.goto(inLanguage(svc.baseUrl as string, pathAndQuery, 'es'));
        assert.ok((response?.status() ?? 0) < 400, pathAndQuery);
        const text = await visibleText(page);
        for (const phrase of english) {
          const pattern = new RegExp(
            `(^|[^\\p{L}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`,
            'u',
          );
          if (pattern.test(text)) found.push(`${pathAndQuery}: "${phrase}"`);
        }
        return linksOn(page);
      });
      assert.ok(visited.length >= 15, visited.join(' '));
      assert.deepEqual(found, []);
      await context.close();
    });

    it('ran every page without a script error or a CSP violation', () => {
      assert.deepEqual(pageErrors, []);
    });
  });
}
