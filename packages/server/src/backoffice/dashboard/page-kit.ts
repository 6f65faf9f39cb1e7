import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { endpointsNeedingAttention } from '../../app/webhooks/list-endpoints-needing-attention.ts';
import { type Messages, t } from '../../i18n/i18n.ts';
import { DASHBOARD_CSP, type PageFrame } from '../kit/layout.ts';
import { type DashboardScope, scopeOf } from './scope.ts';

/** A page answer: the strict CSP, never cached, never sniffed. */
export function html(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .send(body);
}

/** A non-empty string query parameter, or undefined. */
export function text(query: unknown, name: string): string | undefined {
  const value =
    typeof query === 'object' && query !== null ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What a page's handler gets: the request's scope and the frame every page is drawn in. */
export interface PageStart {
  scope: DashboardScope;
  /** The frame of `path` titled `title`; the title of the list a page belongs to by default. */
  frame: (path: string, title: string) => Promise<PageFrame>;
}

/**
 * Registers a page for a signed-in user at `url`. Its start (language, mode, sign-in) is the
 * dashboard's request start (scope.ts); the handler gets the scope and a frame maker.
 */
export function dashboardPage<Route extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  ctx: AppContext,
  url: string,
  handler: (request: FastifyRequest<Route>, reply: FastifyReply, start: PageStart) => Promise<FastifyReply>,
): void {
  app.get(url, { config: { dashboardPage: true } }, async (request, reply) => {
    const scope = scopeOf(request);
    // The page's own params and query types: a page has no schema, so Fastify cannot infer them.
    const typed = request as FastifyRequest<Route>;
    await handler(typed, reply, { scope, frame: (path, title) => pageFrame(ctx, scope, path, title) });
    return reply;
  });
}

/**
 * The frame of a signed-in page: its language, mode, title and session, and the banner of the
 * mode's webhook endpoints that need attention.
 */
export async function pageFrame(
  ctx: AppContext,
  scope: DashboardScope,
  path: string,
  title: string,
): Promise<PageFrame> {
  const attention = (await endpointsNeedingAttention(ctx, scope)).map((e) => ({
    id: e.id,
    url: e.url,
    status: e.status,
  }));
  return {
    lang: scope.locale,
    path,
    mode: scope.mode,
    title,
    session: { email: scope.user.email, role: scope.role, csrfToken: scope.csrfToken },
    attention,
    // Times on the page are relative to the service's injected clock (a test clock moves them too).
    now: ctx.clock.now(),
    ...(scope.timeZone ? { timeZone: scope.timeZone } : {}),
  };
}

/**
 * Registers `GET /dashboard/:mode/<name>`: a page of one mode, titled from the catalogue, its
 * body rendered by `render`.
 */
export function modePage(
  app: FastifyInstance,
  ctx: AppContext,
  name: string,
  title: keyof Messages,
  render: (page: { scope: DashboardScope; frame: PageFrame }) => Promise<string>,
): void {
  dashboardPage(app, ctx, `/dashboard/:mode/${name}`, async (_request, reply, { scope, frame }) => {
    const framed = await frame(`/dashboard/${scope.mode}/${name}`, t(scope.locale)[title]);
    return html(reply, await render({ scope, frame: framed }));
  });
}
