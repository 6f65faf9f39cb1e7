import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptInvitation,
  signIn,
  signOut,
  signOutEverywhere,
} from '../../../app/back-office-users/accounts.ts';
import type { AppContext } from '../../../app/context.ts';
import { AppError } from '../../../domain/errors.ts';
import { type Language, type Messages, pickLanguage, t } from '../../../i18n/i18n.ts';
import { dashboardCallerOf, SESSION_COOKIE, sessionCookieOptions } from '../../kit/dashboard-auth.ts';
import { href } from '../../kit/navigation.ts';
import { problemText } from '../../kit/problems.ts';
import { acceptForms, pageAction } from '../page-actions.ts';
import { html, text } from '../page-kit.ts';
import { acceptInvitationPage, type SignInFormState, signInPage } from './page.ts';
import { type SignInCookie, signInTokenFor, signInTokenPresented } from './sign-in-token.ts';

/** What the sign-in page says after the action that led to it (`?done=`). */
const notices = {
  signed_out: 'signedOut',
  signed_out_everywhere: 'signedOutEverywhere',
  accepted: 'accepted',
} as const satisfies Record<string, keyof Messages>;

const languageOf = (request: FastifyRequest): Language =>
  pickLanguage(request.query, request.headers['accept-language']);

/** A throttled attempt says when to try again, on the page as in the API. */
const retryAfter = (reply: FastifyReply, error: AppError) => {
  if (error.extras.retryAfterSeconds !== undefined)
    reply.header('retry-after', String(error.extras.retryAfterSeconds));
};

const fieldOf = (request: FastifyRequest, name: string): string => {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The dashboard's sign-in, invitation and sign-out pages as plain form posts (no script needed):
 * each calls the same use case as the JSON API, then redirects to the page that shows the new
 * state (post, redirect, get); a refusal draws the form again in the page's language with what
 * was typed (never the password).
 */
export async function dashboardSessionPageRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  acceptForms(app);
  const cookieOptions = sessionCookieOptions(ctx.publicUrl);
  const signInCookie: SignInCookie = {
    name: 'paygate_sign_in',
    path: '/dashboard',
    secure: cookieOptions.secure,
  };
  signInForm(app, ctx, cookieOptions, signInCookie);
  acceptInvitationForm(app, ctx, signInCookie);
  signOutForms(app, ctx, cookieOptions);
}

type CookieOptions = ReturnType<typeof sessionCookieOptions>;

function signInForm(
  app: FastifyInstance,
  ctx: AppContext,
  cookieOptions: CookieOptions,
  signInCookie: SignInCookie,
): void {
  const drawSignIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    state: Omit<SignInFormState, 'signInToken'>,
    status = 200,
  ) =>
    html(
      reply,
      signInPage(languageOf(request), {
        ...state,
        signInToken: signInTokenFor(request, reply, signInCookie),
      }),
      status,
    );

  app.get('/dashboard/sign-in', async (request, reply) => {
    const done = text(request.query, 'done');
    const key = done && Object.hasOwn(notices, done) ? notices[done as keyof typeof notices] : undefined;
    return drawSignIn(request, reply, key ? { notice: t(languageOf(request))[key] } : {});
  });

  app.post('/dashboard/sign-in', async (request, reply) => {
    const lang = languageOf(request);
    const m = t(lang);
    const email = fieldOf(request, 'email');
    if (!signInTokenPresented(request, signInCookie)) {
      return drawSignIn(request, reply, { email, problem: m.signInFormExpired }, 403);
    }
    const totp = fieldOf(request, 'totp_code').trim();
    try {
      const opened = await signIn(ctx, {
        email,
        password: fieldOf(request, 'password'),
        ...(totp ? { totp_code: totp } : {}),
      });
      reply.setCookie(SESSION_COOKIE, opened.sessionId, cookieOptions);
      reply.clearCookie(signInCookie.name, { path: signInCookie.path });
      return reply.redirect(href('/dashboard/test/payments', lang), 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      retryAfter(reply, error);
      const problem = `${m.signInFailed}: ${problemText(lang, error)}`;
      return drawSignIn(request, reply, { email, problem }, error.status);
    }
  });
}

function acceptInvitationForm(app: FastifyInstance, ctx: AppContext, signInCookie: SignInCookie): void {
  const drawAccept = (
    request: FastifyRequest,
    reply: FastifyReply,
    state: { token?: string; problem?: string },
    status = 200,
  ) =>
    html(
      reply,
      acceptInvitationPage(languageOf(request), {
        ...state,
        signInToken: signInTokenFor(request, reply, signInCookie),
      }),
      status,
    );

  app.get('/dashboard/accept-invitation', async (request, reply) => {
    const token = text(request.query, 'token');
    return drawAccept(request, reply, token ? { token } : {});
  });

  app.post('/dashboard/accept-invitation', async (request, reply) => {
    const lang = languageOf(request);
    const token = fieldOf(request, 'token').trim();
    if (!signInTokenPresented(request, signInCookie)) {
      return drawAccept(request, reply, { token, problem: t(lang).signInFormExpired }, 403);
    }
    try {
      await acceptInvitation(ctx, { token, password: fieldOf(request, 'password') }, request.ip);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      retryAfter(reply, error);
      const problem = `${t(lang).failedAction}: ${problemText(lang, error)}`;
      return drawAccept(request, reply, { token, problem }, error.status);
    }
    return reply.redirect(href('/dashboard/sign-in', lang, { done: 'accepted' }), 303);
  });
}

function signOutForms(app: FastifyInstance, ctx: AppContext, cookieOptions: CookieOptions): void {
  // The header's sign-outs: plain forms with the CSRF field; every role may (action `read`).
  pageAction(app, '/dashboard/sign-out', 'read', async (request, reply, scope) => {
    const caller = dashboardCallerOf(request);
    await signOut(ctx, caller.user, caller.sessionId);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return reply.redirect(href('/dashboard/sign-in', scope.locale, { done: 'signed_out' }), 303);
  });

  pageAction(app, '/dashboard/sign-out-everywhere', 'read', async (request, reply, scope) => {
    await signOutEverywhere(ctx, dashboardCallerOf(request).user);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return reply.redirect(href('/dashboard/sign-in', scope.locale, { done: 'signed_out_everywhere' }), 303);
  });
}
