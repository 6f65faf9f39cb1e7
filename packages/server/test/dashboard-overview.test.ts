import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock, ShiftedClock } from '../src/clock.ts';
import { type DashboardUser, dashboardRequest, firstOwner, signIn } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

for (const kind of databaseKinds()) {
  describe(`dashboard overview (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let declineReason: string;

    before(async () => {
      svc = await startTestService(kind, {
        clock: new ShiftedClock(new ManualClock(new Date('2026-03-10T12:00:00.000Z'))),
      });
      merchant = await svc.createMerchant('Overview shop');
      owner = await firstOwner(svc, merchant.id, 'owner@overview.example');
      const pay = paymentHelpers(svc, () => merchant);
      const pays = async (amount_minor: number, currency: string, token: string) => {
        const intent = await pay.create({ amount_minor, currency });
        await pay.confirm(intent.id, { payment_method_token: token });
        return intent;
      };
      const approved = await pays(4000, 'USD', 'tok_sim_approve');
      const declined = await pays(2500, 'USD', 'tok_sim_decline');
      const failed = await svc.request({
        method: 'GET',
        url: `/v1/payment-intents/${declined.id}`,
        key: merchant.secretTest,
      });
      declineReason = failed.json().last_payment_error.decline_code ?? failed.json().last_payment_error.code;
      await pays(15000, 'CLP', 'tok_sim_approve');
      const refund = await svc.request({
        method: 'POST',
        url: '/v1/refunds',
        key: merchant.secretTest,
        headers: { 'idempotency-key': freshKey() },
        body: { payment_intent_id: approved.id, amount_minor: 700 },
      });
      assert.equal(refund.json().status, 'SUCCEEDED', refund.body);
    });
    after(() => svc.close());

    it("sums today's volume, success rate and refunds per currency, as integers in minor units", async () => {
      const response = await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/overview');
      assert.equal(response.statusCode, 200, response.body);
      const overview = response.json();
      assert.equal(overview.as_of, '2026-03-10T12:00:00.000Z');
      assert.deepEqual(overview.today, [
        {
          currency: 'CLP',
          volume_minor: 15000,
          succeeded_count: 1,
          failed_count: 0,
          success_rate_percent: 100,
          refunded_minor: 0,
          refund_count: 0,
        },
        {
          currency: 'USD',
          volume_minor: 4000,
          succeeded_count: 1,
          failed_count: 1,
          success_rate_percent: 50,
          refunded_minor: 700,
          refund_count: 1,
        },
      ]);
      assert.deepEqual(overview.month, overview.today);
      assert.deepEqual(overview.last_30_days, overview.today);
      assert.deepEqual(overview.previous_30_days, []);
      assert.ok(declineReason);
      assert.deepEqual(overview.decline_reasons, [{ currency: 'USD', reason: declineReason, count: 1 }]);
      assert.deepEqual(
        overview.days.map((d: { date: string; currency: string; volume_minor: number }) => [
          d.date,
          d.currency,
          d.volume_minor,
        ]),
        [
          ['2026-03-10', 'CLP', 15000],
          ['2026-03-10', 'USD', 4000],
        ],
      );
    });

    it('keeps test and live apart', async () => {
      const live = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/live/overview')).json();
      assert.equal(live.livemode, true);
      assert.deepEqual([live.today, live.month, live.days], [[], [], []]);
    });

    it('draws the chart on the server, with a table of the same numbers', async () => {
      const page = await dashboardRequest(svc, owner, 'GET', '/dashboard/test/overview?lang=en');
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-security-policy'] as string, /script-src 'self'/);
      assert.match(page.body, /<svg role="img" aria-labelledby="chart-USD-title chart-USD-desc"/);
      assert.match(page.body, /<th scope="row">2026-03-10<\/th><td class="num">\$40\.00<\/td>/);
      assert.match(page.body, /CLP\s15,000/);
      // Axes: the amount at the highest day and day labels; each bar's day and amount on hover.
      assert.match(page.body, /<text x="90" y="\d+" text-anchor="end">\$40\.00<\/text>/);
      assert.match(page.body, /<title>Mar 10: \$40\.00<\/title><\/rect>/);
      assert.match(page.body, />Feb 9<\/text>/);
      // One panel per currency with payments, chosen by tabs; the top decline reason is named.
      assert.match(page.body, /<a href="#currency-CLP">CLP<\/a>.*<a href="#currency-USD">USD<\/a>/s);
      assert.doesNotMatch(page.body, /currency-EUR/);
      assert.match(page.body, new RegExp(`<td><code>${declineReason}</code></td><td class="num">1</td>`));
      assert.doesNotMatch(page.body, /https?:\/\/(?!localhost)[^"]*\.(js|css)/, 'no CDN');
      const spanish = await dashboardRequest(svc, owner, 'GET', '/dashboard/test/overview?lang=es');
      assert.match(spanish.body, /Tasa de éxito/);
      assert.match(spanish.body, /Principales motivos de rechazo \(USD\)/);
    });

    it('moves today and the month with the clock', async () => {
      svc.clock.advance(2 * 86_400);
      // Sessions last 12 hours of the same clock.
      owner = await signIn(svc, 'owner@overview.example');
      const overview = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/overview')).json();
      assert.deepEqual(overview.today, []);
      assert.equal(overview.month.find((t: { currency: string }) => t.currency === 'USD').volume_minor, 4000);
      svc.clock.advance(30 * 86_400);
      owner = await signIn(svc, 'owner@overview.example');
      const april = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/test/overview')).json();
      assert.deepEqual([april.month, april.days], [[], []], 'March is outside April and its 30 days');
      assert.deepEqual(april.last_30_days, []);
      assert.equal(
        april.previous_30_days.find((x: { currency: string }) => x.currency === 'USD').volume_minor,
        4000,
        'March 10 is in the 30 days before the last 30',
      );
      assert.deepEqual(april.decline_reasons, []);
    });

    it('keeps the roll-up equal to the transactions it sums, through refunds and status changes', async () => {
      const scan = await svc.ctx.db.query<{ k: string; count: number; amount: number }>(
        `SELECT merchant_id || livemode || (created_at AT TIME ZONE 'UTC')::date || currency || type || status AS k,
                count(*)::int8 AS count, sum(amount_minor)::int8 AS amount
           FROM transactions WHERE status <> 'PENDING' GROUP BY 1 ORDER BY 1`,
      );
      const rollup = await svc.ctx.db.query<{ k: string; count: number; amount: number }>(
        `SELECT merchant_id || livemode || day || currency || type || status AS k,
                sum(count)::int8 AS count, sum(amount_minor)::int8 AS amount
           FROM overview_daily GROUP BY 1 HAVING sum(count) <> 0 ORDER BY 1`,
      );
      const rows = (r: typeof scan) => r.rows.map((x) => [x.k, Number(x.count), Number(x.amount)]);
      assert.ok(scan.rows.length >= 4);
      assert.deepEqual(rows(rollup), rows(scan));
      // A status change moves the counts between rows; a pending row counts nowhere.
      await svc.ctx.db.query(`UPDATE transactions SET status = 'PENDING' WHERE type = 'REFUND'`);
      const pending = await svc.ctx.db.query<{ n: number }>(
        `SELECT coalesce(sum(count), 0)::int8 AS n FROM overview_daily WHERE type = 'REFUND'`,
      );
      assert.equal(Number(pending.rows[0]?.n), 0);
      await svc.ctx.db.query(`UPDATE transactions SET status = 'APPROVED' WHERE type = 'REFUND'`);
      const back = await svc.ctx.db.query<{ k: string; count: number; amount: number }>(
        `SELECT merchant_id || livemode || day || currency || type || status AS k,
                sum(count)::int8 AS count, sum(amount_minor)::int8 AS amount
           FROM overview_daily GROUP BY 1 HAVING sum(count) <> 0 ORDER BY 1`,
      );
      assert.deepEqual(rows(back), rows(scan));
      // Rows written directly: a settled payment counts on insert and uncounts on delete, a PENDING
      // one counts nowhere either way (the insert and delete triggers skip it: migration 370).
      const kinds = `(VALUES ('PENDING'), ('DECLINED')) AS s (status)`;
      await svc.ctx.db.query(
        `INSERT INTO payment_intents
         SELECT (jsonb_populate_record(NULL::payment_intents,
                   to_jsonb(p) || jsonb_build_object('id', 'pi_overviewcopy' || s.status))).*
           FROM (SELECT * FROM payment_intents LIMIT 1) AS p, ${kinds}`,
      );
      const copies = await svc.ctx.db.query(
        `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                                   payment_intent_id, refund_id, gateway_id, created_at, updated_at)
         SELECT 'txn_overviewcopy' || s.status, t.merchant_id, t.livemode, 'PAYMENT', s.status, t.amount_minor,
                t.currency, 'pi_overviewcopy' || s.status, NULL, t.gateway_id, t.created_at, t.updated_at
           FROM (SELECT * FROM transactions WHERE type = 'PAYMENT' LIMIT 1) AS t, ${kinds}`,
      );
      assert.equal(copies.rowCount, 2);
      const table = `SELECT merchant_id || livemode || (created_at AT TIME ZONE 'UTC')::date || currency || type || status AS k,
                            count(*)::int8 AS count, sum(amount_minor)::int8 AS amount
                       FROM transactions WHERE status <> 'PENDING' GROUP BY 1 ORDER BY 1`;
      const summed = `SELECT merchant_id || livemode || day || currency || type || status AS k,
                             sum(count)::int8 AS count, sum(amount_minor)::int8 AS amount
                        FROM overview_daily GROUP BY 1 HAVING sum(count) <> 0 ORDER BY 1`;
      const withCopies = await svc.ctx.db.query<{ k: string; count: number; amount: number }>(table);
      assert.deepEqual(
        rows(await svc.ctx.db.query<{ k: string; count: number; amount: number }>(summed)),
        rows(withCopies),
      );
      await svc.ctx.db.query(`DELETE FROM transactions WHERE id LIKE 'txn_overviewcopy%'`);
      await svc.ctx.db.query(`DELETE FROM payment_intents WHERE id LIKE 'pi_overviewcopy%'`);
      assert.deepEqual(
        rows(await svc.ctx.db.query<{ k: string; count: number; amount: number }>(summed)),
        rows(scan),
      );
    });
  });
}
