import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  type DashboardUserRow,
  resolveSession,
  SESSION_LIFETIME_MS,
  type SessionRow,
} from '../../app/back-office-users/accounts.ts';
import type { AppContext } from '../../app/context.ts';
import { secretsEqual } from '../../domain/api-keys.ts';
import { type DashboardAction, roleAllows } from '../../domain/dashboard-roles.ts';
import { AppError, AuthenticationError } from '../../domain/errors.ts';

export const SESSION_COOKIE = 'paygate_session';
export const CSRF_HEADER = 'x-csrf-token';
/** The form field that carries the CSRF token of a page's plain HTML form (no script needed). */
export const CSRF_FIELD = 'csrf_token';

const FORM_TYPE = 'application/x-www-form-urlencoded';

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM_TYPE);
}

function csrfRefused(): AppError {
  return new AppError('csrf_token_invalid', 'The X-CSRF-Token header is missing or wrong.');
}

export interface DashboardCaller {
  user: DashboardUserRow;
  session: SessionRow;
  /** The cookie's value, to end this session. */
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboardCaller: DashboardCaller | null;
  }
  interface FastifyContextConfig {
    /** A dashboard route: `public` needs no session (sign-in), else the action the role must allow. */
    dashboard?: DashboardAction | 'public';
  }
}

/** The signed-in caller of a dashboard route that needs a session. */
export function dashboardCallerOf(request: FastifyRequest): DashboardCaller {
  if (!request.dashboardCaller) throw new Error('route has no dashboard action configured');
  return request.dashboardCaller;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Cookie attributes: never readable by scripts, never sent cross-site, Secure behind HTTPS. */
export function sessionCookieOptions(publicUrl: string) {
  return {
    httpOnly: true,
    secure: publicUrl.startsWith('https://'),
    sameSite: 'strict' as const,
    path: '/dashboard',
    maxAge: SESSION_LIFETIME_MS / 1000,
  };
}

/**
 * The CSRF rule of every signed-in state change, the dashboard's and the operator's console's
 * alike: the session's token in X-CSRF-Token or, from a page's plain form (which cannot send a
 * header), in its `csrf_token` field, checked once the body is parsed; in constant time either
 * way. Registers the form check (as a hook of `app`) and answers the check to run, with the
 * session's token, once the session is known. `tokenOf` reads that token back for the form check.
 */
export function csrfRule(
  app: FastifyInstance,
  tokenOf: (request: FastifyRequest) => string | undefined,
): (request: FastifyRequest, expected: string) => void {
  // The form posts whose token is still to be checked (in the body, after parsing).
  const formCsrf = new WeakSet<FastifyRequest>();
  app.addHook('preValidation', async (request) => {
    if (!formCsrf.has(request)) return;
    const body = request.body as Record<string, unknown> | undefined;
    const presented = body?.[CSRF_FIELD];
    const expected = tokenOf(request);
    if (typeof presented !== 'string' || !expected || !secretsEqual(presented, expected)) {
      throw csrfRefused();
    }
  });
  return (request, expected) => {
    if (SAFE_METHODS.has(request.method)) return;
    const presented = request.headers[CSRF_HEADER];
    if (presented === undefined && isForm(request)) formCsrf.add(request);
    else if (typeof presented !== 'string' || !secretsEqual(presented, expected)) throw csrfRefused();
  };
}

/**
 * Dashboard authentication: the session cookie names a live session; every state change also
 * carries the session's CSRF token (csrfRule), and the user's role must allow the route's action.
 * All of it on the server, before the handler runs.
 */
export const dashboardAuth = fp(
  async (app: FastifyInstance, options: { ctx: AppContext }) => {
    await app.register(cookie);
    app.decorateRequest('dashboardCaller', null);
    const checkCsrf = csrfRule(app, (request) => request.dashboardCaller?.session.csrf_token);
    app.addHook('onRequest', async (request) => {
      const action = request.routeOptions.config.dashboard;
      if (action === undefined || action === 'public') return;
      const sessionId = request.cookies[SESSION_COOKIE];
      const found = sessionId ? await resolveSession(options.ctx, sessionId) : null;
      if (!sessionId || !found) {
        throw new AuthenticationError('invalid_session', 'Sign in first: no live dashboard session.');
      }
      checkCsrf(request, found.session.csrf_token);
      if (!roleAllows(found.user.role, action)) {
        throw new AuthenticationError(
          'insufficient_permissions',
          `The ${found.user.role} role may not do this (it needs ${action}).`,
        );
      }
      request.dashboardCaller = { user: found.user, session: found.session, sessionId };
    });
  },
  { name: 'dashboard-auth', fastify: '5.x' },
);
