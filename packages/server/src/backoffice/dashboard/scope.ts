import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveSession } from '../../app/back-office-users/accounts.ts';
import type { AppContext } from '../../app/context.ts';
import { rememberLanguage } from '../../app/dashboard/remember-language.ts';
import { adoptBrowserTimeZone } from '../../app/dashboard/time-zone.ts';
import type { DashboardRole } from '../../domain/dashboard-roles.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { type Language, pickLanguage } from '../../i18n/i18n.ts';
import { dashboardCallerOf, SESSION_COOKIE } from '../kit/dashboard-auth.ts';
import { href } from '../kit/navigation.ts';

export type Mode = 'test' | 'live';

/** The cookie the page script writes with the browser's time zone (dashboard.js). */
export const TIME_ZONE_COOKIE = 'paygate_tz';
export const isMode = (value: unknown): value is Mode => value === 'test' || value === 'live';

type SignedInUser = NonNullable<Awaited<ReturnType<typeof resolveSession>>>['user'];

/**
 * Who is asking and where, for every signed-in dashboard request: the merchant and mode (the
 * tenant every use case takes), the user and their role, and the language pages and mails speak.
 * The dashboard's counterpart of the API's `principalOf`.
 */
export interface DashboardScope extends TenantScope {
  mode: Mode;
  role: DashboardRole;
  user: SignedInUser;
  locale: Language;
  /** The session's CSRF token, which a page puts in its forms. */
  csrfToken: string;
  /** The IANA zone the user reads exact times in (null: not known yet, pages use UTC). */
  timeZone: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboardScope: DashboardScope | null;
  }
  interface FastifyContextConfig {
    /** A server-rendered page for a signed-in user: without a session the browser is sent to sign in. */
    dashboardPage?: true;
  }
}

/** The scope of a signed-in dashboard request (a JSON route with an action, or a page). */
export function scopeOf(request: FastifyRequest): DashboardScope {
  if (!request.dashboardScope) throw new Error('route is neither a signed-in dashboard route nor a page');
  return request.dashboardScope;
}

/**
 * The mode a request is about: the path's `:mode` when the route has one, else `?mode=` (the pages
 * that serve both modes keep the mode the user came from), else test.
 */
function modeOf(request: FastifyRequest): Mode | null {
  const params = request.params as { mode?: unknown } | undefined;
  if (params?.mode !== undefined) return isMode(params.mode) ? params.mode : null;
  return (request.query as { mode?: unknown } | undefined)?.mode === 'live' ? 'live' : 'test';
}

/**
 * The start of every signed-in dashboard request, run once before its handler: language, mode
 * and sign-in, kept as the request's scope. A JSON route's session was checked by the
 * dashboard-auth plugin; a page checks its own, answering 404 for a mode that is neither test nor
 * live and sending a browser without a live session to the sign-in page.
 */
export function startDashboardRequest(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const { config } = request.routeOptions;
    const page = config.dashboardPage === true;
    if (!page && (config.dashboard === undefined || config.dashboard === 'public')) return undefined;
    const locale = pickLanguage(request.query, request.headers['accept-language']);
    // A JSON route's path was validated by its schema already; only a page can get here with
    // another mode.
    const mode = modeOf(request);
    if (mode === null) {
      return reply.code(404).type('text/plain').send('not found');
    }
    const found = page ? await pageSession(ctx, request) : dashboardCallerOf(request);
    if (!found) {
      return reply.redirect(href('/dashboard/sign-in', locale), 303);
    }
    // The language of the pages a user opens is the one their mail is written in.
    if (page) await rememberLanguage(ctx, found.user, locale);
    // The browser's time zone (the page script's cookie) until the user chooses one.
    const timeZone = page
      ? await adoptBrowserTimeZone(ctx, found.user, request.cookies[TIME_ZONE_COOKIE])
      : (found.user.time_zone ?? null);
    request.dashboardScope = {
      merchantId: found.user.merchant_id,
      livemode: mode === 'live',
      mode,
      role: found.user.role,
      user: found.user,
      locale,
      csrfToken: found.session.csrf_token,
      timeZone,
    };
    return undefined;
  };
}

async function pageSession(ctx: AppContext, request: FastifyRequest) {
  const sessionId = request.cookies[SESSION_COOKIE];
  return sessionId ? resolveSession(ctx, sessionId) : null;
}
