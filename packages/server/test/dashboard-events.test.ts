import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cursorWithAlteredMac } from './support/cursors.ts';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

interface EventJson {
  id: string;
  type: string;
  object_id: string;
  payment_intent_id: string | null;
  deliveries: { total: number; delivered: number; pending: number; failed: number };
}

const ids = (body: { data: { id: string }[] }) => body.data.map((event) => event.id);

/**
 * The dashboard's events API (issue 32, item 6): the mode's events newest first, filtered by type,
 * resource and time, in keyset pages both ways; a cursor that is not one names its field; a
 * viewer reads them; another merchant's events and the other mode's never show.
 */
for (const kind of databaseKinds()) {
  describe(`dashboard events API (${kind})`, () => {
    let svc: TestService;
    let merchant: MerchantKeys;
    let owner: DashboardUser;
    let viewer: DashboardUser;
    let otherOwner: DashboardUser;
    let refunded: IntentJson;
    let laterAt: string;
    /** Every test-mode event of the merchant, newest first, as the database holds them. */
    let all: string[];

    const api = (query: string, user = owner, mode = 'test') =>
      dashboardRequest(svc, user, 'GET', `/dashboard/api/v1/${mode}/events${query}`);

    before(async () => {
      svc = await startTestService(kind);
      merchant = await svc.createMerchant('Events shop');
      const other = await svc.createMerchant('Other shop');
      owner = await firstOwner(svc, merchant.id, 'owner@events.example');
      viewer = await teamMember(svc, owner, 'viewer@events.example', 'viewer');
      otherOwner = await firstOwner(svc, other.id, 'owner@other-events.example');
      const endpoint = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/test/webhook-endpoints',
        {
          url: 'http://127.0.0.1:9/events-hooks',
          enabled_events: ['payment_intent.succeeded'],
        },
      );
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      // A test event: its refund and payment are made up, so it leads to no payment page.
      const sample = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/webhook-endpoints/${endpoint.json().id}/send-test-event`,
        { type: 'refund.failed' },
      );
      assert.equal(sample.statusCode, 200, sample.body);
      const pay = paymentHelpers(svc, () => merchant);
      for (let i = 0; i < 4; i++) {
        const intent = await pay.create({ amount_minor: 2000 + i });
        await pay.confirm(intent.id, {
          payment_method_token: i === 1 ? 'tok_sim_decline' : 'tok_sim_approve',
        });
        if (i === 0) refunded = intent;
      }
      svc.clock.advance(3600);
      laterAt = svc.clock.now().toISOString();
      const refund = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/test/refunds',
        { payment_intent_id: refunded.id, amount_minor: 500 },
        { 'idempotency-key': freshKey() },
      );
      assert.equal(refund.statusCode, 200, refund.body);
      const late = await pay.create({ amount_minor: 3000 });
      await pay.confirm(late.id, { payment_method_token: 'tok_sim_approve' });
      // The other merchant's events, and a live one of this merchant: neither may ever show.
      const otherPay = paymentHelpers(svc, () => other);
      const theirs = await otherPay.create({});
      await otherPay.confirm(theirs.id, { payment_method_token: 'tok_sim_approve' });
      const { rows } = await svc.ctx.db.query<{ id: string }>(
        `SELECT id FROM events WHERE merchant_id = $1 AND livemode = false ORDER BY created_at DESC, id DESC`,
        [merchant.id],
      );
      all = rows.map((row) => row.id);
      assert.ok(all.length >= 6, `${all.length} events`);
    });
    after(() => svc?.close());

    it('lists the mode’s events newest first with their resource, payment and delivery counts', async () => {
      const response = await api('?limit=100');
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.deepEqual(ids(body), all);
      assert.equal(body.has_more, false);
      assert.equal(body.next_cursor, null);
      assert.equal(body.previous_cursor, null);
      const refundEvent = body.data.find((e: EventJson) => e.type === 'refund.succeeded');
      assert.ok(refundEvent, JSON.stringify(body.data.map((e: EventJson) => e.type)));
      assert.match(refundEvent.object_id, /^re_/);
      assert.equal(refundEvent.payment_intent_id, refunded.id, 'a refund leads to its payment');
      const sample = body.data.find((e: EventJson) => e.type === 'refund.failed');
      assert.match(sample.object_id, /^re_/);
      assert.equal(sample.payment_intent_id, null, 'a made-up payment is no payment of the merchant');
      assert.equal(sample.deliveries.total, 1);
      const succeeded = body.data.filter((e: EventJson) => e.type === 'payment_intent.succeeded');
      assert.equal(succeeded.length, 4);
      for (const e of succeeded as EventJson[]) {
        assert.equal(e.payment_intent_id, e.object_id);
        assert.equal(e.deliveries.total, 1, 'queued for the one endpoint that takes it');
        assert.equal(e.deliveries.pending + e.deliveries.delivered + e.deliveries.failed, 1);
      }
      const failed = body.data.find((e: EventJson) => e.type === 'payment_intent.failed');
      assert.deepEqual(failed.deliveries, { total: 0, delivered: 0, pending: 0, failed: 0 });
    });

    it('pages forward with cursor and back with before, with a filter, as the whole list has them', async () => {
      const filter = 'type=payment_intent.succeeded';
      const expected = ids((await api(`?${filter}&limit=100`)).json());
      assert.equal(expected.length, 4);
      const p1 = (await api(`?${filter}&limit=3`)).json();
      assert.equal(p1.has_more, true);
      assert.equal(p1.previous_cursor, null);
      const p2 = (await api(`?${filter}&limit=3&cursor=${p1.next_cursor}`)).json();
      assert.deepEqual([...ids(p1), ...ids(p2)], expected);
      assert.equal(p2.has_more, false);
      assert.equal(p2.next_cursor, null);
      const back = (await api(`?${filter}&limit=3&before=${p2.previous_cursor}`)).json();
      assert.deepEqual(ids(back), ids(p1), 'the previous page is the same page');
      assert.equal(back.previous_cursor, null);
      assert.ok(back.next_cursor);
      // Every event, two by two, forward: exactly the database's order.
      const pages: string[] = [];
      let cursor = '';
      for (let n = 0; n < 20; n++) {
        const page = (await api(`?limit=2${cursor}`)).json();
        pages.push(...ids(page));
        if (!page.next_cursor) break;
        cursor = `&cursor=${page.next_cursor}`;
      }
      assert.deepEqual(pages, all);
    });

    it('filters by resource (a payment finds its refunds’ events too) and by creation time', async () => {
      const ofPayment = (await api(`?object_id=${refunded.id}`)).json();
      assert.deepEqual(
        ofPayment.data.map((e: EventJson) => e.type).sort(),
        ['payment_intent.succeeded', 'refund.succeeded'].sort(),
      );
      const refundId = ofPayment.data.find((e: EventJson) => e.type === 'refund.succeeded').object_id;
      assert.deepEqual(
        (await api(`?object_id=${refundId}`)).json().data.map((e: EventJson) => e.type),
        ['refund.succeeded'],
      );
      const later = (await api(`?from=${encodeURIComponent(laterAt)}`)).json();
      assert.deepEqual(ids(later), all.slice(0, 2), 'the refund and the last payment');
      const earlier = (await api(`?to=${encodeURIComponent(laterAt)}`)).json();
      assert.deepEqual(ids(earlier), all.slice(2));
      const none = await api('?object_id=pi_unknown');
      assert.equal(none.statusCode, 200);
      assert.deepEqual(none.json().data, []);
    });

    it('refuses a cursor it did not issue with a 400 that names the field', async () => {
      const p1 = (await api('?limit=2')).json();
      for (const [field, value] of [
        ['cursor', 'not-a-cursor'],
        ['before', 'not-a-cursor'],
        ['cursor', cursorWithAlteredMac(p1.next_cursor)],
      ] as const) {
        const response = await api(`?${field}=${value}`);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'validation_error');
        assert.match(response.json().detail, new RegExp(`^${field}\\b`), response.body);
      }
      const both = await api(`?cursor=${p1.next_cursor}&before=${p1.next_cursor}`);
      assert.equal(both.statusCode, 400);
      assert.match(both.json().detail, /^before\b.*cursor/);
      const noZone = await api('?from=2026-01-01T00:00:00');
      assert.equal(noZone.statusCode, 400);
      assert.match(noZone.json().detail, /from/);
      const badType = await api('?type=payment_intent.lost');
      assert.equal(badType.statusCode, 400);
      assert.match(badType.json().detail, /type/);
    });

    it('shows one event with its payload as delivered and its delivery to each endpoint', async () => {
      const listed = (await api('?type=payment_intent.succeeded&limit=1')).json().data[0] as EventJson;
      const response = await api(`/${listed.id}`, viewer);
      assert.equal(response.statusCode, 200, response.body);
      const event = response.json();
      const { rows } = await svc.ctx.db.query<{ payload: string }>(
        'SELECT payload FROM events WHERE id = $1',
        [listed.id],
      );
      assert.equal(event.payload, rows[0]?.payload, 'the exact text that was signed');
      assert.equal(JSON.parse(event.payload).data.object.id, listed.object_id);
      assert.equal(event.deliveries.length, 1);
      assert.equal(event.deliveries[0].endpoint_url, 'http://127.0.0.1:9/events-hooks');
      assert.match(event.deliveries[0].id, /^wd_/);
    });

    it('lets a viewer read, and never shows another merchant’s events or the other mode’s', async () => {
      assert.deepEqual(ids((await api('?limit=100', viewer)).json()), all);
      const theirs = (await api('?limit=100', otherOwner)).json();
      assert.equal(theirs.data.length, 1);
      assert.ok(!all.includes(theirs.data[0].id));
      assert.deepEqual((await api('?limit=100', owner, 'live')).json().data, []);
      for (const [user, mode] of [
        [otherOwner, 'test'],
        [owner, 'live'],
      ] as const) {
        const one = await api(`/${all[0]}`, user, mode);
        assert.equal(one.statusCode, 404, one.body);
        const byResource = (await api(`?object_id=${refunded.id}`, user, mode)).json();
        assert.deepEqual(byResource.data, []);
        const csv = await dashboardRequest(svc, user, 'GET', `/dashboard/api/v1/${mode}/events/export.csv`);
        for (const id of all) assert.ok(!csv.body.includes(id), `${id} in another's CSV`);
      }
      const signedOut = await svc.request({ method: 'GET', url: '/dashboard/api/v1/test/events' });
      assert.equal(signedOut.statusCode, 401);
    });

    it('exports exactly the filtered events as CSV', async () => {
      const csv = await dashboardRequest(
        svc,
        owner,
        'GET',
        '/dashboard/api/v1/test/events/export.csv?type=payment_intent.succeeded',
      );
      assert.equal(csv.statusCode, 200, csv.body);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      const lines = csv.body.trimEnd().split('\r\n');
      assert.equal(
        lines[0],
        'id,created_at,type,object_id,payment_intent_id,livemode,deliveries_total,deliveries_delivered,deliveries_pending,deliveries_failed',
      );
      const expected = ids((await api('?type=payment_intent.succeeded')).json());
      assert.deepEqual(
        lines.slice(1).map((line) => line.split(',')[0]),
        expected,
      );
    });
  });
}
