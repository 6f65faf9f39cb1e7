/**
 * Regenerates the dashboard's pictures in docs/images: the main pages of the back office, each in
 * the light and the dark theme (`prefers-color-scheme`, as the stylesheet follows it), taken from
 * the real pages of a service on the embedded database with a merchant whose pages all have
 * content (the quality gates' walk merchant). Prints any console error or failed request a page
 * had, and exits non-zero if there was one, so a broken picture is not committed unseen.
 *
 *   node --conditions=development --import tsx scripts/dashboard-screenshots.ts
 *
 * Look at the pictures after running it: they are what a merchant's first impression is.
 */
import { mkdirSync } from 'node:fs';
import { launchChromium } from '../packages/server/test/support/browser.ts';
import { merchantWithData } from '../packages/server/test/support/dashboard-walk.ts';
import { paymentHelpers } from '../packages/server/test/support/payments.ts';
import { startTestService } from '../packages/server/test/support/service.ts';

const out = new URL('../docs/images/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });

const svc = await startTestService('embedded', { listen: true });
const problems: string[] = [];
try {
  const { merchant, owner } = await merchantWithData(svc, 'owner@pictures.example');
  // A few more payments in three currencies, so the overview's chart and the list have a shape.
  const pay = paymentHelpers(svc, () => merchant);
  for (const [amount, currency, token] of [
    [12500, 'USD', 'tok_sim_approve'],
    [899, 'USD', 'tok_sim_approve'],
    [30000, 'EUR', 'tok_sim_approve'],
    [4550, 'USD', 'tok_sim_decline'],
    [500, 'JPY', 'tok_sim_approve'],
  ] as const) {
    const intent = await pay.create({ amount_minor: amount, currency, metadata: { order: `ORD-${amount}` } });
    await pay.confirm(intent.id, { payment_method_token: token });
  }
  const base = svc.baseUrl as string;
  const browser = await launchChromium();
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      const [name, value] = owner.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: `${base}/dashboard` }]);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${page.url()} (${colorScheme}): ${message.text()}`);
      });
      page.on('requestfailed', (request) =>
        problems.push(`${request.url()}: ${request.failure()?.errorText}`),
      );
      const shoot = async (file: string, path: string) => {
        const response = await page.goto(`${base}${path}`);
        if (response?.status() !== 200) problems.push(`${path}: HTTP ${response?.status()}`);
        await page.screenshot({ path: `${out}dashboard-${file}-${colorScheme}.png`, fullPage: true });
      };
      await shoot('overview', '/dashboard/test/overview?lang=en');
      await shoot('payments-list', '/dashboard/test/payments?lang=en');
      const firstPayment = await page.locator('table a[href*="/payments/pi_"]').first().getAttribute('href');
      if (firstPayment) await shoot('payment', firstPayment);
      await shoot('webhooks-log', '/dashboard/test/webhooks?lang=en');
      await shoot('events', '/dashboard/test/events?lang=en');
      const firstEvent = await page.locator('table a[href*="/events/evt_"]').first().getAttribute('href');
      if (firstEvent) await shoot('event', firstEvent);
      await shoot('team-page', '/dashboard/team?lang=en');
      await shoot('keys', '/dashboard/test/api-keys?lang=en');
      await shoot('audit-log', '/dashboard/audit?lang=en');
      await shoot('overview-es', '/dashboard/test/overview?lang=es');
      await context.close();
    }
    // The sign-in page, signed out.
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 700 }, colorScheme });
      const page = await context.newPage();
      await page.goto(`${base}/dashboard/sign-in?lang=en`);
      await page.screenshot({ path: `${out}dashboard-sign-in-${colorScheme}.png` });
      await context.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await svc.close();
}
for (const problem of problems) console.error(problem);
console.log(`pictures written to ${out}${problems.length ? `; ${problems.length} problem(s) above` : ''}`);
process.exitCode = problems.length ? 1 : 0;
