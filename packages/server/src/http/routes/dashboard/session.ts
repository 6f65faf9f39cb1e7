import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { acceptInvitation, signIn, signOut, signOutEverywhere } from '../../../app/dashboard/accounts.ts';
import type { DashboardRole } from '../../../domain/dashboard-roles.ts';
import { dashboardCallerOf, SESSION_COOKIE, sessionCookieOptions } from '../../plugins/dashboard-auth.ts';

function sessionBody(
  user: { id: string; email: string; role: DashboardRole; merchant_id: string },
  session: { csrf_token: string; expires_at: Date },
) {
  return {
    object: 'dashboard_session' as const,
    user: { id: user.id, email: user.email, role: user.role, merchant_id: user.merchant_id },
    csrf_token: session.csrf_token,
    expires_at: session.expires_at.toISOString(),
  };
}

/** Sign-in, sign-out (here or everywhere) and accepting an invitation. */
export async function dashboardSessionRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const cookieOptions = sessionCookieOptions(ctx.publicUrl);

  const signInOp = operations.dashboardSignIn;
  api.post(
    routePath(signInOp),
    // Sign-in needs no CSRF token: the body must be JSON, which a cross-site form cannot send
    // without a CORS preflight this service never answers.
    { schema: { body: signInOp.body, response: responseSchemas(signInOp) }, config: { dashboard: 'public' } },
    async (request, reply) => {
      const opened = await signIn(ctx, request.body);
      reply.setCookie(SESSION_COOKIE, opened.sessionId, cookieOptions);
      const expiresAt = new Date(ctx.clock.now().getTime() + cookieOptions.maxAge * 1000);
      return sessionBody(opened.user, { csrf_token: opened.csrfToken, expires_at: expiresAt });
    },
  );

  api.get(
    routePath(operations.dashboardGetSession),
    { schema: { response: responseSchemas(operations.dashboardGetSession) }, config: { dashboard: 'read' } },
    async (request) => {
      const caller = dashboardCallerOf(request);
      return sessionBody(caller.user, caller.session);
    },
  );

  // Signing out changes nothing of the merchant's, so every role may (action `read`); the CSRF
  // token is still required, because it is a POST.
  api.post(
    routePath(operations.dashboardSignOut),
    { schema: { response: responseSchemas(operations.dashboardSignOut) }, config: { dashboard: 'read' } },
    async (request, reply) => {
      const caller = dashboardCallerOf(request);
      await signOut(ctx, caller.user, caller.sessionId);
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return { object: 'signed_out' as const, sessions_ended: 1 };
    },
  );

  api.post(
    routePath(operations.dashboardSignOutEverywhere),
    {
      schema: { response: responseSchemas(operations.dashboardSignOutEverywhere) },
      config: { dashboard: 'read' },
    },
    async (request, reply) => {
      const ended = await signOutEverywhere(ctx, dashboardCallerOf(request).user);
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return { object: 'signed_out' as const, sessions_ended: ended };
    },
  );

  const accept = operations.dashboardAcceptInvitation;
  api.post(
    routePath(accept),
    { schema: { body: accept.body, response: responseSchemas(accept) }, config: { dashboard: 'public' } },
    async (request) => {
      await acceptInvitation(ctx, request.body, request.ip);
      return { object: 'signed_out' as const, sessions_ended: 0 };
    },
  );
}
