import type { apiKeyResource } from '../../../app/resources/operator.ts';

type ApiKey = ReturnType<typeof apiKeyResource>;

import { fill, keyKindLabel, type Language, t } from '../../../i18n/i18n.ts';
import { countOf } from '../../kit/format.ts';
import { csrfField } from '../../kit/forms.ts';
import { h, href, type PageFrame, page } from '../../kit/layout.ts';
import { statusBadge } from '../../kit/status-badge.ts';
import { timeTag } from '../../kit/time.ts';

/** How long a rolled key may keep working: the keys page's choices, and what its confirmation accepts. */
export const GRACE_CHOICES = [0, 3600, 86_400, 7 * 86_400];

/** A grace period in words: "no time (stop it now)", "1 hour", "7 days" (plurals by Intl.PluralRules). */
export function graceLabel(lang: Language, seconds: number): string {
  const m = t(lang);
  if (seconds === 0) return m.rollNow;
  return seconds < 86_400
    ? countOf(lang, seconds / 3600, m.hourOne, m.hours)
    : countOf(lang, seconds / 86_400, m.dayOne, m.days);
}

/** A key's permissions as people read them: none listed (or `*`) is every permission. */
function permissionsOf(frame: PageFrame, key: ApiKey): string {
  const listed = key.permissions ?? [];
  if (listed.length === 0 || listed.includes('*')) return t(frame.lang).allPermissions;
  return listed.join(', ');
}

function keyState(frame: PageFrame, key: ApiKey): string {
  const m = t(frame.lang);
  if (key.revoked_at) return `${statusBadge('revoked', frame.lang)} ${timeTag(frame, key.revoked_at)}`;
  if (key.expires_at)
    return `${statusBadge('expiring', frame.lang)} ${h(m.expires)} ${timeTag(frame, key.expires_at)}`;
  return statusBadge('active', frame.lang);
}

export function apiKeysPage(
  frame: PageFrame,
  keys: ApiKey[],
  canChange: boolean,
  outcome: {
    /** The key just revoked from its confirmation page (post, redirect, get). */
    revokedId?: string | undefined;
    /** The key just rolled from its confirmation page: it now expires, or is revoked. */
    rolledId?: string | undefined;
    /** The key just created by the form below (post, redirect, get). */
    createdId?: string | undefined;
    /** The created key itself, on the first page after the post only (a reload no longer has it). */
    createdKey?: string | undefined;
  } = {},
): string {
  const { revokedId, rolledId, createdId, createdKey } = outcome;
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const rows = keys
    .map((key) => {
      const open = !key.revoked_at;
      const actions =
        canChange && open
          ? `<form class="inline" method="get" action="/dashboard/${mode}/api-keys/${h(key.id)}/roll">
  <input type="hidden" name="lang" value="${frame.lang}">
  <label>${h(m.rollExpiry)} <select name="expires_in_seconds">${GRACE_CHOICES.map(
    (s) => `<option value="${s}"${s === 86_400 ? ' selected' : ''}>${h(graceLabel(frame.lang, s))}</option>`,
  ).join('')}</select></label>
  <button type="submit" class="secondary" aria-label="${h(`${m.roll} ${key.key_hint}`)}">${h(m.roll)}</button>
</form>
<form method="get" action="/dashboard/${mode}/api-keys/${h(key.id)}/revoke">
  <input type="hidden" name="lang" value="${frame.lang}">
  <button type="submit" class="destructive" aria-label="${h(`${m.revoke} ${key.key_hint}`)}">${h(m.revoke)}</button>
</form>`
          : '';
      return `<tr><td><code>${h(key.key_hint)}</code></td><td>${h(keyKindLabel(frame.lang, key.kind))}</td><td>${h(permissionsOf(frame, key))}</td><td>${timeTag(frame, key.created_at)}</td><td>${keyState(frame, key)}</td><td>${actions}</td></tr>`;
    })
    .join('\n');
  const create = canChange
    ? `<h2>${h(m.createKey)}</h2>
<form class="inline" method="post" action="${h(href(`/dashboard/${mode}/api-keys`, frame.lang))}">
  ${csrfField(frame)}
  <label>${h(m.kind)} <select name="kind"><option value="secret">${h(m.kindSecret)}</option><option value="publishable">${h(m.kindPublishable)}</option></select></label>
  <button type="submit">${h(m.createKey)}</button>
</form>`
    : '';
  const revoked = keys.find((k) => k.id === revokedId && k.revoked_at);
  const rolled = keys.find((k) => k.id === rolledId);
  const created = keys.find((k) => k.id === createdId);
  const notice = created
    ? `<p role="status">${h(fill(m.noticeKeyCreated, { hint: created.key_hint }))}${
        createdKey ? ` ${h(m.keyShownOnce)} <code class="secret">${h(createdKey)}</code>` : ''
      }</p>`
    : revoked
      ? `<p role="status">${h(m.keyRevoked)} <code>${h(revoked.key_hint)}</code></p>`
      : rolled
        ? `<p role="status">${h(m.keyRolledTitle)}: <code>${h(rolled.key_hint)}</code> ${keyState(frame, rolled)}</p>`
        : '';
  return page(
    frame,
    `${notice}<table><caption>${h(m.apiKeys)}</caption><thead><tr><th scope="col">${h(m.hint)}</th><th scope="col">${h(m.kind)}</th><th scope="col">${h(m.permissions)}</th><th scope="col">${h(m.created_)}</th><th scope="col">${h(m.status)}</th><th scope="col"><span class="skip-visually">${h(m.roll)} / ${h(m.revoke)}</span></th></tr></thead><tbody>${rows}</tbody></table>
${create}`,
  );
}
