import escapeHtml from 'escape-html';
import { isTimeZone } from '../../domain/time-zone.ts';
import type { Language } from '../../i18n/i18n.ts';

export { isTimeZone };

/**
 * Times as people read them: relative text ("3 minutes ago", "hace 3 minutos") from
 * `Intl.RelativeTimeFormat`, whose plural forms are the language's own, and the exact time in the
 * reader's time zone on hover (`<time datetime title>`). "Now" is always the request's clock
 * (`ctx.clock`), handed in, never read here, so pages and tests agree on it.
 */

/** The zone every page falls back to when the user has none (and the reading of a bad one). */
export const DEFAULT_TIME_ZONE = 'UTC';

/** Every time zone the settings page offers (the runtime's list, `UTC` included). */
export function timeZones(): string[] {
  const listed = Intl.supportedValuesOf('timeZone');
  return listed.includes('UTC') ? listed : ['UTC', ...listed];
}

const exactFormats = new Map<string, Intl.DateTimeFormat>();

/** The exact time in `timeZone`, to the second, with the zone's name: "26 Nov 2026, 11:02:46 CET". */
export function exactTime(at: Date, lang: Language, timeZone: string = DEFAULT_TIME_ZONE): string {
  const zone = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const key = `${lang}:${zone}`;
  let format = exactFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
      timeZone: zone,
    });
    exactFormats.set(key, format);
  }
  return format.format(at);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * `at` relative to `now`, in the largest whole unit: "3 minutes ago", "in 2 days", "hace 1 hora".
 * Under 45 seconds either way it is "now" ("ahora").
 */
export function relativeTime(at: Date, now: Date, lang: Language): string {
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  if (Math.abs(seconds) < 45) return format.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** What a page needs to write a time: its language, the reader's zone and the request's now. */
export interface TimeContext {
  lang: Language;
  timeZone?: string | undefined;
  now?: Date | undefined;
}

/**
 * A time for a page: `<time datetime="ISO" title="exact time in the reader's zone">relative</time>`;
 * without a `now` (a page outside a session) the exact time is the text. Null reads "–".
 */
export function timeTag(context: TimeContext, at: Date | string | null | undefined): string {
  if (at === null || at === undefined || at === '') return '–';
  const date = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(date.getTime())) return escapeHtml(String(at));
  const exact = exactTime(date, context.lang, context.timeZone);
  const text = context.now ? relativeTime(date, context.now, context.lang) : exact;
  return `<time datetime="${escapeHtml(date.toISOString())}" title="${escapeHtml(exact)}">${escapeHtml(text)}</time>`;
}
