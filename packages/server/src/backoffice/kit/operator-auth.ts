import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../app/context.ts';
import {
  type OperatorSessionRow,
  type OperatorUserRow,
  resolveOperatorSession,
} from '../../app/operators/operator-accounts.ts';
import { AuthenticationError } from '../../domain/errors.ts';
import { csrfRule, sessionCookieOptions } from './dashboard-auth.ts';

export const OPERATOR_SESSION_COOKIE = 'paygate_operator_session';

export interface OperatorCaller {
  operator: OperatorUserRow;
  session: OperatorSessionRow;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    operatorCaller: OperatorCaller | null;
  }
}

/** The dashboard's cookie attributes (HttpOnly, SameSite=Strict, Secure behind HTTPS), for /operator. */
export function operatorCookieOptions(publicUrl: string) {
  return { ...sessionCookieOptions(publicUrl), path: '/operator' };
}

export function operatorCallerOf(request: FastifyRequest): OperatorCaller {
  if (!request.operatorCaller) throw new Error('route is not an operator console route');
  return request.operatorCaller;
}

/** The operator session a page's cookie names, or null (the page then sends the browser to sign in). */
export async function operatorPageCaller(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<OperatorCaller | null> {
  const sessionId = request.cookies[OPERATOR_SESSION_COOKIE];
  const found = sessionId ? await resolveOperatorSession(ctx, sessionId) : null;
  return sessionId && found ? { operator: found.user, session: found.session, sessionId } : null;
}

/**
 * The console's routes (its JSON API and its pages' plain form posts): the operator session cookie
 * names a live session of an operator not disabled, and every state change carries the session's
 * CSRF token by the dashboard's own rule (csrfRule in dashboard-auth.ts).
 */
export const operatorAuth = fp(
  async (app: FastifyInstance, options: { ctx: AppContext }) => {
    app.decorateRequest('operatorCaller', null);
    const checkCsrf = csrfRule(app, (request) => request.operatorCaller?.session.csrf_token);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.credential !== 'operator_session') return;
      const caller = await operatorPageCaller(options.ctx, request);
      if (!caller)
        throw new AuthenticationError('invalid_session', 'Sign in first: no live operator session.');
      checkCsrf(request, caller.session.csrf_token);
      request.operatorCaller = caller;
    });
  },
  { name: 'operator-auth', fastify: '5.x', dependencies: ['dashboard-auth'] },
);
