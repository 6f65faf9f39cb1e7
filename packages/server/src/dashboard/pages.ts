import type { Language } from './i18n.ts';
import { rt } from './i18n-rest.ts';
import { h, href, type PageFrame, page, t } from './layout.ts';

export function signInPage(lang: Language): string {
  const m = t(lang);
  return page(
    { lang, title: m.signIn, path: '/dashboard/sign-in' },
    `<form data-api="/dashboard/api/v1/session" data-next="${h(href('/dashboard/test/payments', lang))}" data-failed="${h(m.signInFailed)}" data-done="">
  <label>${h(m.email)} <input name="email" type="email" autocomplete="username" required></label>
  <label>${h(m.password)} <input name="password" type="password" autocomplete="current-password" required></label>
  <label>${h(rt(lang).signInCode)} <input name="totp_code" autocomplete="one-time-code" maxlength="32"></label>
  <button type="submit">${h(m.signIn)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
  );
}

export function acceptInvitationPage(lang: Language): string {
  const m = t(lang);
  return page(
    { lang, title: m.acceptInvitation, path: '/dashboard/accept-invitation' },
    `<form data-api="/dashboard/api/v1/invitations/accept" data-failed="${h(m.acceptInvitation)}" data-done="${h(m.accepted)}">
  <label>${h(m.token)} <input name="token" required autocomplete="off"></label>
  <label>${h(m.newPassword)} <input name="password" type="password" autocomplete="new-password" minlength="12" required></label>
  <button type="submit">${h(m.accept)}</button>
  <p data-out aria-live="polite"></p>
</form>
<p><a href="${h(href('/dashboard/sign-in', lang))}">${h(m.signIn)}</a></p>`,
  );
}

export interface TeamView {
  users: { email: string; role: string; created_at: string }[];
  /** Null when the caller may not read it (not an owner). */
  audit: { action: string; target: string | null; user_email: string | null; created_at: string }[] | null;
}

export function teamPage(frame: PageFrame, view: TeamView): string {
  const m = t(frame.lang);
  const users = view.users
    .map((u) => `<tr><td>${h(u.email)}</td><td>${h(u.role)}</td><td>${h(u.created_at)}</td></tr>`)
    .join('');
  const owner = view.audit !== null;
  const invite = owner
    ? `<h2>${h(m.invite)}</h2>
<form class="inline" data-api="/dashboard/api/v1/invitations" data-failed="${h(m.invite)}" data-done="${h(m.invited)}" data-show="token">
  <label>${h(m.email)} <input name="email" type="email" required></label>
  <label>${h(m.role)} <select name="role"><option>viewer</option><option>developer</option><option>owner</option></select></label>
  <button type="submit">${h(m.invite)}</button>
  <p data-out aria-live="polite"></p>
</form>`
    : '';
  const audit = view.audit
    ? `<h2>${h(m.auditLog)}</h2><table><caption>${h(m.auditLog)}</caption><thead><tr><th scope="col">${h(m.when)}</th><th scope="col">${h(m.who)}</th><th scope="col">${h(m.action)}</th><th scope="col">${h(m.target)}</th></tr></thead><tbody>${view.audit
        .map(
          (e) =>
            `<tr><td>${h(e.created_at)}</td><td>${h(e.user_email ?? m.operator)}</td><td>${h(e.action)}</td><td>${h(e.target)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  return page(
    frame,
    `<h2>${h(m.users)}</h2><table><caption>${h(m.users)}</caption><thead><tr><th scope="col">${h(m.email)}</th><th scope="col">${h(m.role)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${users}</tbody></table>${invite}${audit}`,
  );
}
