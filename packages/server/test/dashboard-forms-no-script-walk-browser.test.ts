// Every form of the dashboard works without JavaScript (issue 41 item 7: the event page's "Retry
// now" was a form only the page script could send). The walk reads the route table: every page
// POST under /dashboard (the JSON API aside) must have its step below, or the walk fails naming it.
// Each step opens, in Chromium with JavaScript turned off, the page that shows the form, fills it,
// submits it with its own button, and lands on an HTML page that shows the result (post, redirect,
// get) with no refusal. On every page it opens, every form must be a plain form (method and
// action), so a script-only form fails here too. Both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCodeAt } from '../src/domain/totp.ts';
import { launchChromium } from './support/browser.ts';
import {
  type DashboardUser,
  dashboardRequest,
  firstOwner,
  TEST_PASSWORD,
  teamMember,
} from './support/dashboard.ts';
import { databaseKinds } from './support/databases.ts';
import { routesWhere } from './support/route-table.ts';
import {
  ADMIN_TOKEN,
  freshKey,
  type MerchantKeys,
  startTestService,
  type TestService,
} from './support/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const OWNER = 'owner@no-script-walk.example';

/** What the walk knows before it starts: the ids its steps open pages of. */
interface Fixtures {
  merchant: MerchantKeys;
  paymentId: string;
  /** Two authorisations waiting for their capture: one to capture, one to void. */
  toCaptureId: string;
  toVoidId: string;
  endpointId: string;
  deliveryId: string;
  eventId: string;
  keyToRoll: string;
  memberId: string;
  acceptToken: string;
  totpSecret: string;
}

interface Step {
  /** The page (path and query, without `lang`) that shows the form. */
  open: (f: Fixtures) => string;
  /** Fields to fill, by name (a select is chosen, anything else typed). */
  fields?: (f: Fixtures) => Record<string, string>;
  /** Where the browser lands after the form (path and query). */
  lands: RegExp;
  /** After it landed: what the step learns for later ones. */
  learn?: (page: Page, f: Fixtures) => Promise<void>;
  /** The form to submit when the page has several for the route: the one whose action has this. */
  action?: (f: Fixtures) => string;
}

/**
 * One step per page POST, in the order the walk takes them (later steps use what earlier ones
 * made; signing out comes last but one, signing in last).
 */
