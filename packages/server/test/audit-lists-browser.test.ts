import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { recordAudit } from '../src/app/back-office-users/audit.ts';
import { createOperator, recordOperatorAction } from '../src/app/operators/operator-accounts.ts';
import { launchChromium, signedInPage } from './support/browser.ts';
import { cursorWithAlteredMac } from './support/cursors.ts';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';

const OPERATOR = 'ops@audit-lists.example';
const PASSWORD = 'a long operator password';

/**
 * The audit logs as lists for real volumes (issue 32, item 6), in headless Chromium on both
 * databases: the merchant's audit page and the operator console's audit page page forward and
 * back through keyset cursors with a filter, every link keeps the filters and the rows per page
 * in the URL, and the pages hold exactly what the dashboard API (or, for the console, which has
 * no API of its audit log, the table) finds; a bad cursor is a 400 naming its field.
 */
for (const kind of databaseKinds()) {
  describe(`audit logs: cursor pages both ways with filters in the URL (${kind})`, () => {
    let svc: TestService;
    let owner: DashboardUser;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let merchantId = '';
    let day = '';
    const pageErrors: string[] = [];

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      merchantId = (await svc.createMerchant('Audit lists shop')).id;
      owner = await firstOwner(svc, merchantId, 'owner@audit-lists.example');
      const developer = await teamMember(svc, owner, 'dev@audit-lists.example', 'developer');
      const operator = await createOperator(svc.ctx, { email: OPERATOR, password: PASSWORD });
      const users = await svc.ctx.db.query<{ id: string; email: string }>(
        'SELECT id, email FROM dashboard_users WHERE merchant_id = $1',
        [merchantId],
      );
      const userIdOf = (user: DashboardUser) => users.rows.find((u) => u.email === user.email)?.id as string;
      // 24 refunds by the owner and 11 by the developer, one every minute, interleaved with other
      // actions; entries of the same instant too (keyset order falls back on the id).
      for (let i = 0; i < 35; i++) {
        svc.clock.advance(60);
        const at = svc.clock.now();
        const userId = userIdOf(i % 3 === 2 ? developer : owner);
        await recordAudit(svc.ctx.db, at, {
          merchantId,
          userId,
          action: 'refund.created',
          target: `re_${String(i).padStart(24, '0')}`,
          livemode: false,
        });
        await recordAudit(svc.ctx.db, at, { merchantId, userId, action: 'api_key.created', target: `k${i}` });
        await recordOperatorAction(svc.ctx.db, at, {
          operatorId: operator.id,
          action: i % 2 ? 'merchant.created' : 'merchant.disabled',
          target: `acct_${i}`,
        });
      }
      day = svc.clock.now().toISOString().slice(0, 10);
      browser = await launchChromium();
      ({ context, page } = await signedInPage(browser, svc.baseUrl, owner.cookie, pageErrors));
    });
    after(async () => {
      await browser?.close();
      await svc?.close();
    });

    const auditApi = (query: Record<string, string>) =>
      dashboardRequest(svc, owner, 'GET', `/dashboard/api/v1/audit-log?${new URLSearchParams(query)}`);

    /** The ids of the rows of the page's table, in order. */
    const idsOnPage = () =>
      page.locator('tbody tr[data-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

    /** Follows `rel` links from the current page to the end, checking each URL keeps `filters`. */
    async function follow(rel: 'next' | 'prev', filters: Record<string, string>) {
      const pages: (string | null)[][] = [await idsOnPage()];
      for (;;) {
        const link = page.locator(`nav.pager a[rel="${rel}"]`);
        if ((await link.count()) === 0) return pages;
        await link.click();
        await page.waitForLoadState();
        const url = new URL(page.url());
        for (const [key, value] of Object.entries(filters))
          assert.equal(url.searchParams.get(key), value, `${key} kept in ${page.url()}`);
        assert.ok(url.searchParams.get(rel === 'next' ? 'cursor' : 'before'), page.url());
        pages.push(await idsOnPage());
        assert.ok(pages.length < 20, 'the pages end');
      }
    }

    it("pages the merchant's audit log filtered by action and user forward and back, as the API pages it", async () => {
      const filters = { action: 'refund.created', user_email: 'owner@audit-lists.example', limit: '10' };
      // The API's pages, forward by next_cursor, then back by previous_cursor.
      const apiPages: string[][] = [];
      let body = (await auditApi(filters)).json();
      assert.equal(body.previous_cursor, null, 'the first page has no newer page');
      apiPages.push(body.data.map((e: { id: string }) => e.id));
      while (body.next_cursor) {
        const response = await auditApi({ ...filters, cursor: body.next_cursor });
        assert.equal(response.statusCode, 200, response.body);
        body = response.json();
        assert.ok(body.previous_cursor, 'a later page has a newer page');
        apiPages.push(body.data.map((e: { id: string }) => e.id));
      }
      assert.deepEqual(
        apiPages.map((p) => p.length),
        [10, 10, 4],
      );
      assert.equal(body.has_more, false);
      const back = (await auditApi({ ...filters, before: body.previous_cursor })).json();
      assert.deepEqual(
        back.data.map((e: { id: string }) => e.id),
        apiPages[1],
      );
      assert.equal(back.has_more, true);
      const all = (
        await auditApi({ action: 'refund.created', user_email: 'owner@audit-lists.example', limit: '200' })
      )
        .json()
        .data.map((e: { id: string; user_email: string }) => e.id);
      assert.deepEqual(apiPages.flat(), all, 'every filtered entry once, newest first');

      // The page: the filter form puts the filters in the URL; the links keep them both ways.
      await page.goto(`${svc.baseUrl}/dashboard/audit?lang=en&limit=10`);
      await page.getByLabel('Action').fill('refund.created');
      await page.getByLabel('User (e-mail)').fill('owner@audit-lists.example');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/action=refund.created/);
      const forward = await follow('next', filters);
      assert.deepEqual(forward, apiPages);
      assert.equal(await page.getByRole('link', { name: 'Older entries' }).count(), 0);
      const backward = await follow('prev', filters);
      assert.deepEqual(backward, [...apiPages].reverse());
      assert.equal(await page.getByRole('link', { name: 'Newer entries' }).count(), 0);
    });

    it('filters by UTC day on the date inputs and keeps the days in the links', async () => {
      const filters = { action: 'api_key.created', created_gte: day, created_lt: '2999-01-01', limit: '20' };
      await page.goto(`${svc.baseUrl}/dashboard/audit?${new URLSearchParams({ ...filters, lang: 'en' })}`);
      assert.equal(await page.getByLabel('From (UTC date)').inputValue(), day);
      const forward = await follow('next', filters);
      const api = (await auditApi({ ...filters, limit: '200' })).json().data.map((e: { id: string }) => e.id);
      assert.deepEqual(forward.flat(), api);
    });

    it('refuses a cursor it did not give out with a 400 naming the field, on the API and on the page (in Spanish too)', async () => {
      const valid = (await auditApi({ limit: '1' })).json().next_cursor as string;
      const forged = await auditApi({ cursor: 'bm90LWEtY3Vyc29y' });
      assert.equal(forged.statusCode, 400);
      assert.equal(forged.json().errors[0].field, 'cursor');
      const badBefore = await auditApi({ before: cursorWithAlteredMac(valid) });
      assert.equal(badBefore.statusCode, 400);
      assert.equal(badBefore.json().errors[0].field, 'before');
      const both = await auditApi({ cursor: valid, before: valid });
      assert.equal(both.statusCode, 400);
      assert.equal(both.json().errors[0].field, 'before');
      const response = await page.goto(
        `${svc.baseUrl}/dashboard/audit?lang=es&action=refund.created&before=nope`,
      );
      assert.equal(response?.status(), 400);
      await page
        .getByRole('alert')
        .filter({
          hasText: 'página anterior: está mal formado; pasa sin cambios el previous_cursor de una página',
        })
        .waitFor();
      assert.equal(
        await page.getByLabel('Acción').inputValue(),
        'refund.created',
        'the filter stays in the form',
      );
    });

    it("pages the operator console's audit log filtered by action forward and back, as the table holds it", async () => {
      const signing = await context.newPage();
      await signing.goto(`${svc.baseUrl}/operator/sign-in?lang=en`);
      await signing.getByLabel('E-mail address').fill(OPERATOR);
      await signing.getByLabel('Password').fill(PASSWORD);
      await signing.getByRole('button', { name: 'Sign in' }).click();
      await signing.waitForURL(/\/operator\/merchants/);
      await signing.close();
      const stored = await svc.ctx.db.query<{ id: string }>(
        "SELECT id FROM operator_audit_log WHERE action = 'merchant.created' ORDER BY created_at DESC, id DESC",
      );
      const expected = stored.rows.map((r) => r.id);
      assert.equal(expected.length, 17);
      const filters = { action: 'merchant.created', limit: '5' };
      await page.goto(`${svc.baseUrl}/operator/audit?lang=en&limit=5`);
      await page.getByLabel('Action').fill('merchant.created');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/action=merchant.created/);
      const forward = await follow('next', filters);
      assert.deepEqual(
        forward.map((p) => p.length),
        [5, 5, 5, 2],
      );
      assert.deepEqual(forward.flat(), expected);
      const backward = await follow('prev', filters);
      assert.deepEqual(backward, [...forward].reverse());
      const byOperator = { operator_email: OPERATOR, created_gte: day, limit: '50' };
      await page.goto(`${svc.baseUrl}/operator/audit?${new URLSearchParams({ ...byOperator, lang: 'es' })}`);
      assert.equal(await page.getByLabel('Operador').inputValue(), OPERATOR);
      const bad = await page.goto(`${svc.baseUrl}/operator/audit?lang=es&cursor=nope`);
      assert.equal(bad?.status(), 400);
      await page.getByRole('alert').filter({ hasText: 'página siguiente: está mal formado' }).waitFor();
      assert.deepEqual(pageErrors, []);
    });
  });
}
