import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { startTestService, type TestService } from './support/service.ts';

const CHROMIUM = '/usr/bin/chromium';
const contractFile = new URL('../../contract/openapi.json', import.meta.url);

describe('the API reference served by the service', () => {
  let svc: TestService;
  let browser: Browser;
  before(async () => {
    svc = await startTestService('embedded', { listen: true });
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  after(async () => {
    await browser.close();
    await svc.close();
  });

  it('serves the contract package’s openapi.json at GET /v1/openapi.json, without a key', async () => {
    const response = await svc.request({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.deepEqual(response.json(), JSON.parse(readFileSync(contractFile, 'utf8')));
    const again = await svc.request({
      method: 'GET',
      url: '/v1/openapi.json',
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
  });

  it('renders a readable reference page in Chromium from this origin alone (no CDN)', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      const response = await page.goto(`${svc.baseUrl}/docs/api`);
      assert.equal(response?.status(), 200);
      const operation = page.locator('.opblock-summary-path[data-path="/v1/payment-intents/{id}/confirm"]');
      await operation.first().waitFor({ state: 'visible' });
      const title = (await page.locator('.information-container .title').first().textContent()) ?? '';
      const spec = JSON.parse(readFileSync(contractFile, 'utf8'));
      assert.ok(title.includes(spec.info.title), title);
      const operations = await page.locator('.opblock').count();
      const expected = Object.values(spec.paths as Record<string, object>).reduce(
        (n: number, methods) =>
          n + Object.keys(methods).filter((m) => /^(get|post|put|patch|delete)$/.test(m)).length,
        0,
      );
      const webhooks = Object.keys(spec.webhooks ?? {}).length;
      assert.ok(webhooks > 0);
      assert.equal(
        operations,
        expected + webhooks,
        'one block per operation and per event type of the contract',
      );
      const foreign = requested.filter(
        (url) => !url.startsWith(`${svc.baseUrl}/`) && !url.startsWith('data:'),
      );
      assert.deepEqual(foreign, [], 'nothing is loaded from another origin');
      assert.deepEqual(problems, [], 'no script or CSP errors');
    } finally {
      await page.close();
    }
  });
});
