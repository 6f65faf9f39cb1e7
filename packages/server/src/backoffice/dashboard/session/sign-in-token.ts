import type { FastifyReply, FastifyRequest } from 'fastify';
import { secretsEqual } from '../../../domain/api-keys.ts';
import { randomBase62 } from '../../../domain/ids.ts';

/** The sign-in form's field that carries the pre-session token (see `signInTokenFor`). */
export const SIGN_IN_TOKEN_FIELD = 'sign_in_token';
const TOKEN_FORM = /^[0-9A-Za-z]{43}$/;
/** Long enough to type a password and find a code; a stale form is drawn again with a fresh one. */
const TOKEN_LIFETIME_S = 60 * 60;

/**
 * Where a sign-in form lives: the dashboard's (`/dashboard`) or the operator console's
 * (`/operator`) cookie path, and whether the service is behind HTTPS.
 */
export interface SignInCookie {
  name: string;
  path: string;
  secure: boolean;
}

/**
 * The pre-session token of a plain sign-in form (a double-submit token). Before sign-in there is
 * no session and so no CSRF token; without one, another site could post its own credentials to
 * this form and sign the victim's browser in as the attacker (login CSRF). The page sets this
 * random token as an HttpOnly, SameSite=Strict cookie and writes it into the form; the post must
 * carry both, equal. A cross-site post carries no Strict cookie and cannot read the field. The
 * JSON sign-in API keeps its own rule (a JSON body, which a cross-site form cannot send).
 */
export function signInTokenFor(request: FastifyRequest, reply: FastifyReply, cookie: SignInCookie): string {
  const kept = request.cookies[cookie.name];
  const token = kept && TOKEN_FORM.test(kept) ? kept : randomBase62(43);
  reply.setCookie(cookie.name, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: cookie.secure,
    path: cookie.path,
    maxAge: TOKEN_LIFETIME_S,
  });
  return token;
}

/** Whether a sign-in form's post carries the token its cookie holds (compared in constant time). */
export function signInTokenPresented(request: FastifyRequest, cookie: SignInCookie): boolean {
  const kept = request.cookies[cookie.name];
  const presented = (request.body as Record<string, unknown> | undefined)?.[SIGN_IN_TOKEN_FIELD];
  return typeof kept === 'string' && typeof presented === 'string' && secretsEqual(presented, kept);
}
