import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import type { DashboardAction } from '../../domain/dashboard-roles.ts';
import { AppError } from '../../domain/errors.ts';
import { type Messages, t } from '../../i18n/i18n.ts';
import {
  type Confirmation,
  confirmationPage,
  confirmationProblem,
  secretPage,
} from '../kit/confirm-pages.ts';
import { href } from '../kit/navigation.ts';
import { problemText } from '../kit/problems.ts';
import { acceptForms, pageAction } from './page-actions.ts';
import { dashboardPage, html, pageFrame, text } from './page-kit.ts';
import type { DashboardScope } from './scope.ts';

/** The route config of every confirmation's POST, so the tests that walk the routes find them all. */
const CONFIRMED = { confirmation: true } as const;

/** What each step of a confirmed action is given about its request. */
export interface Asking {
  scope: DashboardScope;
  /** The catalogue of the page's language. */
  m: Messages;
  /** The path's parameters (`:mode`, `:id`, ...). */
  params: Record<string, string>;
  /**
   * A field of the action's input, or undefined: on the confirmation page the query (the link
   * that opened it), on the POST the form (the page hands its `fields` on as hidden inputs).
   */
  input: (name: string) => string | undefined;
  /** `path` in the page's language, with `query`. */
  link: (path: string, query?: Record<string, string>) => string;
}

/** What the page says: the statement, the button, the fields it posts (see `Confirmation`). */
export type Asked = Omit<Confirmation, 'action' | 'cancelHref' | 'problem'>;

/** After the action: the page that shows the new state (post, redirect, get), or a secret shown once. */
export type Done = { redirect: string } | { title: keyof Messages; secret: Parameters<typeof secretPage>[1] };

/** One action that breaks an integration, moves money or shows a secret, and its confirmation. */
export interface ConfirmedAction<Target> {
  /** The page's URL pattern, which its form posts to: `/dashboard/:mode/webhooks/:id/disable`. */
  url: string;
  /** The role's right the POST needs (checked, with the CSRF token, before `run`). */
  role: DashboardAction;
  /** The page's title, from the catalogue. */
  title: keyof Messages;
  /** Finds what the action is on, the caller's own or a 404; runs for the page and for the POST. */
  load: (ask: Asking) => Promise<Target>;
  /**
   * Where the way back goes when `load` finds nothing (already removed, revoked, or never the
   * caller's): the list it was on, already `link`ed.
   */
  list: (ask: Asking) => string;
  /** Where Cancel (and the way back from a refusal) goes, already `link`ed. */
  back: (target: Target, ask: Asking) => string;
  /**
   * What the page states. Throws an AppError when the action cannot be asked as it is (a bad
   * choice in the link, one's own removal): the page then shows why and the way back, with the
   * error's status, and the POST refuses the same way.
   */
  ask: (target: Target, ask: Asking) => Asked | Promise<Asked>;
  /**
   * Does it: the same use case as the dashboard API, audited. An AppError it throws comes back on
   * the confirmation page, in the page's language (kit/problems.ts), the form kept to try again.
   */
  run: (target: Target, ask: Asking) => Promise<Done>;
}

/**
 * Registers `GET url`, the confirmation page, and `POST url`, its plain form's target: works
 * without a script, the CSRF token travels as a form field. Every confirmation of the back office
 * has this one shape; a route file declares only what differs:
 *
 * ```ts
 * confirmedAction(app, ctx, {
 *   url: '/dashboard/:mode/webhooks/:id/disable',
 *   role: 'operate',
 *   title: 'confirmDisableTitle',
 *   load: ({ scope, params }) => tenantEndpoint(ctx, scope, params.id ?? ''),
 *   back: (endpoint, { scope, link }) => link(`/dashboard/${scope.mode}/webhooks/${endpoint.id}`),
 *   ask: (endpoint, { m }) => ({ statement: fill(m.confirmDisable, endpoint), button: ..., destructive: true }),
 *   run: async (endpoint, { scope, link }) => {
 *     await disableWebhookEndpoint(ctx, endpoint.id);
 *     return { redirect: link(`/dashboard/${scope.mode}/webhooks/${endpoint.id}`, { disabled: '1' }) };
 *   },
 * });
 * ```
 */
