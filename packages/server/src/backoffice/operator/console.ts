import { operations } from '@paygate/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { announceDeprecation } from '../../app/deprecations/announce-deprecation.ts';
import {
  listAnnouncedDeprecations,
  retrieveDeprecation,
} from '../../app/deprecations/retrieve-deprecation.ts';
import { readReconciliation } from '../../app/gateways/read-reconciliation.ts';
import { listLateCapturesFor } from '../../app/late-captures/list-late-captures.ts';
import {
  auditOperatorAction,
  signInOperator,
  signOutOperator,
} from '../../app/operators/operator-accounts.ts';
import { deprecationResource } from '../../app/resources/deprecation.ts';
import { operatorSessionResource, signedOutResource } from '../../app/resources/sessions.ts';
import { AppError } from '../../domain/errors.ts';
import { route } from '../../http/declare-route.ts';
import { pickLanguage, t } from '../../i18n/i18n.ts';
import { acceptForms } from '../dashboard/page-actions.ts';
import { html } from '../dashboard/page-kit.ts';
import {
  type SignInCookie,
  signInTokenFor,
  signInTokenPresented,
} from '../dashboard/session/sign-in-token.ts';
import { href } from '../kit/navigation.ts';
import {
  OPERATOR_SESSION_COOKIE,
  type OperatorCaller,
  operatorCallerOf,
  operatorCookieOptions,
} from '../kit/operator-auth.ts';
import { problemText } from '../kit/problems.ts';
import { operatorAuditRoute } from './audit/routes.ts';
import { consoleGet, consolePost, field } from './console-kit.ts';
import { operatorMerchantRoutes } from './merchants/routes.ts';
import {
  type OperatorView,
  operatorDeprecationPage,
  operatorDeprecationsPage,
  operatorReconciliationPage,
  operatorSignInPage,
  type ReconciliationRead,
} from './pages.ts';
import { operatorTotpRoutes } from './totp.ts';

/** Announces through the operator API's own use case, the console's audit line in its transaction. */
async function announce(
  ctx: AppContext,
  caller: OperatorCaller,
  body: { affected: string; below?: string | undefined; withdraw_on: string; text: string },
) {
  const { affected, below, withdraw_on, text } = body;
  return announceDeprecation(
    ctx,
    {
      affected:
        affected === 'contract:v1'
          ? { contract: 'v1' }
          : { clients: [{ name: affected, below: below ?? '' }] },
      withdraw_on,
      text,
    },
    auditOperatorAction(ctx, caller.operator.id, 'deprecation.announced'),
  );
}

/** The last day of reconciliation, for the page: a read that fails entirely is shown as such. */
async function readBooks(ctx: AppContext): Promise<ReconciliationRead> {
  try {
    return { report: await readReconciliation(ctx, {}) };
  } catch (error) {
    if (error instanceof AppError || error instanceof Error) return { failed: error.message };
    throw error;
  }
}

/**
 * The operator's console: sign-in and sign-out with the dashboard's session rules, and its pages
 * (merchants, gateway accounts, late captures and reconciliation, deprecation notices, the audit
 * log, the operator's own second factor). Every action goes through the operator API's use case.
 */
export async function operatorConsoleRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const cookieOptions = operatorCookieOptions(ctx.publicUrl);
  acceptForms(app);
  sessionApiRoutes(app, ctx, cookieOptions);
  signInFormRoutes(app, ctx, cookieOptions);
  deprecationRoutes(app, ctx);
  consoleGet(app, ctx, '/operator/reconciliation', async (_request, view) =>
    operatorReconciliationPage(
      view,
      await listLateCapturesFor(ctx, { repairStatus: null, limit: 50 }),
      await readBooks(ctx),
    ),
  );

  consoleGet(app, ctx, '/operator/audit', operatorAuditRoute(ctx));
  await operatorMerchantRoutes(app, ctx);
  await operatorTotpRoutes(app, ctx);
}

type CookieOptions = ReturnType<typeof operatorCookieOptions>;

