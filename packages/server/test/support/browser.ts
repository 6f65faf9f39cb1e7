import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** The flags every browser test starts Chromium with. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Where the browser tests' screenshots are written: the documentation's pictures in docs/images/
 * when PAYGATE_DOCS_SCREENSHOTS=1 (to refresh them on purpose), else a scratch folder, so that a
 * test run leaves the working tree as it found it.
 */
export const screenshots =
  process.env.PAYGATE_DOCS_SCREENSHOTS === '1'
    ? new URL('../../../../docs/images/', import.meta.url).pathname
    : `${join(tmpdir(), 'paygate-screenshots')}/`;
mkdirSync(screenshots, { recursive: true });

/**
 * The screenshot folder for a run on `kind`: the documentation's pictures come from the embedded
 * database's run only (the PostgreSQL run of the same pages writes to the scratch folder).
 */
export function screenshotsFor(kind: 'embedded' | 'postgres'): string {
  if (kind === 'embedded') return screenshots;
  const scratch = `${join(tmpdir(), 'paygate-screenshots', kind)}/`;
  mkdirSync(scratch, { recursive: true });
  return scratch;
}

/** The system's headless Chromium, as every browser test runs it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A desktop-sized page of `browser` signed in with a dashboard session cookie (`name=value`) for
 * `baseUrl`'s dashboard; the page's script errors are pushed to `pageErrors`.
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string | null,
  cookie: string,
  pageErrors: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  if (baseUrl === null) throw new Error('signedInPage needs a service that listens ({ listen: true })');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: `${baseUrl}/dashboard` }]);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page };
}

/** axe-core's serious and critical violations on the page as it is now (injected over CDP, not through the CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // Reflect reads the page's global, which this Node program has no DOM types for.
    const axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } =
      Reflect.get(globalThis, 'axe');
    const result = await axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.count})`);
}
