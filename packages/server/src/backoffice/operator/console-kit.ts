import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { AppError, ValidationError } from '../../domain/errors.ts';
import { fill, type Language, type Messages, pickLanguage, t } from '../../i18n/i18n.ts';
import { html, text } from '../dashboard/page-kit.ts';
import { href } from '../kit/navigation.ts';
import { type OperatorCaller, operatorCallerOf, operatorPageCaller } from '../kit/operator-auth.ts';
import { problemText } from '../kit/problems.ts';
import type { OperatorView } from './pages.ts';

/** What an action of the console reports back on the page it redirects to (`?done=`, `?what=`). */
const notices = {
  created: 'operatorNoticeCreated',
  disabled: 'operatorNoticeDisabled',
  enabled: 'operatorNoticeEnabled',
  invited: 'operatorNoticeInvited',
  account_added: 'operatorNoticeAccountAdded',
  rotated: 'operatorNoticeRotated',
  announced: 'operatorAnnounced',
  totp_started: 'operatorNoticeTotpStarted',
  totp_off: 'totpDisabled',
} as const satisfies Record<string, keyof Messages>;
export type Notice = keyof typeof notices;

function viewOf(caller: OperatorCaller, lang: Language, query: unknown): OperatorView {
  const done = text(query, 'done') as Notice | undefined;
  const key: keyof Messages | undefined = done && Object.hasOwn(notices, done) ? notices[done] : undefined;
  const template = key ? t(lang)[key] : undefined;
  return {
    lang,
    email: caller.operator.email,
    csrfToken: caller.session.csrf_token,
    notice: template ? fill(template, { what: text(query, 'what') ?? '' }) : undefined,
  };
}

const languageOf = (request: FastifyRequest): Language =>
  pickLanguage(request.query, request.headers['accept-language']);

/** A page drawn with a status other than 200 (a refused filter of a list). */
export interface Drawn {
  body: string;
  status: number;
}

/** A page of the console: without a live operator session the browser is sent to its sign-in. */
export function consoleGet<Route extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  ctx: AppContext,
  url: string,
  render: (
    request: FastifyRequest<Route>,
    view: OperatorView,
    caller: OperatorCaller,
  ) => Promise<string | Drawn>,
): void {
  app.get(url, async (request, reply: FastifyReply) => {
    const lang = languageOf(request);
    const caller = await operatorPageCaller(ctx, request);
    if (!caller) return reply.redirect(href('/operator/sign-in', lang), 303);
    const drawn = await render(request as FastifyRequest<Route>, viewOf(caller, lang, request.query), caller);
    return typeof drawn === 'string' ? html(reply, drawn) : html(reply, drawn.body, drawn.status);
  });
}

/** Where an action sends the browser: a console page, with what it did to say there. */
export interface Done {
  path: string;
  done: Notice;
  what?: string;
}

/**
 * An action of the console: a plain form post (works without a script), its session and CSRF
 * token checked by the operator-auth plugin before the handler runs; then a redirect to the page
 * that shows the new state (post, redirect, get). A refused action (a 4xx of the use case) draws
 * `again`, the form's page, with the reason, and changes nothing.
 */
export function consolePost<Route extends RouteGenericInterface = RouteGenericInterface>(
  app: FastifyInstance,
  url: string,
  handler: (request: FastifyRequest<Route>, caller: OperatorCaller, lang: Language) => Promise<Done>,
  again: (request: FastifyRequest<Route>, view: OperatorView) => Promise<string>,
): void {
  app.post(url, { config: { credential: 'operator_session' } }, async (request, reply) => {
    const lang = languageOf(request);
    const caller = operatorCallerOf(request);
    const typed = request as FastifyRequest<Route>;
    try {
      const done = await handler(typed, caller, lang);
      return reply.redirect(href(done.path, lang, { done: done.done, what: done.what }), 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const view = { ...viewOf(caller, lang, {}), problem: problemText(lang, error) };
      return html(reply, await again(typed, view), error.status);
    }
  });
}

/** A field of a console form; a missing one is a 400 naming it. */
export function field(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new ValidationError(name, 'is required');
}

/** The non-empty fields `<group>.<name>` of a console form, as `{name: value}`. */
export function group(request: FastifyRequest, prefix: 'credentials' | 'settings'): Record<string, string> {
  const body = (request.body as Record<string, unknown> | undefined) ?? {};
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith(`${prefix}.`) && typeof value === 'string' && value.trim() !== '') {
      values[key.slice(prefix.length + 1)] = value;
    }
  }
  return values;
}
