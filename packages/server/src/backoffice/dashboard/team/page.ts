import { fill, roleLabel, t } from '../../../i18n/i18n.ts';
import { csrfField } from '../../kit/forms.ts';
import { emptyState, h, type PageFrame, page } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';
import { timeTag } from '../../kit/time.ts';

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
  const options = ROLES.map(
    (role) =>
      `<option value="${role}"${role === user.role ? ' selected' : ''}>${h(roleLabel(frame.lang, role))}</option>`,
  ).join('');
  return `<form class="inline" method="post" action="${h(href(`/dashboard/team/${user.id}/role`, frame.lang))}">
  ${csrfField(frame)}
  <select name="role" aria-label="${h(fill(m.roleOf, { email: user.email }))}">${options}</select>
  <button type="submit" aria-label="${h(fill(m.changeRoleOf, { email: user.email }))}">${h(m.changeRole)}</button>
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
      ) => `<tr><td>${h(i.email)}</td><td>${h(roleLabel(frame.lang, i.role))}</td><td>${h(i.invited_by ?? m.operator)}</td><td>${timeTag(frame, i.expires_at)}</td><td><form class="inline" method="get" action="/dashboard/team/invitations/${h(encodeURIComponent(i.email))}/revoke">
  <input type="hidden" name="lang" value="${frame.lang}">
  <button type="submit" class="destructive" aria-label="${h(fill(m.revokeInvitationOf, { email: i.email }))}">${h(m.revoke)}</button>
</form></td></tr>`,
    )
    .join('');
  return `<h2>${h(m.pendingInvitations)}</h2><table><caption>${h(m.pendingInvitations)}</caption><thead><tr><th scope="col">${h(m.email)}</th><th scope="col">${h(m.role)}</th><th scope="col">${h(m.invitedBy)}</th><th scope="col">${h(m.expires)}</th><th scope="col"><span class="visually-hidden">${h(m.revoke)}</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * What the Team page reports: the last action's outcome (post, redirect, get: the redirect's query
 * names whom it concerned, and the page says it only as the state it reads confirms it), or a
 * refused form post with what was typed.
 */
export interface TeamOutcome {
  removed?: string;
  invited?: string;
  roleChanged?: string;
  invitationRevoked?: string;
  problem?: string;
  typed?: { email: string; role: string };
}

function outcomeLine(frame: PageFrame, view: TeamView, outcome: TeamOutcome): string {
  const m = t(frame.lang);
  if (outcome.problem) return `<p role="alert">${h(`${m.failedAction}: ${outcome.problem}`)}</p>`;
  const status = (text: string) => `<p role="status">${h(text)}</p>`;
  const member = view.users.find((u) => u.email === outcome.roleChanged);
  if (member)
    return status(
      fill(m.noticeRoleChanged, { email: member.email, role: roleLabel(frame.lang, member.role) }),
    );
  if (outcome.removed && !view.users.some((u) => u.email === outcome.removed))
    return status(fill(m.memberRemoved, { email: outcome.removed }));
  if (outcome.invited && view.invitations?.some((i) => i.email === outcome.invited))
    return status(fill(m.noticeInvited, { email: outcome.invited }));
  const revoked = outcome.invitationRevoked;
  if (revoked && view.invitations && !view.invitations.some((i) => i.email === revoked))
    return status(fill(m.noticeInvitationRevoked, { email: revoked }));
  return '';
}

export function teamPage(frame: PageFrame, view: TeamView, outcome: TeamOutcome = {}): string {
  const m = t(frame.lang);
  const removed = outcomeLine(frame, view, outcome);
  const typed = outcome.typed;
  const owner = view.audit !== null;
  const users = view.users
    .map(
      (u) =>
        `<tr><td>${h(u.email)}</td><td>${h(roleLabel(frame.lang, u.role))}</td><td>${timeTag(frame, u.created_at)}</td>${owner ? `<td>${memberControls(frame, u)}</td>` : ''}</tr>`,
    )
    .join('');
  const invite = owner
    ? `<h2 id="invite">${h(m.invite)}</h2>
<form class="inline" method="post" action="${h(href('/dashboard/team/invitations', frame.lang))}">
  ${csrfField(frame)}
  <label>${h(m.email)} <input name="email" type="email" autocomplete="off" required value="${h(typed?.email ?? '')}"></label>
  <label>${h(m.role)} <select name="role">${ROLES.map((role) => `<option value="${role}"${role === (typed?.role ?? 'viewer') ? ' selected' : ''}>${h(roleLabel(frame.lang, role))}</option>`).join('')}</select></label>
  <button type="submit">${h(m.invite)}</button>
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
