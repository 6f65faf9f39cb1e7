import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import lighthouse from 'lighthouse';
import { type BrowserContext, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser.ts';
import { inLanguage, linksOn, merchantWithData, walkPages } from './support/dashboard-walk.ts';
import { startTestService, type TestService } from './support/service.ts';

/**
 * The Lighthouse gate: every page of the back office (the axe walk's pages, support/dashboard-walk.ts,
 * which fails unless it reaches every GET page route the service registered) scores 100 in
 * accessibility and in best practices, what docs/dashboard.md says, in headless Chromium, with no
 * network beyond the service on the loopback address. Both categories are binary audits, the same
 * on a loaded machine as on a quiet one.
 *
 * One language and the light theme: the axe walk (dashboard-quality-browser.test.ts) already checks
 * both languages and both themes on both databases, and Lighthouse's accessibility score is axe's
 * rules again; what it adds is its own audits (best practices: console errors, deprecated APIs,
 * the document's charset and doctype, issues the browser reports), which do not depend on the
 * language or theme. The embedded database only: the pages are the same HTML on PostgreSQL (the
 * other browser tests run both), and one Lighthouse pass of every page is the slowest test of the
 * suite, so a second pass would double its time for nothing it could find.
 */
const MINIMUM = 100;

describe('dashboard quality gates: Lighthouse accessibility and best practices 100 on every page', () => {
  let svc: TestService;
  let context: BrowserContext;
  let profile: string;
  let port: number;

  before(async () => {
    svc = await startTestService('embedded', { listen: true });
    const { owner } = await merchantWithData(svc, 'owner@lighthouse.example');
    // Lighthouse drives a browser through its DevTools port: a persistent profile, so the port
    // Chromium picked (port 0: any free one) is written to DevToolsActivePort, and the session
    // cookie set here is the one Lighthouse's tab sends.
    profile = mkdtempSync(join(tmpdir(), 'paygate-lighthouse-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--remote-debugging-port=0'],
      viewport: { width: 1280, height: 900 },
    });
    port = Number(readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: `${svc.baseUrl}/dashboard` }]);
  });
  after(async () => {
    await context?.close();
    await svc?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('scores every page route 100 in accessibility and best practices', async (t) => {
    const baseUrl = svc.baseUrl as string;
    const walker = await context.newPage();
    const scores: string[] = [];
    const failures: string[] = [];
    const visited = await walkPages(async (pathAndQuery) => {
      const url = inLanguage(baseUrl, pathAndQuery, 'en');
      const result = await lighthouse(
        url,
        { port, output: 'json', logLevel: 'error' },
        {
          extends: 'lighthouse:default',
          settings: {
            onlyCategories: ['accessibility', 'best-practices'],
            formFactor: 'desktop',
            screenEmulation: { disabled: true },
            throttlingMethod: 'provided',
            // Keeps the session cookie: the signed-in pages are the ones measured.
            disableStorageReset: true,
            disableFullPageScreenshot: true,
            // The pages are server-rendered with one small script and no request after load: no
            // need to wait for a network or CPU quiet period (Lighthouse's 1 s defaults, each).
            pauseAfterFcpMs: 0,
            pauseAfterLoadMs: 0,
            networkQuietThresholdMs: 0,
            cpuQuietThresholdMs: 0,
          },
        },
      );
      assert.ok(result, url);
      const { lhr } = result;
      assert.equal(lhr.runtimeError, undefined, `${url}: ${JSON.stringify(lhr.runtimeError)}`);
      assert.equal(lhr.finalDisplayedUrl, url, 'the page itself was measured, not a redirect to sign-in');
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const accessibility = score('accessibility');
      const practices = score('best-practices');
      // The audits that cost points (named in the report and on failure).
      const lost = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id);
      const line = `${pathAndQuery}: accessibility ${accessibility}, best practices ${practices}${lost.length ? ` (${lost.join(', ')})` : ''}`;
      scores.push(line);
      if (accessibility < MINIMUM || practices < MINIMUM) failures.push(line);
      await walker.goto(url);
      return linksOn(walker);
    });
    for (const line of scores) t.diagnostic(line);
    assert.deepEqual(failures, []);
    // walkPages has checked that every GET page route was reached; this says how many pages that was.
    t.diagnostic(`walked ${visited.length} pages`);
  });
});
