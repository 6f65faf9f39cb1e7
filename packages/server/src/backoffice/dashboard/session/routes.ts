import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import {
  acceptInvitation,
  signIn,
  signOut,
  signOutEverywhere,
} from '../../../app/back-office-users/accounts.ts';
import type { AppContext } from '../../../app/context.ts';
import { dashboardSessionResource, signedOutResource } from '../../../app/resources/sessions.ts';
import { route } from '../../../http/declare-route.ts';
import { dashboardCallerOf, SESSION_COOKIE, sessionCookieOptions } from '../../kit/dashboard-auth.ts';

/** Sign-in, sign-out (here or everywhere) and accepting an invitation. */
export async function dashboardSessionRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const cookieOptions = sessionCookieOptions(ctx.publicUrl);

  // Sign-in needs no CSRF token: the body must be JSON, which a cross-site form cannot send
  // without a CORS preflight this service never answers.
  route(app, operations.dashboardSignIn, async (request, reply) => {
    const opened = await signIn(ctx, request.body);
    reply.setCookie(SESSION_COOKIE, opened.sessionId, cookieOptions);
    const expiresAt = new Date(ctx.clock.now().getTime() + cookieOptions.maxAge * 1000);
    return dashboardSessionResource(opened.user, { csrf_token: opened.csrfToken, expires_at: expiresAt });
  });

  route(app, operations.dashboardGetSession, async (request) => {
    const caller = dashboardCallerOf(request);
    return dashboardSessionResource(caller.user, caller.session);
  });

  // Signing out changes nothing of the merchant's, so every role may (action `read`); the CSRF
  // token is still required, because it is a POST.
  route(app, operations.dashboardSignOut, async (request, reply) => {
    const caller = dashboardCallerOf(request);
    await signOut(ctx, caller.user, caller.sessionId);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return signedOutResource(1);
  });

  route(app, operations.dashboardSignOutEverywhere, async (request, reply) => {
    const ended = await signOutEverywhere(ctx, dashboardCallerOf(request).user);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return signedOutResource(ended);
  });

  route(app, operations.dashboardAcceptInvitation, async (request) => {
    await acceptInvitation(ctx, request.body, request.ip);
    return signedOutResource(0);
  });
}
