import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';

interface Entry {
  id: string;
  action: string;
  target: string | null;
  user_email: string | null;
  created_at: string;
}

for (const kind of databaseKinds()) {
  describe(`the audit log: paging, filters and its page (${kind})`, () => {
    let svc: TestService;
    let owner: DashboardUser;
    let developer: DashboardUser;
    let secondAt = new Date(0);
    let firstDay = '';

    const auditApi = (query: string, as = owner) =>
      dashboardRequest(svc, as, 'GET', `/dashboard/api/v1/audit-log${query}`);

    before(async () => {
      svc = await startTestService(kind);
      const merchant = await svc.createMerchant('Audit shop');
      owner = await firstOwner(svc, merchant.id, 'owner@audit.example');
      developer = await teamMember(svc, owner, 'dev@audit.example', 'developer');
      firstDay = svc.clock.now().toISOString().slice(0, 10);
      // Seven invitations, 90 minutes apart (within one session's lifetime).
      for (let i = 0; i < 7; i += 1) {
        svc.clock.advance(90 * 60);
        if (i === 1) secondAt = svc.clock.now();
        const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
          email: `guest${i}@audit.example`,
          role: 'viewer',
        });
        assert.equal(invited.statusCode, 201, invited.body);
      }
    });
    after(() => svc.close());

    it('pages newest first with a cursor, every entry once', async () => {
      const seen: Entry[] = [];
      let cursor: string | null = null;
      do {
        const response = await auditApi(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.ok(body.data.length <= 3);
        seen.push(...body.data);
        cursor = body.next_cursor;
        assert.equal(body.has_more, cursor !== null);
      } while (cursor);
      const all = (await auditApi('?limit=200')).json().data as Entry[];
      assert.deepEqual(
        seen.map((e) => e.id),
        all.map((e) => e.id),
      );
      assert.equal(new Set(seen.map((e) => e.id)).size, seen.length);
      const times = seen.map((e) => e.created_at);
      assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
      assert.ok(seen.length >= 12, `${seen.length} entries`);
    });

    it('filters by action, by user and by date', async () => {
      const invitations = (await auditApi('?action=invitation.created&limit=200')).json().data as Entry[];
      assert.equal(invitations.length, 9); // the operator's (the owner), the developer's, seven guests'
      assert.ok(invitations.every((e) => e.action === 'invitation.created'));
      const byDev = (await auditApi('?user_email=DEV@audit.example')).json().data as Entry[];
      assert.ok(byDev.length >= 2);
      assert.ok(byDev.every((e) => e.user_email === 'dev@audit.example'));
      const minute = new Date(secondAt.getTime() + 60_000).toISOString();
      const oneMinute = (
        await auditApi(
          `?action=invitation.created&created_gte=${secondAt.toISOString()}&created_lt=${minute}`,
        )
      ).json().data as Entry[];
      assert.deepEqual(
        oneMinute.map((e) => e.target),
        ['guest1@audit.example'],
      );
      const from = (await auditApi(`?action=invitation.created&created_gte=${secondAt.toISOString()}`)).json()
        .data as Entry[];
      assert.equal(from.length, 6);
      // A bare date is that UTC day's start: nothing happened before the first day.
      assert.equal((await auditApi(`?created_lt=${firstDay}`)).json().data.length, 0);
      assert.ok((await auditApi(`?created_gte=${firstDay}`)).json().data.length >= 12);
    });

    it('refuses a bad date or cursor with the field named, and anyone but an owner', async () => {
      const badDate = await auditApi('?created_gte=last-week');
      assert.equal(badDate.statusCode, 400, badDate.body);
      assert.equal(badDate.json().errors[0].field, 'created_gte');
      const badCursor = await auditApi('?cursor=bm90LWEtY3Vyc29y');
      assert.equal(badCursor.statusCode, 400, badCursor.body);
      assert.equal(badCursor.json().errors[0].field, 'cursor');
      const dev = await auditApi('', developer);
      assert.equal(dev.statusCode, 403, dev.body);
      assert.equal(dev.json().code, 'insufficient_permissions');
    });

    it('the page shows the filtered entries with older and newer links that keep the filter, in English and Spanish; not to a developer', async () => {
      const page = await svc.request({
        method: 'GET',
        url: '/dashboard/audit?lang=en&action=invitation.created&limit=3',
        headers: { cookie: owner.cookie },
      });
      assert.equal(page.statusCode, 200, page.body);
      assert.match(page.body, /<h1[^>]*>Audit log/);
      assert.match(page.body, /guest6@audit\.example/);
      assert.equal(page.body.includes('sign_in.succeeded'), false, 'only the filtered action');
      // Three a page (the URL's limit): the older-entries link keeps the filter and the size.
      const older = page.body.match(/<a rel="next" href="([^"]+)"/)?.[1]?.replaceAll('&amp;', '&');
      assert.ok(older, 'nine entries, three a page');
      assert.match(older, /action=invitation\.created&limit=3&cursor=/);
      assert.equal(page.body.includes('rel="prev"'), false, 'the first page has no newer page');
      const second = await svc.request({ method: 'GET', url: older, headers: { cookie: owner.cookie } });
      assert.equal(second.statusCode, 200);
      assert.match(
        second.body,
        /<a rel="prev" href="[^"]*action=invitation\.created&amp;limit=3&amp;before=/,
      );
      const spanish = await svc.request({
        method: 'GET',
        url: '/dashboard/audit?lang=es',
        headers: { cookie: owner.cookie },
      });
      assert.match(spanish.body, /Registro de auditoría/);
      assert.match(spanish.body, /Solo los propietarios pueden leerlo/);
      const bad = await svc.request({
        method: 'GET',
        url: '/dashboard/audit?lang=en&created_lt=yesterday',
        headers: { cookie: owner.cookie },
      });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /role="alert">created_lt: must be a date/);
      const dev = await svc.request({
        method: 'GET',
        url: '/dashboard/audit?lang=en',
        headers: { cookie: developer.cookie },
      });
      assert.equal(dev.statusCode, 403);
      assert.match(dev.body, /Only owners may read the audit log/);
      assert.equal(dev.body.includes('guest1@audit.example'), false);
    });
  });
}