/** The console's JSON API for scripts: sign in and out, announce a deprecation. */
function sessionApiRoutes(app: FastifyInstance, ctx: AppContext, cookieOptions: CookieOptions): void {
  route(app, operations.operatorSignIn, async (request, reply) => {
    const opened = await signInOperator(ctx, request.body);
    reply.setCookie(OPERATOR_SESSION_COOKIE, opened.sessionId, cookieOptions);
    return operatorSessionResource(
      opened.user,
      opened.csrfToken,
      new Date(ctx.clock.now().getTime() + cookieOptions.maxAge * 1000),
    );
  });

  route(app, operations.operatorSignOut, async (request, reply) => {
    const caller = operatorCallerOf(request);
    await signOutOperator(ctx, caller.operator.id, caller.sessionId);
    reply.clearCookie(OPERATOR_SESSION_COOKIE, cookieOptions);
    return signedOutResource();
  });

  // The header's sign-out: a plain form (CSRF field), so that it works without a script.
  app.post('/operator/sign-out', { config: { credential: 'operator_session' } }, async (request, reply) => {
    const caller = operatorCallerOf(request);
    await signOutOperator(ctx, caller.operator.id, caller.sessionId);
    reply.clearCookie(OPERATOR_SESSION_COOKIE, cookieOptions);
    const lang = pickLanguage(request.query, request.headers['accept-language']);
    return reply.redirect(href('/operator/sign-in', lang), 303);
  });

  route(app, operations.operatorAnnounceDeprecation, async (request, reply) => {
    const announced = await announce(ctx, operatorCallerOf(request), request.body);
    return reply.code(201).send(deprecationResource(announced));
  });
}

function signInFormRoutes(app: FastifyInstance, ctx: AppContext, cookieOptions: CookieOptions): void {
  // The sign-in page's plain form (no script needed), guarded like the dashboard's by a
  // pre-session token (dashboard/session/sign-in-token.ts); the JSON API above stays for scripts.
  const signInCookie: SignInCookie = {
    name: 'paygate_operator_sign_in',
    path: '/operator',
    secure: cookieOptions.secure,
  };
  const drawSignIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    state: { email?: string; problem?: string },
    status = 200,
  ) =>
    html(
      reply,
      operatorSignInPage(pickLanguage(request.query, request.headers['accept-language']), {
        ...state,
        signInToken: signInTokenFor(request, reply, signInCookie),
      }),
      status,
    );
  app.get('/operator/sign-in', async (request, reply) => drawSignIn(request, reply, {}));
  app.post('/operator/sign-in', async (request, reply) => {
    const lang = pickLanguage(request.query, request.headers['accept-language']);
    const m = t(lang);
    const body = (request.body as Record<string, unknown> | undefined) ?? {};
    const fieldText = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    const email = fieldText('email');
    if (!signInTokenPresented(request, signInCookie))
      return drawSignIn(request, reply, { email, problem: m.signInFormExpired }, 403);
    const totp = fieldText('totp_code').trim();
    try {
      const opened = await signInOperator(ctx, {
        email,
        password: fieldText('password'),
        ...(totp ? { totp_code: totp } : {}),
      });
      reply.setCookie(OPERATOR_SESSION_COOKIE, opened.sessionId, cookieOptions);
      reply.clearCookie(signInCookie.name, { path: signInCookie.path });
      return reply.redirect(href('/operator/merchants', lang), 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.extras.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.extras.retryAfterSeconds));
      return drawSignIn(
        request,
        reply,
        { email, problem: `${m.signInFailed}: ${problemText(lang, error)}` },
        error.status,
      );
    }
  });
  app.get('/operator', async (request, reply) =>
    reply.redirect(
      href('/operator/merchants', pickLanguage(request.query, request.headers['accept-language'])),
      303,
    ),
  );
}

/** Deprecation notices: the list with its form, one announcement. */
function deprecationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deprecationsPage = async (view: OperatorView) =>
    operatorDeprecationsPage(
      view,
      await listAnnouncedDeprecations(ctx),
      ctx.clock.now().toISOString().slice(0, 10),
    );
  consoleGet(app, ctx, '/operator/deprecations', (_request, view) => deprecationsPage(view));

  consolePost(
    app,
    '/operator/deprecations',
    async (request, caller) => {
      const below = (request.body as Record<string, unknown> | undefined)?.below;
      const announced = await announce(ctx, caller, {
        affected: field(request, 'affected'),
        ...(typeof below === 'string' && below.trim() !== '' ? { below: below.trim() } : {}),
        withdraw_on: field(request, 'withdraw_on'),
        text: field(request, 'text'),
      });
      return { path: `/operator/deprecations/${announced.id}`, done: 'announced' };
    },
    (_request, view) => deprecationsPage(view),
  );

  consoleGet<{ Params: { id: string } }>(app, ctx, '/operator/deprecations/:id', async (request, view) =>
    operatorDeprecationPage(view, await retrieveDeprecation(ctx, request.params.id)),
  );
}
