import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { dashboardPageUrls } from '../../src/backoffice/dashboard/routes.ts';
import { navigationEntries } from '../../src/backoffice/kit/navigation.ts';
import { type DashboardUser, dashboardRequest, firstOwner, teamMember } from './dashboard.ts';
import { paymentHelpers } from './payments.ts';
import { freshKey, type MerchantKeys, type TestService } from './service.ts';

/**
 * The page walk of the quality gates (axe-core, Lighthouse): a merchant with data on every page,
 * then every page of the back office, found from the one list the side navigation draws, the
 * public pages, and the detail pages their links lead to. The walk then checks it reached every
 * page route the service registered, so a page added later is walked without editing the tests
 * (or the walk fails, naming it).
 */
export interface WalkedMerchant {
  merchant: MerchantKeys;
  owner: DashboardUser;
}

/** A merchant whose pages all have content: payments (approved, declined, refunded, one to capture), a webhook endpoint with a delivery, an embedding domain, a second key, a second team member, a pending invitation. */
export async function merchantWithData(svc: TestService, email: string): Promise<WalkedMerchant> {
  const merchant = await svc.createMerchant('Walk shop');
  const owner = await firstOwner(svc, merchant.id, email);
  // A second member, so the Team page offers a removal (never on the owner's own row) to walk.
  await teamMember(svc, owner, `developer.${email}`, 'developer');
  // A pending invitation, so the Team page offers its revocation's confirmation to walk.
  const invited = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/invitations', {
    email: `pending.${email}`,
    role: 'viewer',
  });
  assert.equal(invited.statusCode, 201, invited.body);
  const pay = paymentHelpers(svc, () => merchant);
  // An authorisation waiting for its capture: the list's row leads to its capture and void confirmations.
  const toCapture = await pay.create({ amount_minor: 3100, currency: 'EUR', capture_method: 'manual' });
  await pay.confirm(toCapture.id, { payment_method_token: 'tok_sim_approve' });
  // The refundable payment is the newest, so the list's first link leads to a page with the refund form.
  const declined = await pay.create({ amount_minor: 1999, currency: 'EUR' });
  await pay.confirm(declined.id, { payment_method_token: 'tok_sim_decline' });
  const paid = await pay.create({ amount_minor: 4200, metadata: { order: 'ORD-1' } });
  await pay.confirm(paid.id, { payment_method_token: 'tok_sim_approve' });
  const refund = await svc.request({
    method: 'POST',
    url: '/v1/refunds',
    key: merchant.secretTest,
    headers: { 'idempotency-key': freshKey() },
    body: { payment_intent_id: paid.id, amount_minor: 1000 },
  });
  assert.equal(refund.statusCode, 200, refund.body);
  const endpoint = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/test/webhook-endpoints', {
    url: 'http://127.0.0.1:9/walk-hooks',
    enabled_events: ['*'],
  });
  assert.equal(endpoint.statusCode, 201, endpoint.body);
  const sent = await dashboardRequest(
    svc,
    owner,
    'POST',
    `/dashboard/api/v1/test/webhook-endpoints/${endpoint.json().id}/send-test-event`,
    {},
  );
  assert.ok(sent.statusCode < 300, sent.body);
  // An embedding domain, so the page offers its removal's confirmation to walk.
  const domain = await dashboardRequest(svc, owner, 'POST', '/dashboard/api/v1/embed-domains', {
    origin: 'https://walk-shop.example',
  });
  assert.equal(domain.statusCode, 201, domain.body);
  return { merchant, owner };
}

/** A path as the route pattern it belongs to: modes, ids and e-mail addresses (invitations) become parameters. */
export function routePattern(path: string): string {
  return path
    .split('/')
    .map((part, i) =>
      i === 2 && (part === 'test' || part === 'live')
        ? ':'
        : /^[a-z]+_\w+$/.test(part) || /@|%40/.test(part)
          ? ':'
          : part,
    )
    .join('/');
}

