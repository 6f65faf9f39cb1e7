import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, seriousViolations } from './support/browser.ts';
import { inLanguage, linksOn, merchantWithData, walkPages } from './support/dashboard-walk.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';

/**
 * The accessibility gate: every page of the back office (walked from the navigation's one list,
 * see support/dashboard-walk.ts), in English and Spanish, in the light and the dark theme, has
 * no serious or critical axe-core violation; and at 375 px wide no page scrolls sideways, while
 * at desktop width no navigation entry wraps.
 */
for (const kind of databaseKinds()) {
  describe(`dashboard quality gates: axe-core on every page, both languages and themes (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let context: BrowserContext;
    let baseUrl: string;
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      baseUrl = svc.baseUrl as string;
      const { owner } = await merchantWithData(svc, 'owner@walk.example');
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const [name, value] = owner.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: `${baseUrl}/dashboard` }]);
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    async function open(page: Page, url: string): Promise<void> {
      const response = await page.goto(url);
      assert.equal(response?.status(), 200, url);
    }

    it('finds no serious or critical violation on any page, in en and es, light and dark', async () => {
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const failures: string[] = [];
      const visited = await walkPages(async (pathAndQuery) => {
        for (const lang of ['en', 'es'] as const) {
          for (const colorScheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme });
            await open(page, inLanguage(baseUrl, pathAndQuery, lang));
            const violations = await seriousViolations(page);
            if (violations.length)
              failures.push(`${pathAndQuery} ${lang} ${colorScheme}: ${violations.join(', ')}`);
          }
        }
        return linksOn(page);
      });
      assert.deepEqual(failures, []);
      assert.ok(visited.length >= 15, `walked ${visited.length} pages: ${visited.join(' ')}`);
      assert.deepEqual(pageErrors, []);
      await page.close();
    });

    it('fits every page into 375 px without sideways scrolling, and keeps each navigation entry on one line', async () => {
      const narrow = await context.newPage();
      await narrow.setViewportSize({ width: 375, height: 800 });
      const wide = await context.newPage();
      const overflowing: string[] = [];
      await walkPages(async (pathAndQuery) => {
        await open(narrow, inLanguage(baseUrl, pathAndQuery, 'es'));
        const widths = await narrow.locator('html').evaluate((root) => [root.scrollWidth, root.clientWidth]);
        if ((widths[0] ?? 0) > (widths[1] ?? 0)) overflowing.push(`${pathAndQuery}: ${widths.join(' > ')}`);
        await open(wide, inLanguage(baseUrl, pathAndQuery, 'es'));
        const wrapped = await wide
          .locator('.sidenav a')
          .evaluateAll((links) =>
            links.filter((a) => a.getBoundingClientRect().height > 48).map((a) => a.textContent),
          );
        assert.deepEqual(wrapped, [], `navigation entries on two lines on ${pathAndQuery}`);
        return linksOn(wide);
      });
      assert.deepEqual(overflowing, []);
      await narrow.close();
      await wide.close();
    });
  });
}
