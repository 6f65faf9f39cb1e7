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
      await pays(2500, 'USD', 'tok_sim_decline');
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
      assert.match(page.body, /<th scope="row">2026-03-10<\/th><td>40\.00 USD<\/td>/);
      assert.match(page.body, /15000 CLP/);
      assert.doesNotMatch(page.body, /https?:\/\/(?!localhost)[^"]*\.(js|css)/, 'no CDN');
      const spanish = await dashboardRequest(svc, owner, 'GET', '/dashboard/test/overview?lang=es');
      assert.match(spanish.body, /Tasa de éxito/);
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
    });
  });
}