export function confirmedAction<Target>(
  app: FastifyInstance,
  ctx: AppContext,
  action: ConfirmedAction<Target>,
): void {
  acceptForms(app);
  dashboardPage(app, ctx, action.url, async (request, reply, { scope }) => {
    const ask = asking(request, scope, request.query);
    const loaded = await loadOrGone(ctx, action, request, ask);
    if ('gone' in loaded) return html(reply, loaded.gone.body, loaded.gone.status);
    const shown = await render(ctx, action, request, ask, loaded.target);
    return html(reply, shown.body, shown.status);
  });

  pageAction(
    app,
    action.url,
    action.role,
    async (request, reply, scope) => {
      const ask = asking(request, scope, request.body);
      const loaded = await loadOrGone(ctx, action, request, ask);
      if ('gone' in loaded) return html(reply, loaded.gone.body, loaded.gone.status);
      const { target } = loaded;
      let done: Done;
      try {
        // What the page would refuse to ask, the POST refuses too (a hand-made form gets no further).
        await action.ask(target, ask);
        done = await action.run(target, ask);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const shown = await render(ctx, action, request, ask, target, error);
        return html(reply, shown.body, shown.status);
      }
      if ('redirect' in done) return reply.redirect(done.redirect, 303);
      // A secret is the answer of this POST, once (no-store): never in a URL.
      const frame = await pageFrame(ctx, scope, pathOf(request, action), ask.m[done.title]);
      return html(reply, secretPage(frame, done.secret));
    },
    CONFIRMED,
  );
}

const asking = (request: FastifyRequest, scope: DashboardScope, from: unknown): Asking => ({
  scope,
  m: t(scope.locale),
  params: request.params as Record<string, string>,
  input: (name) => text(from, name),
  link: (path, query) => href(path, scope.locale, query),
});
// The page's own path (the pattern filled in), for its navigation and its form's target.
const pathOf = <Target>(request: FastifyRequest, action: ConfirmedAction<Target>) =>
  request.url.split('?')[0] ?? action.url;

/** The confirmation page, or why it cannot be asked; `problem` is a refused POST's reason. */
const render = async <Target>(
  ctx: AppContext,
  action: ConfirmedAction<Target>,
  request: FastifyRequest,
  ask: Asking,
  target: Target,
  problem?: AppError,
) => {
  const path = pathOf(request, action);
  const frame = await pageFrame(ctx, ask.scope, path, ask.m[action.title]);
  const back = action.back(target, ask);
  let asked: Asked;
  try {
    asked = await action.ask(target, ask);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      body: confirmationProblem(frame, problemText(ask.scope.locale, error), back, ask.m.goBack),
      status: error.status,
    };
  }
  const body = confirmationPage(frame, {
    ...asked,
    action: ask.link(path),
    cancelHref: back,
    ...(problem ? { problem: problemText(ask.scope.locale, problem) } : {}),
  });
  return { body, status: problem?.status ?? 200 };
};

/**
 * What the action is on, or the page saying it is gone: a repeated POST (a second click, the
 * browser's resend) or a hand-made one for something already removed answers a dashboard page in
 * the user's language with the way back to its list, never the API's JSON problem.
 */
const loadOrGone = async <Target>(
  ctx: AppContext,
  action: ConfirmedAction<Target>,
  request: FastifyRequest,
  ask: Asking,
): Promise<{ target: Target } | { gone: { body: string; status: number } }> => {
  try {
    return { target: await action.load(ask) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const frame = await pageFrame(ctx, ask.scope, pathOf(request, action), ask.m[action.title]);
    const said =
      error.code === 'resource_not_found' ? ask.m.confirmGone : problemText(ask.scope.locale, error);
    const body = confirmationProblem(frame, said, action.list(ask), ask.m.goBack);
    return { gone: { body, status: error.status } };
  }
};
