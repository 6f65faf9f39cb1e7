import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { resolveSession } from '../../../app/dashboard/accounts.ts';
import { endpointsNeedingAttention } from '../../../app/webhooks/list-endpoints-needing-attention.ts';
import { type Language, pickLanguage, t } from '../../../dashboard/i18n.ts';
import { DASHBOARD_CSP, type PageFrame } from '../../../dashboard/layout.ts';
import { href } from '../../../dashboard/navigation.ts';
import { SESSION_COOKIE } from '../../plugins/dashboard-auth.ts';

export type Mode = 'test' | 'live';
export const isMode = (value: string): value is Mode => value === 'test' || value === 'live';

export type SignedIn = NonNullable<Awaited<ReturnType<typeof resolveSession>>> & {
  /** The webhook endpoints of the page's mode that need attention (the banner on every page). */
  attention: NonNullable<PageFrame['attention']>;
};

/** A page answer: the strict CSP, never cached, never sniffed. */
export function html(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .send(body);
}

/** A non-empty string query parameter, or undefined. */
export function text(query: unknown, name: string): string | undefined {
  const value =
    typeof query === 'object' && query !== null ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function languageOf(request: FastifyRequest): Language {
  return pickLanguage(request.query, request.headers['accept-language']);
}

/**
 * The live session of the page's cookie, with the webhook endpoints of the page's mode that need
 * attention; without a session the browser is sent to sign in (and null answered).
 */
export async function signedIn(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  lang: Language,
): Promise<SignedIn | null> {
  const sessionId = request.cookies[SESSION_COOKIE];
  const found = sessionId ? await resolveSession(ctx, sessionId) : null;
  if (!found) {
    await reply.redirect(href('/dashboard/sign-in', lang), 303);
    return null;
  }
  const params = request.params as { mode?: unknown } | undefined;
  const scope = { merchantId: found.user.merchant_id, livemode: params?.mode === 'live' };
  const attention = (await endpointsNeedingAttention(ctx, scope)).map((e) => ({
    id: e.id,
    url: e.url,
    status: e.status,
  }));
  return { ...found, attention };
}

export function frameFor(
  lang: Language,
  path: string,
  title: string,
  mode: Mode,
  found: SignedIn,
): PageFrame {
  return {
    lang,
    path,
    mode,
    title,
    session: { email: found.user.email, role: found.user.role, csrfToken: found.session.csrf_token },
    attention: found.attention,
  };
}

/** The frame of the team and webhooks pages, titled by the path. */
export function frameOf(lang: Language, path: string, mode: Mode, found: SignedIn): PageFrame {
  const m = t(lang);
  return frameFor(lang, path, path.endsWith('/team') ? m.team : m.webhooks, mode, found);
}

/**
 * Registers `GET /dashboard/:mode/<name>`: a page of one mode for a signed-in user (others are
 * sent to sign in), framed with its title, its body rendered by `render`.
 */
export function modePage(
  app: FastifyInstance,
  ctx: AppContext,
  name: string,
  titleOf: (lang: Language) => string,
  render: (page: { found: SignedIn; mode: Mode; frame: PageFrame }) => Promise<string>,
): void {
  app.get<{ Params: { mode: string } }>(`/dashboard/:mode/${name}`, async (request, reply) => {
    const lang = languageOf(request);
    const { mode } = request.params;
    if (!isMode(mode)) return reply.code(404).type('text/plain').send('not found');
    const found = await signedIn(ctx, request, reply, lang);
    if (!found) return reply;
    const frame = frameFor(lang, `/dashboard/${mode}/${name}`, titleOf(lang), mode, found);
    return html(reply, await render({ found, mode, frame }));
  });
}
