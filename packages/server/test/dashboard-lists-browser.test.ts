import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, signedInPage } from './support/browser.ts';
import { type DashboardUser, dashboardRequest, firstOwner } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { paymentHelpers } from './support/payments.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/**
 * Lists for real volumes (issue 32, item 6), in headless Chromium on both databases: the payments
 * list and the webhook delivery log page through keyset cursors (next and previous), every link
 * keeps the filters in the URL, the pages together hold exactly what the dashboard API finds, and
 * the CSV download holds exactly the filtered rows.
 */
for (const kind of databaseKinds()) {
  describe(`dashboard lists: cursor pages, filters in the URL, the CSV of the filtered set (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Lists shop');
      owner = await firstOwner(svc, merchant.id, 'owner@lists.example');
      const pay = paymentHelpers(svc, () => merchant);
      // Seven payments in USD (two of them of another batch) and three in EUR, interleaved.
      for (let i = 0; i < 10; i++) {
        await pay.create({
          amount_minor: 1000 + i,
          currency: i % 3 === 2 ? 'EUR' : 'USD',
          metadata: { batch: i === 4 || i === 7 ? 'other' : 'lists' },
        });
      }
      const endpoint = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/test/webhook-endpoints',
        {
          url: 'http://127.0.0.1:9/lists-hooks',
          enabled_events: ['*'],
        },
      );
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      for (let i = 0; i < 5; i++) {
        const sent = await dashboardRequest(
          svc,
          owner,
          'POST',
          `/dashboard/api/v1/test/webhook-endpoints/${endpoint.json().id}/send-test-event`,
          { type: i % 2 ? 'payment_intent.succeeded' : 'refund.succeeded' },
        );
        assert.ok(sent.statusCode < 300, sent.body);
      }
      browser = await launchChromium();
      ({ context, page } = await signedInPage(browser, svc.baseUrl, owner.cookie, pageErrors));
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    /** The ids the dashboard API finds for `query` (one page of up to 100: all of them here). */
    async function apiIds(path: string, query: Record<string, string>): Promise<string[]> {
      const response = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/api/v1/test/${path}?${new URLSearchParams({ ...query, limit: '100' })}`,
      );
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.has_more, false);
      return body.data.map((row: { id: string }) => row.id);
    }

    /** The ids in the page's table, from the links to their pages, in order. */
    function idsOnPage(linkPart: string): Promise<string[]> {
      return page
        .locator(`table a[href*="${linkPart}"]`)
        .evaluateAll((links) => links.map((a) => (a.textContent ?? '').trim()));
    }

    /** Follows `rel` links from the current page to the end, checking each URL keeps `filters`. */
    async function follow(rel: 'next' | 'prev', linkPart: string, filters: Record<string, string>) {
      const pages: string[][] = [await idsOnPage(linkPart)];
      for (;;) {
        const link = page.locator(`nav.pager a[rel="${rel}"]`);
        if ((await link.count()) === 0) return pages;
        await link.click();
        await page.waitForLoadState();
        const url = new URL(page.url());
        for (const [key, value] of Object.entries(filters))
          assert.equal(url.searchParams.get(key), value, `${key} kept in ${page.url()}`);
        assert.ok(url.searchParams.get(rel === 'next' ? 'cursor' : 'before'), page.url());
        pages.push(await idsOnPage(linkPart));
        assert.ok(pages.length < 20, 'the pages end');
      }
    }

    it('pages through the filtered payments forward and back, as the API finds them, and downloads exactly them as CSV', async () => {
      const filters = { currency: 'USD', metadata_key: 'batch', metadata_value: 'lists', limit: '2' };
      const expected = await apiIds('payments', {
        currency: 'USD',
        metadata_key: 'batch',
        metadata_value: 'lists',
      });
      assert.equal(expected.length, 5);

      // The search form puts the filters in the URL (the rows per page ride along in the form).
      await page.goto(`${svc.baseUrl}/dashboard/test/payments?lang=en&limit=2`);
      await page.getByLabel('Currency').fill('USD');
      await page.getByLabel('Metadata key').fill('batch');
      await page.getByLabel('Metadata value').fill('lists');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForLoadState();
      const first = new URL(page.url());
      for (const [key, value] of Object.entries(filters)) assert.equal(first.searchParams.get(key), value);

      const forward = await follow('next', '/payments/pi_', filters);
      assert.deepEqual(
        forward.map((ids) => ids.length),
        [2, 2, 1],
      );
      assert.deepEqual(forward.flat(), expected, 'the pages hold what the API finds, newest first');
      assert.equal(await page.locator('nav.pager a[rel="prev"]').count(), 1);

      const back = await follow('prev', '/payments/pi_', filters);
      assert.deepEqual(back, [...forward].reverse(), 'previous pages are the same pages');
      assert.equal(await page.locator('nav.pager a[rel="next"]').count(), 1);

      // The CSV link of the filtered page: exactly the filtered rows, whatever page one is on.
      const csvHref = await page.getByRole('link', { name: /CSV/ }).getAttribute('href');
      assert.ok(csvHref);
      const csv = await page.request.get(`${svc.baseUrl}${csvHref}`);
      assert.equal(csv.status(), 200);
      const lines = (await csv.text()).trimEnd().split('\r\n');
      assert.equal(lines[0]?.split(',')[0], 'id');
      assert.deepEqual(
        lines.slice(1).map((line) => line.split(',')[0]),
        expected,
      );
      for (const line of lines.slice(1)) assert.match(line, /,USD,/);
      assert.deepEqual(pageErrors, []);
    });

    it('pages through the filtered delivery log forward and back, as the API finds it', async () => {
      const filters = { event_type: 'refund.succeeded', limit: '1' };
      const expected = await apiIds('webhook-deliveries', { event_type: 'refund.succeeded' });
      assert.equal(expected.length, 3);
      const opened = await page.goto(`${svc.baseUrl}/dashboard/test/webhooks?lang=en&limit=1`);
      assert.equal(opened?.status(), 200, await opened?.text());
      const search = page.getByRole('search', { name: 'Delivery log' });
      await search.locator('select[name="event_type"]').selectOption('refund.succeeded');
      await search.getByRole('button', { name: 'Search' }).click();
      await page.waitForLoadState();
      for (const [key, value] of Object.entries(filters))
        assert.equal(new URL(page.url()).searchParams.get(key), value);

      const forward = await follow('next', '/webhooks/deliveries/wd_', filters);
      assert.deepEqual(forward.flat(), expected);
      assert.equal(forward.length, 3);
      const back = await follow('prev', '/webhooks/deliveries/wd_', filters);
      assert.deepEqual(back, [...forward].reverse());

      // The API pages the same way: next_cursor forward, previous_cursor back.
      const one = async (query: string) =>
        (
          await dashboardRequest(
            svc,
            owner,
            'GET',
            `/dashboard/api/v1/test/webhook-deliveries?event_type=refund.succeeded&limit=2${query}`,
          )
        ).json();
      const p1 = await one('');
      const p2 = await one(`&cursor=${p1.next_cursor}`);
      assert.equal(p1.previous_cursor, null);
      assert.deepEqual(
        [...p1.data, ...p2.data].map((d: { id: string }) => d.id),
        expected,
      );
      assert.equal(p2.next_cursor, null);
      const again = await one(`&before=${p2.previous_cursor}`);
      assert.deepEqual(
        again.data.map((d: { id: string }) => d.id),
        expected.slice(0, 2),
      );
      assert.equal(again.previous_cursor, null);
      const both = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/api/v1/test/webhook-deliveries?cursor=${p1.next_cursor}&before=${p1.next_cursor}`,
      );
      assert.equal(both.statusCode, 400);
      assert.deepEqual(pageErrors, []);
    });
  });
}
