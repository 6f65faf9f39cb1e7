import { fill, type Language, roleLabel, t } from './i18n.ts';
import { emptyState, h, type PageFrame, page } from './layout.ts';
import { href } from './navigation.ts';
import { timeTag } from './time.ts';

export function signInPage(lang: Language): string {
  const m = t(lang);
  return page(
    { lang, title: m.signIn, path: '/dashboard/sign-in' },
    `<form data-api="/dashboard/api/v1/session" data-next="${h(href('/dashboard/test/payments', lang))}" data-failed="${h(m.signInFailed)}" data-done="">
  <label>${h(m.email)} <input name="email" type="email" autocomplete="username" required></label>
  <label>${h(m.password)} <input name="password" type="password" autocomplete="current-password" required></label>
  <label>${h(t(lang).signInCode)} <input name="totp_code" autocomplete="one-time-code" maxlength="32"></label>
  <button type="submit">${h(m.signIn)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
  );
}

/**
 * The page the invitation link opens. The e-mail's link carries the token in `?token=`, which the
 * server writes into the field, so the link works without a script; a link with the token in its
 * `#fragment` (the operator API's `accept_url`, never sent to a server) is filled by the script.
 */
export function acceptInvitationPage(lang: Language, token?: string): string {
  const m = t(lang);
  return page(
    { lang, title: m.acceptInvitation, path: '/dashboard/accept-invitation' },
    `<form data-api="/dashboard/api/v1/invitations/accept" data-failed="${h(m.acceptInvitation)}" data-done="${h(m.accepted)}">
  <label>${h(m.token)} <input name="token" required autocomplete="off" value="${h(token ?? '')}"></label>
  <label>${h(m.newPassword)} <input name="password" type="password" autocomplete="new-password" minlength="12" required></label>
  <button type="submit">${h(m.accept)}</button>
  <p data-out aria-live="polite"></p>
</form>
<p><a href="${h(href('/dashboard/sign-in', lang))}">${h(m.signIn)}</a></p>`,
  );
}

export interface TeamView {
  users: { id: string; email: string; role: string; created_at: string }[];
  /** Null when the caller may not read it (not an owner). */
  audit: { action: string; target: string | null; user_email: string | null; created_at: string }[] | null;
  /** Null when the caller may not manage the team (not an owner). */
  invitations: { email: string; role: string; invited_by: string | null; expires_at: string }[] | null;
}

const ROLES = ['viewer', 'developer', 'owner'] as const;

/** An owner's controls of one member: the role (the page reloads to show it) and removal. */
function memberControls(frame: PageFrame, user: TeamView['users'][number]): string {
  const m = t(frame.lang);
  const team = h(href('/dashboard/team', frame.lang));
  const options = ROLES.map(
    (role) =>
      `<option value="${role}"${role === user.role ? ' selected' : ''}>${h(roleLabel(frame.lang, role))}</option>`,
  ).join('');
  return `<form class="inline" data-api="/dashboard/api/v1/users/${h(user.id)}/role" data-next="${team}" data-failed="${h(m.failedAction)}" data-done="">
  <select name="role" aria-label="${h(fill(m.roleOf, { email: user.email }))}">${options}</select>
  <button type="submit" aria-label="${h(fill(m.changeRoleOf, { email: user.email }))}">${h(m.changeRole)}</button>
  <p data-out aria-live="polite"></p>
</form>
${
  // Removing yourself would end your own access: never offered on your own row. Removal of
  // another opens its confirmation page (a GET: nothing changes until that page's button).
  user.email === frame.session?.email
    ? ''
    : `<form class="inline" method="get" action="/dashboard/team/${h(user.id)}/remove">
  <input type="hidden" name="lang" value="${frame.lang}">
  <button type="submit" class="destructive" aria-label="${h(fill(m.removeUser, { email: user.email }))}">${h(m.remove)}</button>
</form>`
}`;
}

function invitationsSection(frame: PageFrame, invitations: NonNullable<TeamView['invitations']>): string {
  const m = t(frame.lang);
  if (!invitations.length)
    return `<h2>${h(m.pendingInvitations)}</h2>${emptyState(m.noInvitations, m.emptyInvitationsHelp)}`;
  const rows = invitations
    .map(
      (
        i,
      ) => `<tr><td>${h(i.email)}</td><td>${h(roleLabel(frame.lang, i.role))}</td><td>${h(i.invited_by ?? m.operator)}</td><td>${timeTag(frame, i.expires_at)}</td><td><form class="inline" data-api="/dashboard/api/v1/invitations/revoke" data-next="${h(href('/dashboard/team', frame.lang))}" data-failed="${h(m.failedAction)}" data-done="${h(m.invitationRevoked)}">
  <input type="hidden" name="email" value="${h(i.email)}">
  <button type="submit" class="danger" aria-label="${h(fill(m.revokeInvitationOf, { email: i.email }))}">${h(m.revoke)}</button>
  <p data-out aria-live="polite"></p>
</form></td></tr>`,
    )
    .join('');
  return `<h2>${h(m.pendingInvitations)}</h2><table><caption>${h(m.pendingInvitations)}</caption><thead><tr><th scope="col">${h(m.email)}</th><th scope="col">${h(m.role)}</th><th scope="col">${h(m.invitedBy)}</th><th scope="col">${h(m.expires)}</th><th scope="col"><span class="visually-hidden">${h(m.revoke)}</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function teamPage(
  frame: PageFrame,
  view: TeamView,
  /** The member just removed from the confirmation page (post, redirect, get). */
  removedEmail?: string,
): string {
  const m = t(frame.lang);
  const removed =
    removedEmail && !view.users.some((u) => u.email === removedEmail)
      ? `<p role="status">${h(fill(m.memberRemoved, { email: removedEmail }))}</p>`
      : '';
  const owner = view.audit !== null;
  const users = view.users
    .map(
      (u) =>
        `<tr><td>${h(u.email)}</td><td>${h(roleLabel(frame.lang, u.role))}</td><td>${timeTag(frame, u.created_at)}</td>${owner ? `<td>${memberControls(frame, u)}</td>` : ''}</tr>`,
    )
    .join('');
  const invite = owner
    ? `<h2>${h(m.invite)}</h2>
<form class="inline" data-api="/dashboard/api/v1/invitations" data-failed="${h(m.invite)}" data-done="${h(m.invited)}" data-show="token">
  <label>${h(m.email)} <input name="email" type="email" required></label>
  <label>${h(m.role)} <select name="role">${ROLES.map((role) => `<option value="${role}">${h(roleLabel(frame.lang, role))}</option>`).join('')}</select></label>
  <button type="submit">${h(m.invite)}</button>
  <p data-out aria-live="polite"></p>
</form>`
    : '';
  const invitations = view.invitations ? invitationsSection(frame, view.invitations) : '';
  const audit = view.audit
    ? `<h2>${h(m.auditLog)}</h2><table><caption>${h(m.auditLog)}</caption><thead><tr><th scope="col">${h(m.when)}</th><th scope="col">${h(m.who)}</th><th scope="col">${h(m.action)}</th><th scope="col">${h(m.target)}</th></tr></thead><tbody>${view.audit
        .map(
          (e) =>
            `<tr><td>${timeTag(frame, e.created_at)}</td><td>${h(e.user_email ?? m.operator)}</td><td>${h(e.action)}</td><td>${h(e.target)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const controlsHeader = owner
    ? `<th scope="col"><span class="visually-hidden">${h(t(frame.lang).changeRole)}</span></th>`
    : '';
  return page(
    frame,
    `${removed}<h2>${h(m.users)}</h2><table><caption>${h(m.users)}</caption><thead><tr><th scope="col">${h(m.email)}</th><th scope="col">${h(m.role)}</th><th scope="col">${h(m.created)}</th>${controlsHeader}</tr></thead><tbody>${users}</tbody></table>${invite}${invitations}${audit}`,
  );
}