const STEPS: Array<[route: string, step: Step]> = [
  [
    'POST /dashboard/:mode/api-keys',
    {
      open: () => '/dashboard/test/api-keys',
      fields: () => ({ kind: 'secret' }),
      lands: /\/dashboard\/test\/api-keys\?.*created=/,
    },
  ],
  [
    'POST /dashboard/:mode/api-keys/:id/roll',
    { open: (f) => `/dashboard/test/api-keys/${f.keyToRoll}/roll`, lands: /\/dashboard\/test\/api-keys/ },
  ],
  [
    'POST /dashboard/:mode/api-keys/:id/revoke',
    {
      open: (f) => `/dashboard/test/api-keys/${f.keyToRoll}/revoke`,
      lands: /\/dashboard\/test\/api-keys\?.*revoked=/,
    },
  ],
  [
    'POST /dashboard/:mode/payments/:id/refund',
    {
      open: (f) => `/dashboard/test/payments/${f.paymentId}/refund?amount=1.00`,
      lands: /\/dashboard\/test\/payments\/pi_\w+\?/,
    },
  ],
  [
    'POST /dashboard/:mode/payments/:id/capture',
    {
      open: (f) => `/dashboard/test/payments/${f.toCaptureId}/capture?amount=10.00`,
      lands: /\/dashboard\/test\/payments\/pi_\w+\?captured=1/,
    },
  ],
  [
    'POST /dashboard/:mode/payments/:id/void',
    {
      open: (f) => `/dashboard/test/payments/${f.toVoidId}/void`,
      lands: /\/dashboard\/test\/payments\/pi_\w+\?voided=1/,
    },
  ],
  [
    'POST /dashboard/:mode/webhooks',
    {
      open: () => '/dashboard/test/webhooks',
      fields: () => ({ url: 'http://localhost:4000/no-script-walk' }),
      lands: /\/dashboard\/test\/webhooks/,
    },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id',
    { open: (f) => `/dashboard/test/webhooks/${f.endpointId}`, lands: /saved=1/ },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id/send-test-event',
    {
      open: (f) => `/dashboard/test/webhooks/${f.endpointId}`,
      lands: /\/webhooks\/deliveries\/wd_\w+\?.*test_event=1/,
    },
  ],
  [
    'POST /dashboard/:mode/webhooks/deliveries/:id/retry',
    // From the event's page, whose "Retry now" was a form only the page script could send.
    { open: (f) => `/dashboard/test/events/${f.eventId}`, lands: /retried=1/ },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id/resend-failed',
    {
      open: (f) => `/dashboard/test/webhooks/${f.endpointId}`,
      fields: () => ({ since: '2020-01-01T00:00:00Z' }),
      lands: /resent=\d+/,
    },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id/rotate-secret',
    {
      open: (f) => `/dashboard/test/webhooks/${f.endpointId}/rotate-secret?expires_in_seconds=3600`,
      lands: /\/rotate-secret/,
    },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id/close-rotation',
    { open: (f) => `/dashboard/test/webhooks/${f.endpointId}`, lands: /rotation_closed=1/ },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id/reveal-secret',
    { open: (f) => `/dashboard/test/webhooks/${f.endpointId}/reveal-secret`, lands: /\/reveal-secret/ },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id/disable',
    { open: (f) => `/dashboard/test/webhooks/${f.endpointId}/disable`, lands: /disabled=1/ },
  ],
  [
    'POST /dashboard/:mode/webhooks/:id/enable',
    { open: (f) => `/dashboard/test/webhooks/${f.endpointId}`, lands: /enabled=1/ },
  ],
  [
    'POST /dashboard/embed-domains',
    {
      open: () => '/dashboard/embed-domains',
      fields: () => ({ origin: 'https://no-script-walk.example' }),
      lands: /\/dashboard\/embed-domains/,
    },
  ],
  [
    'POST /dashboard/embed-domains/remove',
    {
      open: () => '/dashboard/embed-domains/remove?origin=https%3A%2F%2Fno-script-walk.example',
      lands: /\/dashboard\/embed-domains/,
    },
  ],
  [
    'POST /dashboard/settings/time-zone',
    {
      open: () => '/dashboard/settings',
      fields: () => ({ time_zone: 'Europe/Madrid' }),
      lands: /\/dashboard\/settings/,
    },
  ],
  [
    'POST /dashboard/team/invitations',
    {
      open: () => '/dashboard/team',
      fields: () => ({ email: 'invited@no-script-walk.example', role: 'viewer' }),
      lands: /\/dashboard\/team/,
    },
  ],
  [
    'POST /dashboard/team/invitations/:email/revoke',
    {
      open: () => '/dashboard/team/invitations/invited%40no-script-walk.example/revoke',
      lands: /\/dashboard\/team/,
    },
  ],
  [
    'POST /dashboard/team/:id/role',
    {
      open: () => '/dashboard/team',
      action: (f) => f.memberId,
      fields: () => ({ role: 'viewer' }),
      lands: /\/dashboard\/team/,
    },
  ],
  [
    'POST /dashboard/team/:id/remove',
    { open: (f) => `/dashboard/team/${f.memberId}/remove`, lands: /\/dashboard\/team/ },
  ],
  [
    'POST /dashboard/account/totp/enrol',
    {
      open: () => '/dashboard/account',
      lands: /done=totp_started/,
      learn: async (page, f) => {
        f.totpSecret = ((await page.locator('[data-totp-secret]').textContent()) ?? '').trim();
      },
    },
  ],
  [
    'POST /dashboard/account/totp/confirm',
    {
      open: () => '/dashboard/account',
      fields: (f) => ({ code: totpCodeAt(f.totpSecret, new Date()) }),
      lands: /done=totp_on/,
    },
  ],
  [
    'POST /dashboard/account/totp/disable',
    {
      open: () => '/dashboard/account',
      fields: (f) => ({ code: totpCodeAt(f.totpSecret, new Date(Date.now() + 30_000)) }),
      lands: /\/dashboard\/account/,
    },
  ],
  [
    'POST /dashboard/sign-out-everywhere',
    { open: () => '/dashboard/account', lands: /\/dashboard\/sign-in/ },
  ],
  [
    'POST /dashboard/accept-invitation',
    {
      open: (f) => `/dashboard/accept-invitation?token=${f.acceptToken}`,
      fields: () => ({ password: TEST_PASSWORD }),
      lands: /\/dashboard\/sign-in/,
    },
  ],
  [
    'POST /dashboard/sign-in',
    {
      open: () => '/dashboard/sign-in',
      fields: () => ({ email: OWNER, password: TEST_PASSWORD }),
      lands: /\/dashboard\/test\//,
    },
  ],
  ['POST /dashboard/sign-out', { open: () => '/dashboard/test/payments', lands: /\/dashboard\/sign-in/ }],
];

