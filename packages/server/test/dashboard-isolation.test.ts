import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { type IntentJson, paymentHelpers } from './support/payments.ts';
import { routesWhere } from './support/route-table.ts';
import { freshKey, type MerchantKeys, startTestService, type TestService } from './support/service.ts';

/** Every dashboard route (API and pages), from Fastify's own route table. */
function dashboardRoutes(app: FastifyInstance): string[] {
  return routesWhere(app, (path) => path.startsWith('/dashboard'));
}

/** Routes that need no session: whoever calls them acts on no merchant's data. */
const PUBLIC = new Set([
  'POST /dashboard/api/v1/session',
  'POST /dashboard/api/v1/invitations/accept',
  'GET /dashboard',
  'GET /dashboard/sign-in',
  'GET /dashboard/accept-invitation',
  'GET /dashboard/assets/:name',
  // The sign-in and invitation pages' plain forms (their pre-session token, no session).
  'POST /dashboard/sign-in',
  'POST /dashboard/accept-invitation',
]);
/** Changes that touch only the caller's own sessions, which every role may make. */
const OWN_SESSION = new Set([
  'POST /dashboard/api/v1/session/sign-out',
  'POST /dashboard/api/v1/session/sign-out-everywhere',
  // The caller's own second factor.
  'POST /dashboard/api/v1/totp/enrol',
  'POST /dashboard/api/v1/totp/confirm',
  'POST /dashboard/api/v1/totp/disable',
  // The caller's own time zone (the settings page).
  'POST /dashboard/settings/time-zone',
  // The same as plain form posts of the pages (no script needed).
  'POST /dashboard/sign-out',
  'POST /dashboard/sign-out-everywhere',
  'POST /dashboard/account/totp/enrol',
  'POST /dashboard/account/totp/confirm',
  'POST /dashboard/account/totp/disable',
]);

const MARKER = 'isolation-marker-9Kx';

