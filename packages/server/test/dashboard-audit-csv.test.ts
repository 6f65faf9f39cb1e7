import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestService, type TestService } from './support/service.ts';

interface Entry {
  id: string;
  action: string;
  target: string | null;
  livemode: boolean | null;
  user_email: string | null;
  created_at: string;
}

for (const kind of databaseKinds()) {
  describe(`the audit log's CSV export (${kind})`, () => {
    let svc: TestService;
    let owner: DashboardUser;
    let developer: DashboardUser;
    let secondAt = new Date(0);

    const get = (path: string, as = owner) => dashboardRequest(svc, as, 'GET', path);

    before(async () => {
      svc = await startTestService(kind);
      const merchant = await svc.createMerchant('Audit CSV shop');
      owner = await firstOwner(svc, merchant.id, 'owner@auditcsv.example');
      developer = await teamMember(svc, owner, 'dev@auditcsv.example', 'developer');
      // Seven invitations, 90 minutes apart; one address a spreadsheet would run as a formula.
      for (let i = 0; i < 7; i += 1) {
        svc.clock.advance(90 * 60);
        if (i === 1) secondAt = svc.clock.now();
        const email = i === 3 ? '=1+2@auditcsv.example' : `guest${i}@auditcsv.example`;
        const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
          email,
          role: 'viewer',
        });
        assert.equal(invited.statusCode, 201, invited.body);
      }
    });
    after(() => svc.close());

    it("holds exactly the API's filtered entries across its pages, newest first, cells injection-safe", async () => {
      const filter = `action=invitation.created&user_email=OWNER@auditcsv.example&created_gte=${secondAt.toISOString()}`;
      const api: Entry[] = [];
      let cursor: string | null = null;
      do {
        const page = await get(
          `/dashboard/api/v1/audit-log?${filter}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        assert.equal(page.statusCode, 200, page.body);
        api.push(...page.json().data);
        cursor = page.json().next_cursor;
      } while (cursor);
      assert.equal(api.length, 6, 'guests 1 to 6, the owner invited them');

      const csv = await get(`/dashboard/api/v1/audit-log/export.csv?${filter}`);
      assert.equal(csv.statusCode, 200, csv.body);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /^attachment; filename="audit-log-.+\.csv"$/);
      assert.equal(csv.headers['cache-control'], 'no-store');
      const lines = csv.body.trimEnd().split('\r\n');
      assert.equal(lines[0], 'id,created_at,user_email,action,target,livemode');
      const expected = api.map((e) =>
        [
          e.id,
          e.created_at,
          e.user_email ?? '',
          e.action,
          e.target?.startsWith('=') ? `'${e.target}` : (e.target ?? ''),
          e.livemode === null ? '' : String(e.livemode),
        ].join(','),
      );
      assert.deepEqual(lines.slice(1), expected);
      assert.ok(
        lines.some((l) => l.includes(",'=1+2@auditcsv.example,")),
        'the formula is defused',
      );
      assert.equal(csv.body.includes(',=1+2'), false);

      // Unfiltered, it has every entry the API pages through.
      const everything = (await get('/dashboard/api/v1/audit-log?limit=200')).json().data as Entry[];
      const all = (await get('/dashboard/api/v1/audit-log/export.csv')).body.trimEnd().split('\r\n');
      assert.deepEqual(
        all.slice(1).map((l) => l.split(',')[0]),
        everything.map((e) => e.id),
      );
    });

    it('refuses a bad date with the field named, paging parameters, and anyone but an owner', async () => {
      const bad = await get('/dashboard/api/v1/audit-log/export.csv?created_lt=yesterday');
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().errors[0].field, 'created_lt');
      const paged = await get('/dashboard/api/v1/audit-log/export.csv?limit=2');
      assert.equal(paged.statusCode, 400, paged.body);
      const dev = await get('/dashboard/api/v1/audit-log/export.csv', developer);
      assert.equal(dev.statusCode, 403, dev.body);
      assert.equal(dev.json().code, 'insufficient_permissions');
    });

    it("the audit page's Download CSV link keeps the filters, in English and Spanish", async () => {
      for (const [lang, label] of [
        ['en', 'Download CSV'],
        ['es', 'Descargar CSV'],
      ] as const) {
        const page = await svc.request({
          method: 'GET',
          url: `/dashboard/audit?lang=${lang}&action=invitation.created&user_email=owner%40auditcsv.example&created_gte=2020-01-01&limit=3`,
          headers: { cookie: owner.cookie },
        });
        assert.equal(page.statusCode, 200, page.body);
        const link = page.body.match(/<a href="([^"]+)" download>([^<]+)<\/a>/);
        assert.ok(link, 'a download link');
        assert.equal(link[2], label);
        const href = (link[1] ?? '').replaceAll('&amp;', '&');
        assert.equal(
          href,
          '/dashboard/api/v1/audit-log/export.csv?action=invitation.created&user_email=owner%40auditcsv.example&created_gte=2020-01-01',
        );
        const csv = await get(href);
        assert.equal(csv.statusCode, 200, csv.body);
        assert.equal(csv.body.trimEnd().split('\r\n').length, 1 + 8, 'the developer and seven guests');
      }
    });
  });
}
