import type { apiKeyResource } from '../app/resources/operator.ts';

type ApiKey = ReturnType<typeof apiKeyResource>;

import { fill, t } from './i18n.ts';
import { h, type PageFrame, page } from './layout.ts';

const GRACE_CHOICES = [0, 3600, 86_400, 7 * 86_400];

function graceLabel(frame: PageFrame, seconds: number): string {
  const m = t(frame.lang);
  if (seconds === 0) return m.rollNow;
  return seconds < 86_400 ? fill(m.hours, { n: seconds / 3600 }) : fill(m.days, { n: seconds / 86_400 });
}

function keyState(frame: PageFrame, key: ApiKey): string {
  const m = t(frame.lang);
  if (key.revoked_at) return `${m.revoked} ${key.revoked_at}`;
  if (key.expires_at) return `${m.expires} ${key.expires_at}`;
  return m.active;
}

export function apiKeysPage(frame: PageFrame, keys: ApiKey[], canChange: boolean): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const base = `/dashboard/api/v1/${mode}/api-keys`;
  const rows = keys
    .map((key) => {
      const open = !key.revoked_at;
      const actions =
        canChange && open
          ? `<form class="inline" data-api="${base}/${h(key.id)}/roll" data-failed="${h(m.failedAction)}" data-done="${h(m.keyShownOnce)}" data-show="key">
  <label>${h(m.rollExpiry)} <select name="expires_in_seconds" data-number>${GRACE_CHOICES.map(
    (s) => `<option value="${s}"${s === 86_400 ? ' selected' : ''}>${h(graceLabel(frame, s))}</option>`,
  ).join('')}</select></label>
  <button type="submit" aria-label="${h(`${m.roll} ${key.key_hint}`)}">${h(m.roll)}</button><span data-out aria-live="polite"></span>
</form>
<form data-api="${base}/${h(key.id)}/revoke" data-failed="${h(m.failedAction)}" data-done="${h(m.keyRevoked)}">
  <button type="submit" class="secondary" aria-label="${h(`${m.revoke} ${key.key_hint}`)}">${h(m.revoke)}</button><span data-out aria-live="polite"></span>
</form>`
          : '';
      return `<tr><td><code>${h(key.key_hint)}</code></td><td>${h(key.kind)}</td><td>${h(key.permissions?.join(', ') ?? '*')}</td><td>${h(key.created_at)}</td><td>${h(keyState(frame, key))}</td><td>${actions}</td></tr>`;
    })
    .join('\n');
  const create = canChange
    ? `<h2>${h(m.createKey)}</h2>
<form class="inline" data-api="${base}" data-failed="${h(m.failedAction)}" data-done="${h(m.keyShownOnce)}" data-show="key">
  <label>${h(m.kind)} <select name="kind"><option value="secret">secret</option><option value="publishable">publishable</option></select></label>
  <button type="submit">${h(m.createKey)}</button>
  <p data-out aria-live="polite"></p>
</form>`
    : '';
  return page(
    frame,
    `<table><caption>${h(m.apiKeys)}</caption><thead><tr><th scope="col">${h(m.hint)}</th><th scope="col">${h(m.kind)}</th><th scope="col">Permissions</th><th scope="col">${h(m.created_)}</th><th scope="col">${h(m.status)}</th><th scope="col"><span class="skip-visually">${h(m.roll)} / ${h(m.revoke)}</span></th></tr></thead><tbody>${rows}</tbody></table>
${create}`,
  );
}
