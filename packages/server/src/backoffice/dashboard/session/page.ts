import { type Language, t } from '../../../i18n/i18n.ts';
import { h, page } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';

/** What a sign-in or invitation form is drawn with: its pre-session token, and after a post what it said. */
export interface SignInFormState {
  /** The pre-session token (backoffice/dashboard/session/sign-in-token.ts), a hidden field. */
  signInToken: string;
  /** The address typed before a refusal, kept (a password never is). */
  email?: string;
  /** Why the post was refused, in the page's language. */
  problem?: string;
  /** What the previous action did (signed out, account ready). */
  notice?: string;
}

const lines = (state: SignInFormState) =>
  `${state.notice ? `<p role="status">${h(state.notice)}</p>` : ''}${state.problem ? `<p role="alert">${h(state.problem)}</p>` : ''}`;

/**
 * The sign-in form of the dashboard and of the operator's console: a plain POST to `action`
 * (works without a script), the address, the password and the second factor's code in one step.
 */
export function signInForm(lang: Language, action: string, state: SignInFormState): string {
  const m = t(lang);
  return `${lines(state)}<form method="post" action="${h(href(action, lang))}">
  <input type="hidden" name="sign_in_token" value="${h(state.signInToken)}">
  <label>${h(m.email)} <input name="email" type="email" autocomplete="username" required value="${h(state.email ?? '')}"></label>
  <label>${h(m.password)} <input name="password" type="password" autocomplete="current-password" required></label>
  <label>${h(m.signInCode)} <input name="totp_code" autocomplete="one-time-code" maxlength="32"></label>
  <button type="submit">${h(m.signIn)}</button>
</form>`;
}

export function signInPage(lang: Language, state: SignInFormState): string {
  return page(
    { lang, title: t(lang).signIn, path: '/dashboard/sign-in' },
    signInForm(lang, '/dashboard/sign-in', state),
  );
}

/**
 * The page the invitation link opens. The e-mail's link carries the token in `?token=`, which the
 * server writes into the field, so the link works without a script; a link with the token in its
 * `#fragment` (the operator API's `accept_url`, never sent to a server) is filled by the script.
 * A plain POST sets the password, then the sign-in page says the account is ready.
 */
export function acceptInvitationPage(lang: Language, state: SignInFormState & { token?: string }): string {
  const m = t(lang);
  return page(
    { lang, title: m.acceptInvitation, path: '/dashboard/accept-invitation' },
    `${lines(state)}<form method="post" action="${h(href('/dashboard/accept-invitation', lang))}">
  <input type="hidden" name="sign_in_token" value="${h(state.signInToken)}">
  <label>${h(m.token)} <input name="token" required autocomplete="off" value="${h(state.token ?? '')}"></label>
  <label>${h(m.newPassword)} <input name="password" type="password" autocomplete="new-password" minlength="12" required></label>
  <button type="submit">${h(m.accept)}</button>
</form>
<p><a href="${h(href('/dashboard/sign-in', lang))}">${h(m.signIn)}</a></p>`,
  );
}