/** A Fastify route pattern as a pathname test: `:param` stands for one segment. */
const pathOf = (route: string) =>
  new RegExp(`^${route.slice(route.indexOf(' ') + 1).replace(/:\w+/g, '[^/]+')}$`);

for (const kind of databaseKinds()) {
  describe(`every dashboard form without JavaScript, walked from the route table (${kind})`, () => {
    let svc: TestService;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let owner: DashboardUser;
    let receiver: WebhookReceiver;
    const fixtures = {} as Fixtures;

    before(async () => {
      svc = await startTestService(kind, { listen: true });
      receiver = await startWebhookReceiver();
      fixtures.merchant = await svc.createMerchant('No-script walk shop');
      owner = await firstOwner(svc, fixtures.merchant.id, OWNER);
      await teamMember(svc, owner, 'member@no-script-walk.example', 'developer');
      const users = (await dashboardRequest(svc, owner, 'GET', '/dashboard/api/v1/users')).json();
      fixtures.memberId = users.data.find(
        (u: { email: string }) => u.email === 'member@no-script-walk.example',
      ).id;
      const key = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/test/api-keys', {
        kind: 'secret',
      });
      fixtures.keyToRoll = key.json().id;
      const intent = await svc.request({
        method: 'POST',
        url: '/v1/payment-intents',
        key: fixtures.merchant.secretTest,
        headers: { 'idempotency-key': freshKey('walk') },
        body: { amount_minor: 5_000, currency: 'USD', gateway_id: 'sim' },
      });
      const paid = await svc.request({
        method: 'POST',
        url: `/v1/payment-intents/${intent.json().id}/confirm`,
        key: fixtures.merchant.secretTest,
        body: { payment_method_token: 'tok_sim_approve' },
      });
      assert.equal(paid.json().status, 'SUCCEEDED', paid.body);
      fixtures.paymentId = paid.json().id;
      const authorised = async () => {
        const manual = await svc.request({
          method: 'POST',
          url: '/v1/payment-intents',
          key: fixtures.merchant.secretTest,
          headers: { 'idempotency-key': freshKey('walk') },
          body: { amount_minor: 5_000, currency: 'USD', gateway_id: 'sim', capture_method: 'manual' },
        });
        const confirmed = await svc.request({
          method: 'POST',
          url: `/v1/payment-intents/${manual.json().id}/confirm`,
          key: fixtures.merchant.secretTest,
          body: { payment_method_token: 'tok_sim_approve' },
        });
        assert.equal(confirmed.json().status, 'REQUIRES_CAPTURE', confirmed.body);
        return confirmed.json().id as string;
      };
      fixtures.toCaptureId = await authorised();
      fixtures.toVoidId = await authorised();
      const endpoint = await dashboardRequest(
        svc,
        owner,
        'POST',
        '/dashboard/api/v1/test/webhook-endpoints',
        {
          url: receiver.url,
        },
      );
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      fixtures.endpointId = endpoint.json().id;
      const sent = await dashboardRequest(
        svc,
        owner,
        'POST',
        `/dashboard/api/v1/test/webhook-endpoints/${fixtures.endpointId}/send-test-event`,
        {},
      );
      fixtures.deliveryId = sent.json().delivery_id;
      fixtures.eventId = sent.json().event_id;
      const invited = await svc.request({
        method: 'POST',
        url: `/admin/v1/merchants/${fixtures.merchant.id}/dashboard-invitations`,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { email: 'second-owner@no-script-walk.example' },
      });
      fixtures.acceptToken = invited.json().token;

      browser = await launchChromium();
      context = await browser.newContext({
        viewport: { width: 1100, height: 800 },
        javaScriptEnabled: false,
      });
      const [name, value] = owner.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: `${svc.baseUrl}/dashboard` }]);
      page = await context.newPage();
    });
    after(async () => {
      await browser?.close();
      await receiver?.close();
      await svc?.close();
    });

    it('has a step for every page POST of the route table (a new form needs one)', () => {
      const posted = routesWhere(
        svc.app,
        (path) => path.startsWith('/dashboard/') && !path.startsWith('/dashboard/api/'),
      ).filter((route) => route.startsWith('POST '));
      assert.deepEqual(STEPS.map(([route]) => route).sort(), posted);
    });

    it('submits every form with JavaScript off and lands on the page that shows its result', async () => {
      for (const [route, step] of STEPS) {
        const opened = `${svc.baseUrl}${step.open(fixtures)}${step.open(fixtures).includes('?') ? '&' : '?'}lang=en`;
        const shown = await page.goto(opened);
        assert.equal(shown?.status(), 200, `${route}: ${opened} answered ${shown?.status()}`);
        // Every form on the page is a plain one: a method and an action the browser can send.
        const scriptOnly = await page.locator('form:not([method]), form[data-api]').count();
        assert.equal(scriptOnly, 0, `${route}: ${opened} has a form only a script can send`);
        const target = pathOf(route);
        const forms = page.locator('form[method="post"]');
        let form = null;
        for (let i = 0; i < (await forms.count()); i += 1) {
          const action = (await forms.nth(i).getAttribute('action')) ?? '';
          const wanted = step.action?.(fixtures);
          if (target.test(new URL(action, opened).pathname) && (!wanted || action.includes(wanted))) {
            form = forms.nth(i);
            break;
          }
        }
        assert.ok(form, `${route}: no plain form posts to it on ${opened}`);
        for (const [name, value] of Object.entries(step.fields?.(fixtures) ?? {})) {
          const field = form.locator(`[name="${name}"]`).first();
          if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
          else await field.fill(value);
        }
        const [answer] = await Promise.all([
          page.waitForResponse(
            (r) => r.request().method() === 'POST' && target.test(new URL(r.url()).pathname),
          ),
          form.locator('button[type="submit"], button:not([type])').first().click(),
        ]);
        await page.waitForLoadState('load');
        assert.ok([200, 303].includes(answer.status()), `${route}: answered ${answer.status()}`);
        const landed = new URL(page.url());
        assert.match(`${landed.pathname}${landed.search}`, step.lands, `${route}: landed on ${page.url()}`);
        const alerts = await page.locator('[role="alert"]').allTextContents();
        assert.deepEqual(
          alerts.map((a) => a.trim()).filter(Boolean),
          [],
          `${route}: refused on ${page.url()}`,
        );
        await step.learn?.(page, fixtures);
      }
    });
  });
}
