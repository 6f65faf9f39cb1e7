import { operations } from '@paygate/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { announceDeprecation } from '../../../app/deprecations/announce-deprecation.ts';
import {
  listAnnouncedDeprecations,
  retrieveDeprecation,
} from '../../../app/deprecations/retrieve-deprecation.ts';
import {
  recordOperatorAction,
  signInOperator,
  signOutOperator,
} from '../../../app/operators/operator-accounts.ts';
import { deprecationResource } from '../../../app/resources/deprecation.ts';
import { pickLanguage } from '../../../dashboard/i18n.ts';
import { href } from '../../../dashboard/navigation.ts';
import {
  operatorDeprecationPage,
  operatorDeprecationsPage,
  operatorSignInPage,
} from '../../../dashboard/operator-pages.ts';
import { route } from '../../declare-route.ts';
import {
  OPERATOR_SESSION_COOKIE,
  type OperatorCaller,
  operatorCallerOf,
  operatorCookieOptions,
  operatorPageCaller,
} from '../../plugins/operator-auth.ts';
import { html } from '../dashboard/page-kit.ts';

/** A console page: without a live operator session the browser is sent to the console's sign-in. */
function consolePage<Params>(
  app: FastifyInstance,
  ctx: AppContext,
  url: string,
  render: (
    request: FastifyRequest<{ Params: Params }>,
    caller: OperatorCaller,
    lang: 'en' | 'es',
  ) => Promise<string>,
): void {
  app.get<{ Params: Params }>(url, async (request, reply: FastifyReply) => {
    const lang = pickLanguage(request.query, request.headers['accept-language']);
    const caller = await operatorPageCaller(ctx, request);
    if (!caller) return reply.redirect(href('/operator/sign-in', lang), 303);
    return html(reply, await render(request, caller, lang));
  });
}

/**
 * The operator's console: sign-in and sign-out with the dashboard's session rules, and the
 * deprecation notices, announced through the operator API's own use case.
 */
export async function operatorConsoleRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const cookieOptions = operatorCookieOptions(ctx.publicUrl);

  route(app, operations.operatorSignIn, async (request, reply) => {
    const opened = await signInOperator(ctx, request.body);
    reply.setCookie(OPERATOR_SESSION_COOKIE, opened.sessionId, cookieOptions);
    return {
      object: 'operator_session' as const,
      operator: { id: opened.user.id, email: opened.user.email },
      csrf_token: opened.csrfToken,
      expires_at: new Date(ctx.clock.now().getTime() + cookieOptions.maxAge * 1000).toISOString(),
    };
  });

  route(app, operations.operatorSignOut, async (request, reply) => {
    const caller = operatorCallerOf(request);
    await signOutOperator(ctx, caller.operator.id, caller.sessionId);
    reply.clearCookie(OPERATOR_SESSION_COOKIE, cookieOptions);
    return { object: 'signed_out' as const };
  });

  route(app, operations.operatorAnnounceDeprecation, async (request, reply) => {
    const caller = operatorCallerOf(request);
    const { affected, below, withdraw_on, text } = request.body;
    const announced = await announceDeprecation(ctx, {
      affected:
        affected === 'contract:v1'
          ? { contract: 'v1' }
          : { clients: [{ name: affected, below: below ?? '' }] },
      withdraw_on,
      text,
    });
    await recordOperatorAction(ctx.db, ctx.clock.now(), {
      operatorId: caller.operator.id,
      action: 'deprecation.announced',
      target: announced.id,
    });
    return reply.code(201).send(deprecationResource(announced));
  });

  app.get('/operator/sign-in', async (request, reply) =>
    html(reply, operatorSignInPage(pickLanguage(request.query, request.headers['accept-language']))),
  );

  consolePage(app, ctx, '/operator/deprecations', async (_request, caller, lang) =>
    operatorDeprecationsPage(
      lang,
      { email: caller.operator.email, csrfToken: caller.session.csrf_token },
      await listAnnouncedDeprecations(ctx),
      ctx.clock.now().toISOString().slice(0, 10),
    ),
  );

  consolePage<{ id: string }>(app, ctx, '/operator/deprecations/:id', async (request, caller, lang) =>
    operatorDeprecationPage(
      lang,
      { email: caller.operator.email, csrfToken: caller.session.csrf_token },
      await retrieveDeprecation(ctx, request.params.id),
    ),
  );
}