/** A registered route URL in the same form (`/dashboard/:mode/payments/:id` → `/dashboard/:/payments/:`). */
const routeUrlPattern = (url: string) => url.replace(/:\w+/g, ':');

/** Pages without a path parameter that need a query all the same: reached from their list's form. */
const OPENED_WITH_QUERY = new Set(['/dashboard/embed-domains/remove']);

/** The pages to start from: the navigation of both modes and every registered page without parameters. */
export function startingPages(): string[] {
  const fromNavigation = (['test', 'live'] as const).flatMap((mode) =>
    navigationEntries(mode).map((e) => `${e.path}?${new URLSearchParams(e.query).toString()}`),
  );
  const plain = dashboardPageUrls().filter(
    (url) => !url.includes(':') && url !== '/dashboard' && !OPENED_WITH_QUERY.has(url),
  );
  return [...new Set([...fromNavigation, ...plain.map((url) => `${url}?`)])];
}

/**
 * Walks the pages breadth-first from `startingPages()`: `visit` opens one page (path and query,
 * without `lang`) and returns the same-origin dashboard links on it. A link whose route pattern
 * was already reached is not followed again. Returns the pages visited.
 */
export async function walkPages(visit: (pathAndQuery: string) => Promise<string[]>): Promise<string[]> {
  const queue = startingPages();
  const reached = new Set(queue.map((p) => routePattern(p.split('?')[0] ?? '')));
  const visited: string[] = [];
  while (queue.length) {
    const next = queue.shift() as string;
    visited.push(next);
    for (const link of await visit(next)) {
      const url = new URL(link, 'http://walk.invalid');
      if (!url.pathname.startsWith('/dashboard') || /^\/dashboard\/(api|assets)\//.test(url.pathname))
        continue;
      const pattern = routePattern(url.pathname);
      if (reached.has(pattern)) continue;
      reached.add(pattern);
      url.searchParams.delete('lang');
      queue.push(`${url.pathname}?${url.searchParams.toString()}`);
    }
  }
  const missing = dashboardPageUrls().filter(
    (url) => url !== '/dashboard' && !reached.has(routeUrlPattern(url)),
  );
  assert.deepEqual(
    missing,
    [],
    'pages the walk never reached: link them from a walked page or the navigation',
  );
  return visited;
}

/**
 * Where a page leads: its dashboard links, and what its GET forms open as they stand (one URL per
 * named submit button when it has some, as the refund form's "refund the rest").
 */
export function linksOn(page: Page): Promise<string[]> {
  return page.locator('body').evaluate((body) => {
    const found = [...body.querySelectorAll('a[href^="/dashboard"]')].map(
      (a) => a.getAttribute('href') ?? '',
    );
    for (const form of body.querySelectorAll('form[method="get" i][action^="/dashboard"]')) {
      const fields: [string, string][] = [...form.querySelectorAll('input[name], select[name]')]
        .filter((field) => field.getAttribute('type') !== 'submit')
        .map((field) => [field.getAttribute('name') ?? '', String(Reflect.get(field, 'value') ?? '')]);
      const action = form.getAttribute('action') ?? '';
      const buttons = [...form.querySelectorAll('button[name]')];
      const submits: [string, string][][] = buttons.length
        ? buttons.map((b) => [[b.getAttribute('name') ?? '', b.getAttribute('value') ?? '']])
        : [[]];
      for (const extra of submits)
        found.push(`${action}?${new URLSearchParams([...fields, ...extra]).toString()}`);
    }
    return found;
  });
}

/** The page's URL in `lang`. */
export function inLanguage(baseUrl: string, pathAndQuery: string, lang: 'en' | 'es'): string {
  const [path, query] = pathAndQuery.split('?');
  const params = new URLSearchParams(query ?? '');
  params.set('lang', lang);
  return `${baseUrl}${path}?${params.toString()}`;
}