for (const kind of databaseKinds()) {
  describe(`dashboard isolation and roles on every route (${kind})`, () => {
    let svc: TestService;
    let merchantA: MerchantKeys;
    let ownerA: DashboardUser;
    let viewerA: DashboardUser;
    let ownerB: DashboardUser;
    let paidA: IntentJson;
    let authorisedA: IntentJson;
    let endpointA: string;
    let deliveryA: string;
    /** Merchant A's test secret key record (the API keys routes take its id). */
    let keyA: string;
    let routes: string[];
    /** Merchant A's viewer's user id (the team routes take it). */
    let viewerId: string;

    before(async () => {
      svc = await startTestService(kind);
      merchantA = await svc.createMerchant('A');
      const merchantB = await svc.createMerchant('B');
      ownerA = await firstOwner(svc, merchantA.id, 'owner@a.example');
      viewerA = await teamMember(svc, ownerA, 'viewer@a.example', 'viewer');
      ownerB = await firstOwner(svc, merchantB.id, 'owner@b.example');
      const pay = paymentHelpers(svc, () => merchantA);
      paidA = await pay.create({ amount_minor: 5000, metadata: { note: MARKER } });
      const confirmed = await pay.confirm(paidA.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(confirmed.json().status, 'SUCCEEDED', confirmed.body);
      // An authorisation waiting for its capture: the capture and void routes take it.
      authorisedA = await pay.create({ amount_minor: 3000, capture_method: 'manual' });
      const authorised = await pay.confirm(authorisedA.id, { payment_method_token: 'tok_sim_approve' });
      assert.equal(authorised.json().status, 'REQUIRES_CAPTURE', authorised.body);
      const endpoint = await dashboardRequest(
        svc,
        ownerA,
        'POST',
        '/dashboard/api/v1/test/webhook-endpoints',
        {
          url: 'http://127.0.0.1:9/a-hooks',
        },
      );
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      endpointA = endpoint.json().id;
      const test = await dashboardRequest(
        svc,
        ownerA,
        'POST',
        `/dashboard/api/v1/test/webhook-endpoints/${endpointA}/send-test-event`,
        {},
      );
      assert.equal(test.statusCode, 200, test.body);
      deliveryA = test.json().delivery_id;
      await dashboardRequest(svc, ownerA, 'POST', '/dashboard/api/v1/embed-domains', {
        origin: 'https://a.example',
      });
      keyA = (
        await svc.ctx.db.query<{ id: string }>(
          "SELECT id FROM api_keys WHERE merchant_id = $1 AND livemode = false AND kind = 'secret'",
          [merchantA.id],
        )
      ).rows[0]?.id as string;
      viewerId = (
        await svc.ctx.db.query<{ id: string }>(
          "SELECT id FROM dashboard_users WHERE email = 'viewer@a.example'",
        )
      ).rows[0]?.id as string;
      await dashboardRequest(svc, ownerA, 'POST', '/dashboard/api/v1/invitations', {
        email: 'pending@a.example',
        role: 'viewer',
      });
      routes = dashboardRoutes(svc.app);
    });
    after(() => svc.close());

    /** A request to `route` with merchant A's ids filled in, and a body A's owner could send. */
    function requestFor(route: string): { method: 'GET' | 'POST'; url: string; body?: unknown } {
      const [method, path = ''] = route.split(' ');
      assert.ok(method === 'GET' || method === 'POST', route);
      const id = /\/webhook-deliveries\/:id|\/webhooks\/deliveries\/:id/.test(path)
        ? deliveryA
        : /\/webhook-endpoints\/:id|\/webhooks\/:id/.test(path)
          ? endpointA
          : path.includes('/api-keys/:id')
            ? keyA
            : path.includes('/users/:id') || path.includes('/team/:id')
              ? viewerId
              : /\/(capture|void)$/.test(path)
                ? authorisedA.id
                : paidA.id;
      const url = path
        .replace(':mode', 'test')
        .replace(':id', id)
        .replace(':email', encodeURIComponent('pending@a.example'));
      if (method === 'GET') return { method, url };
      const bodies: Record<string, unknown> = {
        'POST /dashboard/api/v1/test/refunds': { payment_intent_id: paidA.id, amount_minor: 100 },
        // The payment page's confirmed refund (a plain form post; the walk sends the same fields as JSON).
        [`POST /dashboard/test/payments/${paidA.id}/refund`]: {
          amount_minor: '100',
          idempotency_key: freshKey(),
        },
        // The payment page's confirmed capture and void of an authorisation.
        [`POST /dashboard/test/payments/${authorisedA.id}/capture`]: {
          amount_minor: '100',
          idempotency_key: freshKey(),
        },
        [`POST /dashboard/test/payments/${authorisedA.id}/void`]: undefined,
        'POST /dashboard/api/v1/invitations': { email: `new-${freshKey()}@a.example`, role: 'owner' },
        'POST /dashboard/api/v1/test/webhook-endpoints': { url: 'http://127.0.0.1:9/other-hooks' },
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}/disable`]: undefined,
        // The webhooks page (dashboard-webhook-operations.ts).
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}`]: { enabled_events: ['refund.failed'] },
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}/enable`]: undefined,
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}/reveal-secret`]: undefined,
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}/rotate-secret`]: {},
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}/close-rotation`]: undefined,
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}/resend-failed`]: {
          since: '2020-01-01T00:00:00Z',
        },
        [`POST /dashboard/api/v1/test/webhook-endpoints/${endpointA}/send-test-event`]: {},
        [`POST /dashboard/api/v1/test/webhook-deliveries/${deliveryA}/retry`]: undefined,
        // The rest of the back office (keys, domains, second factor).
        'POST /dashboard/api/v1/test/api-keys': { kind: 'secret' },
        [`POST /dashboard/api/v1/test/api-keys/${keyA}/roll`]: { expires_in_seconds: 0 },
        [`POST /dashboard/api/v1/test/api-keys/${keyA}/revoke`]: undefined,
        [`POST /dashboard/test/api-keys/${keyA}/revoke`]: undefined,
        // The confirmation pages' plain form posts (roll, removal, disabling, secret reveal).
        [`POST /dashboard/test/api-keys/${keyA}/roll`]: { expires_in_seconds: '0' },
        [`POST /dashboard/team/${viewerId}/remove`]: undefined,
        [`POST /dashboard/test/webhooks/${endpointA}/disable`]: undefined,
        [`POST /dashboard/test/webhooks/${endpointA}/reveal-secret`]: undefined,
        [`POST /dashboard/test/webhooks/${endpointA}/rotate-secret`]: { expires_in_seconds: '3600' },
        // The webhooks and embedding-domains pages' plain form posts (backoffice/dashboard/webhooks/forms.ts, embed-domains/routes.ts).
        'POST /dashboard/test/webhooks': { url: 'http://127.0.0.1:9/other-hooks' },
        [`POST /dashboard/test/webhooks/${endpointA}`]: { enabled_events: ['refund.failed'] },
        [`POST /dashboard/test/webhooks/${endpointA}/enable`]: undefined,
        [`POST /dashboard/test/webhooks/${endpointA}/close-rotation`]: undefined,
        [`POST /dashboard/test/webhooks/${endpointA}/resend-failed`]: { since: '2020-01-01T00:00:00Z' },
        [`POST /dashboard/test/webhooks/${endpointA}/send-test-event`]: {},
        [`POST /dashboard/test/webhooks/deliveries/${deliveryA}/retry`]: undefined,
        'POST /dashboard/embed-domains': { origin: 'https://b-or-viewer.example' },
        'POST /dashboard/embed-domains/remove': { origin: 'https://a.example' },
        'POST /dashboard/api/v1/embed-domains': { origin: 'https://b-or-viewer.example' },
        'POST /dashboard/api/v1/embed-domains/remove': { origin: 'https://a.example' },
        // The team page's changes (dashboard-team.ts): ids are merchant A's viewer.
        [`POST /dashboard/api/v1/users/${viewerId}/role`]: { role: 'owner' },
        [`POST /dashboard/api/v1/users/${viewerId}/remove`]: undefined,
        'POST /dashboard/api/v1/invitations/revoke': { email: 'pending@a.example' },
        // The same changes as the pages' plain form posts (the walk sends their fields as JSON).
        'POST /dashboard/test/api-keys': { kind: 'secret' },
        'POST /dashboard/team/invitations': { email: `new-${freshKey()}@a.example`, role: 'owner' },
        [`POST /dashboard/team/${viewerId}/role`]: { role: 'owner' },
        'POST /dashboard/team/invitations/pending%40a.example/revoke': undefined,
      };
      assert.ok(
        url in Object.fromEntries(Object.keys(bodies).map((k) => [k.split(' ')[1], 1])) ||
          OWN_SESSION.has(route),
        `${route}: a new state-changing dashboard route needs a body here, so it is walked`,
      );
      return { method, url, body: bodies[`POST ${url}`] };
    }

    /** What a change to merchant A would leave behind: refunds of its payment, its users. */
    async function stateOfA(): Promise<string> {
      const refunds = await svc.ctx.db.query(
        'SELECT count(*)::int AS n FROM refunds WHERE payment_intent_id = $1',
        [paidA.id],
      );
      const users = await svc.ctx.db.query(
        'SELECT id, role, removed_at FROM dashboard_users WHERE merchant_id = $1 ORDER BY id',
        [merchantA.id],
      );
      const invites = await svc.ctx.db.query(
        'SELECT email, expires_at, accepted_at FROM dashboard_invitations WHERE merchant_id = $1 ORDER BY email',
        [merchantA.id],
      );
      const hooks = await svc.ctx.db.query(
        `SELECT id, status, enabled_events, secret_sealed, rotation_started_at FROM webhook_endpoints
          WHERE merchant_id = $1 ORDER BY id`,
        [merchantA.id],
      );
      const deliveries = await svc.ctx.db.query(
        `SELECT d.id, d.attempt_count, d.next_attempt_at FROM webhook_deliveries d
           JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.merchant_id = $1 ORDER BY d.id`,
        [merchantA.id],
      );
      const keys = await svc.ctx.db.query(
        'SELECT id, revoked_at, expires_at FROM api_keys WHERE merchant_id = $1 ORDER BY id',
        [merchantA.id],
      );
      const domains = await svc.ctx.db.query(
        'SELECT origin FROM embed_domains WHERE merchant_id = $1 ORDER BY origin',
        [merchantA.id],
      );
      const authorisation = await svc.ctx.db.query(
        `SELECT status, (SELECT count(*)::int FROM authorization_operations WHERE payment_intent_id = $1) AS operations
           FROM payment_intents WHERE id = $1`,
        [authorisedA.id],
      );
      return JSON.stringify([
        authorisation.rows,
        refunds.rows,
        users.rows,
        invites.rows,
        hooks.rows,
        deliveries.rows,
        keys.rows,
        domains.rows,
      ]);
    }

    it('finds the dashboard routes in the route table', () => {
      assert.ok(routes.length >= 10, routes.join('\n'));
      assert.ok(routes.includes('POST /dashboard/api/v1/:mode/refunds'), routes.join('\n'));
      assert.ok(routes.includes('GET /dashboard/:mode/payments/:id'), routes.join('\n'));
    });

    it('a viewer cannot change anything on any route', async () => {
      const before = await stateOfA();
      for (const route of routes) {
        if (PUBLIC.has(route) || OWN_SESSION.has(route) || route.startsWith('GET ')) continue;
        const { method, url, body } = requestFor(route);
        const response = await dashboardRequest(svc, viewerA, method, url, body, {
          'idempotency-key': freshKey(),
        });
        assert.equal(response.statusCode, 403, `${route}: ${response.body}`);
        assert.equal(response.json().code, 'insufficient_permissions', route);
      }
      assert.equal(await stateOfA(), before);
    });

    it('a user of merchant B sees nothing of merchant A and changes nothing of it, on every route', async () => {
      const before = await stateOfA();
      let walked = 0;
      for (const route of routes) {
        if (PUBLIC.has(route) || OWN_SESSION.has(route)) continue;
        const { method, url, body } = requestFor(route);
        const response = await dashboardRequest(svc, ownerB, method, url, body, {
          'idempotency-key': freshKey(),
        });
        walked++;
        // A 404's detail echoes the id the caller sent (quoted, or HTML-escaped on a page that
        // says the refusal), and a page's navigation links its own path (the language and mode
        // switches); beyond those echoes of the request, nothing of A may show.
        let shown = response.body;
        if (response.statusCode === 404) {
          shown = shown.replaceAll(new URL(url, 'http://dashboard.invalid').pathname, '');
          for (const echoed of [
            paidA.id,
            authorisedA.id,
            endpointA,
            deliveryA,
            keyA,
            viewerId,
            'https://a.example',
          ]) {
            shown = shown.replaceAll(`'${echoed}'`, '').replaceAll(`&#39;${echoed}&#39;`, '');
          }
        }
        for (const secret of [
          paidA.id,
          authorisedA.id,
          endpointA,
          deliveryA,
          keyA,
          'https://a.example',
          'a-hooks',
          MARKER,
          'owner@a.example',
          'viewer@a.example',
          merchantA.id,
          viewerId,
        ]) {
          assert.equal(shown.includes(secret), false, `${route} shows A's ${secret}: ${response.body}`);
        }
        if (route.includes(':id')) assert.equal(response.statusCode, 404, `${route}: ${response.body}`);
        if (route === 'POST /dashboard/api/v1/:mode/refunds')
          assert.equal(response.statusCode, 404, response.body);
      }
      assert.ok(walked >= 6);
      // The invitation B's owner sent is B's: A's users and invitations are unchanged.
      assert.equal(await stateOfA(), before);
    });

    it("merchant A's owner does see A's data on the same routes (the walk would catch a leak)", async () => {
      const detail = await dashboardRequest(
        svc,
        ownerA,
        'GET',
        `/dashboard/api/v1/test/payment-intents/${paidA.id}`,
      );
      assert.equal(detail.statusCode, 200);
      assert.ok(detail.body.includes(MARKER));
      const audit = await dashboardRequest(svc, ownerA, 'GET', '/dashboard/api/v1/audit-log');
      assert.ok(audit.body.includes('viewer@a.example'));
    });
  });
}
