import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, signedInPage } from './support/browser.ts';
import { type DashboardUser, dashboardRequest, firstOwner } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { paymentHelpers } from './support/payments.ts';
import { type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/**
 * The events page (issue 32, item 6), in headless Chromium on both databases: the mode's events
 * page through keyset cursors both ways with a type filter kept in every URL, each page holds
 * exactly what the dashboard API's page holds, the CSV link downloads exactly the filtered set, and
 * an event's page shows its payload (escaped) and its delivery to each endpoint.
 */
for (const kind of databaseKinds()) {
  describe(`dashboard events page: cursor pages, filters in the URL, one event (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchant = await svc.createMerchant('Events page shop');
      owner = await firstOwner(svc, merchant.id, 'owner@events-page.example');
      const endpoint = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/test/webhook-endpoints',
        {
          url: 'http://127.0.0.1:9/events-page-hooks',
          enabled_events: ['*'],
        },
      );
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const pay = paymentHelpers(svc, () => merchant);
      // Seven succeeded payments and three declined ones, interleaved; one carries markup in its
      // metadata, which the payload shows as text.
      for (let i = 0; i < 10; i++) {
        const intent = await pay.create({
          amount_minor: 1000 + i,
          metadata: { note: i === 0 ? '<b>bold</b> & "quoted"' : `order-${i}` },
        });
        const confirmed = await pay.confirm(intent.id, {
          payment_method_token: i % 3 === 2 ? 'tok_sim_decline' : 'tok_sim_approve',
        });
        assert.ok(confirmed.statusCode < 500, confirmed.body);
      }
      browser = await launchChromium();
      ({ context, page } = await signedInPage(browser, svc.baseUrl, owner.cookie, pageErrors));
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    const api = async (query: string) => {
      const response = await dashboardRequest(svc, owner, 'GET', `/dashboard/api/v1/test/events?${query}`);
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as {
        data: { id: string }[];
        next_cursor: string | null;
        previous_cursor: string | null;
      };
    };

    function idsOnPage(): Promise<string[]> {
      return page
        .locator('table a[href*="/events/evt_"]')
        .evaluateAll((links) => links.map((a) => (a.textContent ?? '').trim()));
    }

    /** Follows `rel` links to the end; each page's URL keeps the filters and equals the API's page. */
    async function follow(rel: 'next' | 'prev', filters: Record<string, string>) {
      const pages: string[][] = [await idsOnPage()];
      for (;;) {
        const link = page.locator(`nav.pager a[rel="${rel}"]`);
        if ((await link.count()) === 0) return pages;
        await link.click();
        await page.waitForLoadState();
        const url = new URL(page.url());
        for (const [key, value] of Object.entries(filters))
          assert.equal(url.searchParams.get(key), value, `${key} kept in ${page.url()}`);
        const cursor = url.searchParams.get(rel === 'next' ? 'cursor' : 'before');
        assert.ok(cursor, page.url());
        const shown = await idsOnPage();
        const fromApi = await api(
          new URLSearchParams({ ...filters, [rel === 'next' ? 'cursor' : 'before']: cursor }).toString(),
        );
        assert.deepEqual(
          shown,
          fromApi.data.map((e) => e.id),
          `the page at ${page.url()} is the API's page`,
        );
        pages.push(shown);
        assert.ok(pages.length < 20, 'the pages end');
      }
    }

    it('pages through the filtered events forward and back, as the API finds them, and downloads exactly them as CSV', async () => {
      const filters = { type: 'payment_intent.succeeded', limit: '3' };
      const expected = (await api('type=payment_intent.succeeded&limit=100')).data.map((e) => e.id);
      assert.equal(expected.length, 7);

      // From the side navigation, then the search form puts the filter in the URL.
      await page.goto(`${svc.baseUrl}/dashboard/test/overview?lang=en`);
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Events' }).click();
      await page.waitForLoadState();
      assert.equal(new URL(page.url()).pathname, '/dashboard/test/events');
      const everything = (await api('')).data.map((e) => e.id);
      assert.equal(everything.length, 10, 'one outcome event per payment');
      assert.deepEqual(await idsOnPage(), everything);
      await page.goto(`${svc.baseUrl}/dashboard/test/events?lang=en&limit=3`);
      const search = page.getByRole('search', { name: 'Search events' });
      await search.getByLabel('Type').selectOption('payment_intent.succeeded');
      await search.getByRole('button', { name: 'Search' }).click();
      await page.waitForLoadState();
      for (const [key, value] of Object.entries(filters))
        assert.equal(new URL(page.url()).searchParams.get(key), value);
      assert.deepEqual(
        await idsOnPage(),
        (await api('type=payment_intent.succeeded&limit=3')).data.map((e) => e.id),
      );

      const forward = await follow('next', filters);
      assert.deepEqual(
        forward.map((ids) => ids.length),
        [3, 3, 1],
      );
      assert.deepEqual(forward.flat(), expected, 'the pages hold what the API finds, newest first');
      const back = await follow('prev', filters);
      assert.deepEqual(back, [...forward].reverse(), 'previous pages are the same pages');

      // Each row: its type, a link to its payment, its deliveries' state and a relative time.
      const row = page.locator('tbody tr').first();
      assert.equal(await row.locator('td').nth(1).innerText(), 'payment_intent.succeeded');
      assert.equal(await row.locator('a[href*="/dashboard/test/payments/pi_"]').count(), 1);
      assert.match(await row.locator('td').nth(3).innerText(), /of 1 delivered/);
      assert.ok(await row.locator('time[datetime][title]').count());

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
      assert.deepEqual(pageErrors, []);
    });

    it('says what to do when nothing matches, and names a filter it cannot read', async () => {
      await page.goto(`${svc.baseUrl}/dashboard/test/events?lang=en&object_id=pi_none`);
      assert.match(await page.locator('.empty').innerText(), /No events match[\s\S]*test payment/);
      const bad = await page.goto(`${svc.baseUrl}/dashboard/test/events?lang=en&type=payment.lost`);
      assert.equal(bad?.status(), 400);
      assert.match(await page.getByRole('alert').innerText(), /^type\b/);
      const badCursor = await page.goto(`${svc.baseUrl}/dashboard/test/events?lang=en&cursor=nope`);
      assert.equal(badCursor?.status(), 400);
      assert.match(await page.getByRole('alert').innerText(), /cursor/);
    });

    it('shows one event: its payload escaped and pretty-printed, its delivery to each endpoint', async () => {
      const [first] = (await api('type=payment_intent.succeeded&limit=100')).data.slice(-1);
      assert.ok(first);
      await page.goto(`${svc.baseUrl}/dashboard/test/events?lang=en&type=payment_intent.succeeded&limit=100`);
      await page.locator(`table a[href*="/events/${first.id}"]`).click();
      await page.waitForLoadState();
      assert.equal(new URL(page.url()).pathname, `/dashboard/test/events/${first.id}`);
      assert.equal(await page.locator('h1').innerText(), 'payment_intent.succeeded');
      const payload = await page.getByRole('region', { name: /Payload/ }).innerText();
      const detail = (
        await dashboardRequest(svc, owner, 'GET', `/dashboard/api/v1/test/events/${first.id}`)
      ).json();
      assert.equal(payload.trim(), JSON.stringify(JSON.parse(detail.payload), null, 2));
      assert.match(payload, /"note": "<b>bold<\/b> & \\"quoted\\""/, 'markup shown as text');
      assert.equal(await page.locator('pre b').count(), 0, 'no markup from the payload in the page');
      const delivery = page.locator('table a[href*="/webhooks/deliveries/wd_"]');
      assert.equal(await delivery.count(), 1);
      assert.equal(await page.getByRole('button', { name: /Retry now/ }).count(), 1);
      await delivery.click();
      await page.waitForLoadState();
      assert.match(new URL(page.url()).pathname, /^\/dashboard\/test\/webhooks\/deliveries\/wd_/);
      assert.deepEqual(pageErrors, []);
    });
  });
}
