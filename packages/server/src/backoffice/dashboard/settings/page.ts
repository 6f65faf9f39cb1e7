import { fill, t } from '../../../i18n/i18n.ts';
import { h, type PageFrame, page } from '../../kit/layout.ts';
import { DEFAULT_TIME_ZONE, exactTime, timeZones } from '../../kit/time.ts';

/**
 * The user's own settings: the time zone exact times are shown in. A plain form POST (works
 * without a script; the CSRF token is a field), then back here showing the new zone.
 */
export function settingsPage(frame: PageFrame, saved: boolean): string {
  const m = t(frame.lang);
  const zone = frame.timeZone ?? DEFAULT_TIME_ZONE;
  const now = frame.now ? exactTime(frame.now, frame.lang, zone) : '';
  const options = timeZones()
    .map((z) => `<option value="${h(z)}"${z === zone ? ' selected' : ''}>${h(z)}</option>`)
    .join('');
  const notice = saved ? `<p role="status">${h(fill(m.timeZoneSaved, { zone }))}</p>` : '';
  const mode = frame.mode ?? 'test';
  return page(
    frame,
    `${notice}<h2>${h(m.timeZone)}</h2>
<p>${h(fill(m.timeZoneCurrent, { zone, time: now }))}</p>
<p>${h(m.timeZoneHelp)} ${h(m.timeZoneDefault)}</p>
<form method="post" action="/dashboard/settings/time-zone?mode=${mode}&amp;lang=${frame.lang}" class="inline">
  <input type="hidden" name="csrf_token" value="${h(frame.session?.csrfToken ?? '')}">
  <label>${h(m.timeZone)} <select name="time_zone" autocomplete="off">${options}</select></label>
  <button type="submit">${h(m.timeZoneSave)}</button>
</form>`,
  );
}
