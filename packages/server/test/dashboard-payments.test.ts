import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { searchPaymentIntents } from '../src/storage/repositories/payment-search.ts';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

const ids = (response: { json(): { data: { id: string }[] } }) => response.json().data.map((pi) => pi.id);

for (const kind of databaseKinds()) {
  describe(`dashboard payment search, detail and CSV export (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let viewer: DashboardUser;
    let usd: IntentJson;
    let eur: IntentJson;
    let declined: IntentJson;
    let created: IntentJson;
    let startedAt: string;
    let laterAt: string;

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Search shop');
      owner = await firstOwner(svc, merchant.id, 'owner@search.example');
      viewer = await teamMember(svc, owner, 'viewer@search.example', 'viewer');
      const hook = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/test/webhook-endpoints', {
        url: 'http://127.0.0.1:9/search-hooks',
      });
      assert.equal(hook.statusCode, 201, hook.body);
      const pay = paymentHelpers(svc, () => merchant);
      startedAt = svc.clock.now().toISOString();
      usd = await pay.create({
        amount_minor: 4000,
        metadata: { order: 'A-1', note: '=HYPERLINK("http://evil")' },
      });
      await pay.confirm(usd.id, { payment_method_token: 'tok_sim_approve' });
      declined = await pay.create({ amount_minor: 900, metadata: { order: 'A-2' } });
      await pay.confirm(declined.id, { payment_method_token: 'tok_sim_decline' });
      svc.clock.advance(3600);
      laterAt = svc.clock.now().toISOString();
      eur = await pay.create({ amount_minor: 12000, currency: 'EUR', metadata: { order: 'B-1, "big"' } });
      await pay.confirm(eur.id, { payment_method_token: 'tok_sim_approve' });
      created = await pay.create({ amount_minor: 51, currency: 'USD' });
      const refund = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/test/refunds',
        { payment_intent_id: usd.id, amount_minor: 1500 },
        { 'idempotency-key': freshKey() },
      );
      assert.equal(refund.statusCode, 200, refund.body);
    });
    after(() => svc.close());

    const search = (query: string, user = owner) =>
      dashboardRequest(svc, user, 'GET', `/dashboard/api/v1/test/payments${query}`);

    it('finds payments by id, status, amount range, currency, time and metadata', async () => {
      assert.deepEqual(ids(await search('')), [created.id, eur.id, declined.id, usd.id]);
      assert.deepEqual(ids(await search(`?id=${eur.id}`)), [eur.id]);
      assert.deepEqual(ids(await search('?status=FAILED')), [declined.id]);
      assert.deepEqual(ids(await search('?amount_min=900&amount_max=4000')), [declined.id, usd.id]);
      assert.deepEqual(ids(await search('?currency=eur')), [eur.id], 'the code in any case');
      assert.deepEqual(ids(await search(`?from=${laterAt}`)), [created.id, eur.id]);
      assert.deepEqual(ids(await search(`?from=${startedAt}&to=${laterAt}`)), [declined.id, usd.id]);
      assert.deepEqual(ids(await search('?metadata_key=order&metadata_value=A-1')), [usd.id]);
      assert.deepEqual(ids(await search('?metadata_key=note')), [usd.id]);
      assert.deepEqual(ids(await search('?status=SUCCEEDED&currency=USD&metadata_key=order')), [usd.id]);
      assert.deepEqual(ids(await search('?metadata_key=order&metadata_value=nope')), []);
      const live = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/live/payments');
      assert.deepEqual(live.json().data, [], 'test payments never show in live mode');
    });

    it('pages with an opaque cursor, newest first', async () => {
      const seen: string[] = [];
      let query = '?limit=1';
      for (;;) {
        const response = await search(query);
        assert.equal(response.statusCode, 200, response.body);
        const page = response.json();
        seen.push(...page.data.map((pi: { id: string }) => pi.id));
        if (!page.has_more) break;
        query = `?limit=1&cursor=${encodeURIComponent(page.next_cursor)}`;
      }
      assert.deepEqual(seen, [created.id, eur.id, declined.id, usd.id]);
    });

    it('reads at most the rows asked for, whatever LIMIT its statement rounds to', async () => {
      // searchPaymentIntents writes one of a few LIMITs into its text and drops the rows beyond `limit`.
      const scope = { merchantId: merchant.id, livemode: false };
      for (const [limit, side] of [
        [2, null],
        [3, { newer: { createdAt: startedAt, id: '' } }],
      ] as const) {
        const rows = await searchPaymentIntents(svc.ctx.db, scope, {}, side, limit);
        assert.equal(rows.length, limit);
      }
      await assert.rejects(searchPaymentIntents(svc.ctx.db, scope, {}, null, 0), RangeError);
    });

    it('names the field of a bad filter', async () => {
      for (const [query, field] of [
        ['?amount_min=500&amount_max=100', 'amount_max'],
        ['?currency=QQQ', 'currency'],
        ['?metadata_value=A-1', 'metadata_key'],
        ['?amount_min=1.5', 'amount_min'],
        ['?status=PAID', 'status'],
        ['?cursor=forged', 'cursor'],
      ] as const) {
        const response = await search(query);
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
        assert.equal(response.json().code, 'validation_error');
        assert.ok(
          response.json().errors.some((e: { field: string }) => e.field.includes(field)),
          `${query}: ${response.body}`,
        );
      }
    });

    it('shows the timeline, the gateway attempts, the refunds and each event with its deliveries', async () => {
      const response = await dashboardRequest(
        svc,
        viewer,
        'GET',
        `/dashboard/api/v1/test/payments/${usd.id}`,
      );
      assert.equal(response.statusCode, 200, response.body);
      const detail = response.json();
      assert.equal(detail.payment_intent.amount_refunded_minor, 1500);
      assert.equal(detail.payment_intent.client_secret, undefined);
      assert.deepEqual(
        detail.timeline.map((step: { status: string }) => step.status),
        ['CREATED', 'SUCCEEDED'],
      );
      assert.equal(detail.attempts.length, 1);
      assert.equal(detail.attempts[0].status, 'SUCCEEDED');
      assert.equal(JSON.stringify(detail.attempts).includes('tok_sim'), false, 'no payment-method token');
      assert.deepEqual(
        detail.refunds.map((r: { amount_minor: number; status: string }) => [r.amount_minor, r.status]),
        [[1500, 'SUCCEEDED']],
      );
      assert.deepEqual(
        detail.events.map((e: { type: string }) => e.type),
        ['payment_intent.succeeded', 'refund.succeeded'],
      );
      for (const event of detail.events) {
        assert.equal(event.deliveries.length, 1, JSON.stringify(event));
        assert.equal(event.deliveries[0].endpoint_url, 'http://127.0.0.1:9/search-hooks');
      }
      const failed = (
        await dashboardRequest(svc, owner, 'GET', `/dashboard/api/v1/test/payments/${declined.id}`)
      ).json();
      assert.deepEqual(
        failed.timeline.map((step: { status: string }) => step.status),
        ['CREATED', 'FAILED'],
      );
      assert.equal(failed.attempts[0].failure_code, 'card_declined');
    });

    it('exports the filtered list as CSV: quoted, formula-safe, integer amounts with their currency', async () => {
      const response = await dashboardRequest(
        svc,
        viewer,
        'GET',
        '/dashboard/api/v1/test/payments/export.csv?metadata_key=order',
      );
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.headers['content-type'] as string, /^text\/csv; charset=utf-8/);
      assert.match(
        response.headers['content-disposition'] as string,
        /^attachment; filename="payments-test-/,
      );
      const lines = response.body.split('\r\n');
      assert.equal(lines.pop(), '', 'every line ends with CRLF');
      assert.equal(
        lines[0],
        'id,created_at,status,amount_minor,currency,amount_refunded_minor,gateway_id,livemode,metadata,capture_method,amount_captured_minor,capture_before',
      );
      assert.deepEqual(
        lines.slice(1).map((line) => line.split(',')[0]),
        [eur.id, declined.id, usd.id],
        'the same filter as the page, newest first',
      );
      const usdLine = lines.find((line) => line.startsWith(usd.id)) ?? '';
      assert.match(usdLine, /,SUCCEEDED,4000,USD,1500,sim,false,/);
      // Metadata is one JSON cell: quoted (it has commas and quotes), its quotes doubled.
      assert.ok(
        usdLine.endsWith(
          ',"{""note"":""=HYPERLINK(\\""http://evil\\"")"",""order"":""A-1""}",automatic,4000,',
        ),
        usdLine,
      );
      for (const line of lines) assert.doesNotMatch(line, /(^|,)[=+@-]/, 'no cell starts like a formula');
      const eurLine = lines.find((line) => line.startsWith(eur.id)) ?? '';
      assert.match(eurLine, /,12000,EUR,0,/);
      const bad = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/api/v1/test/payments/export.csv?currency=QQQ',
      );
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].field, 'currency');
    });

    it("reads the page's amount filters in major units of the currency, and the CSV link in minor units", async () => {
      const page = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/test/payments?lang=en&currency=USD&amount_min=39.99&amount_max=40',
      );
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(usd.id));
      assert.equal(page.body.includes(declined.id), false);
      assert.match(page.body, /\$40\.00/);
      assert.match(
        page.body,
        /href="\/dashboard\/api\/v1\/test\/payments\/export\.csv\?amount_min=3999&amp;amount_max=4000&amp;currency=USD"/,
      );
      const es = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/test/payments?lang=es&currency=EUR&amount_min=119,99',
      );
      assert.ok(es.body.includes(eur.id));
      assert.match(es.body, /120,00\s€/);
    });

    it('renders the search page with the same filters, and its CSV link carries them', async () => {
      const page = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/test/payments?lang=en&metadata_key=order&metadata_value=A-1&amount_min=',
      );
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(usd.id));
      assert.equal(page.body.includes(eur.id), false);
      assert.match(
        page.body,
        /href="\/dashboard\/api\/v1\/test\/payments\/export\.csv\?metadata_key=order&amp;metadata_value=A-1"/,
      );
      const bad = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/test/payments?lang=en&currency=USD&amount_min=ten',
      );
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /role="alert">amount_min: &#39;ten&#39; is not an amount/);
      const tooPrecise = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/test/payments?lang=en&currency=USD&amount_max=40.001',
      );
      assert.equal(tooPrecise.statusCode, 400);
      assert.match(tooPrecise.body, /role="alert">amount_max: USD has 2 decimals; &#39;40.001&#39; has 3/);
      const noCurrency = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/test/payments?lang=en&amount_min=5',
      );
      assert.equal(noCurrency.statusCode, 400);
      assert.match(noCurrency.body, /role="alert">currency: choose a currency to filter by amount/);
      const detail = await dashboardRequest(svc, owner, 'GET', `/dashboard/test/payments/${usd.id}?lang=es`);
      assert.match(detail.body, /Historial de estados/);
      assert.match(detail.body, /search-hooks/);
    });

    it('refunds through the confirmation page: a plain form post with the CSRF field, then a redirect', async () => {
      const asked = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/test/payments/${eur.id}/refund?lang=en&amount=30`,
      );
      assert.equal(asked.statusCode, 200, asked.body);
      assert.match(asked.body, new RegExp(`Refund €30\\.00 of €120\\.00 on ${eur.id}\\.`));
      const key = /name="idempotency_key" value="([^"]+)"/.exec(asked.body)?.[1] ?? '';
      assert.match(asked.body, /name="amount_minor" value="3000"/);
      const refundsOf = async () =>
        (
          await svc.ctx.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM refunds WHERE payment_intent_id = $1',
            [eur.id],
          )
        ).rows[0]?.n;
      assert.equal(await refundsOf(), 0, 'the confirmation page changes nothing');
      const post = (fields: Record<string, string>, user = owner) =>
        svc.app.inject({
          method: 'POST',
          url: `/dashboard/test/payments/${eur.id}/refund?lang=en`,
          headers: { cookie: user.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        });
      const forged = await post({ amount_minor: '3000', idempotency_key: key, csrf_token: 'not-the-token' });
      assert.equal(forged.statusCode, 403);
      assert.equal(forged.json().code, 'csrf_token_invalid');
      assert.equal((await post({ amount_minor: '3000', idempotency_key: key })).statusCode, 403);
      const byViewer = await post(
        { amount_minor: '3000', idempotency_key: key, csrf_token: viewer.csrf },
        viewer,
      );
      assert.equal(byViewer.json().code, 'insufficient_permissions');
      assert.equal(await refundsOf(), 0);

      const done = await post({ amount_minor: '3000', idempotency_key: key, csrf_token: owner.csrf });
      assert.equal(done.statusCode, 303, done.body);
      assert.match(
        done.headers.location as string,
        new RegExp(`^/dashboard/test/payments/${eur.id}\\?refund=re_\\w+&lang=en$`),
      );
      const again = await post({ amount_minor: '3000', idempotency_key: key, csrf_token: owner.csrf });
      assert.equal(again.headers.location, done.headers.location, 'a second submit replays the same refund');
      assert.equal(await refundsOf(), 1);
      const shown = await dashboardRequest(svc, owner, 'GET', done.headers.location as string);
      assert.match(shown.body, /role="status">Refund re_\w+: €30\.00, SUCCEEDED\./);
      assert.match(shown.body, /<dt>Refunded<\/dt><dd>€30\.00<\/dd>/);

      const tooMuch = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/test/payments/${eur.id}/refund?lang=en&amount=90.01`,
      );
      assert.equal(tooMuch.statusCode, 400);
      assert.match(tooMuch.body, /role="alert">amount: is more than the €90\.00 that remains refundable/);
      const rest = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/test/payments/${eur.id}/refund?lang=es&rest=1`,
      );
      assert.match(rest.body, /Reembolsar 90,00\s€ de 120,00\s€ en/);
    });

    it('reads the date inputs of the page as UTC days, the "to" day included, and exports the same set', async () => {
      const day = startedAt.slice(0, 10);
      const page = await dashboardRequest(
        svc,
        owner,
        'GET',
        `/dashboard/test/payments?lang=en&from=${day}&to=${day}`,
      );
      assert.equal(page.statusCode, 200, page.body);
      assert.match(page.body, /<input name="from" value="\d{4}-\d\d-\d\d" type="date">/);
      assert.ok(page.body.includes(usd.id));
      const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
      const link =
        /href="(\/dashboard\/api\/v1\/test\/payments\/export\.csv\?[^"]+)"/.exec(page.body)?.[1] ?? '';
      const csvUrl = link.replaceAll('&amp;', '&');
      assert.equal(new URL(csvUrl, 'http://x').searchParams.get('to'), next);
      assert.equal(new URL(csvUrl, 'http://x').searchParams.get('from'), `${day}T00:00:00.000Z`);
      const csv = await dashboardRequest(svc, owner, 'GET', csvUrl);
      const listed = [...page.body.matchAll(/href="\/dashboard\/test\/payments\/(pi_\w+)\?/g)]
        .map((m) => m[1])
        .sort();
      const exported = csv.body
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort();
      assert.deepEqual(exported, listed, 'the CSV is exactly the filtered list');
      const bad = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/test/payments?lang=en&from=2026-02-31',
      );
      assert.equal(bad.statusCode, 400);
    });
  });
}
