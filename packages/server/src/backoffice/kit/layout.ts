import escapeHtml from 'escape-html';
import type { DashboardRole } from '../../domain/dashboard-roles.ts';
import { type Language, roleLabel, t } from '../../i18n/i18n.ts';
import { href, navigationItems, operatorNavigationItems } from './navigation.ts';

export { href };

/** Only our own script and stylesheet; no inline code, no other origin, never framed. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Escapes text for HTML content and attribute values. */
export const h = (value: unknown): string => escapeHtml(String(value ?? ''));

export interface PageFrame {
  lang: Language;
  title: string;
  /** The path of this page without the query, to build the language and mode switches. */
  path: string;
  /** Present on signed-in pages. */
  session?: { email: string; role: DashboardRole; csrfToken: string };
  mode?: 'test' | 'live';
  /** Present on the operator's console's signed-in pages (never with `session`). */
  operator?: { email: string; csrfToken: string };
  /** Webhook endpoints of this merchant and mode that fail (or were disabled failing): the banner. */
  attention?: { id: string; url: string; status: string }[];
  /** The request's "now" (from the service clock): times on the page are relative to it. */
  now?: Date;
  /** The reader's IANA time zone: the exact time on hover is in it (UTC when unset). */
  timeZone?: string;
}

function languageSwitch(frame: PageFrame): string {
  const other: Language = frame.lang === 'en' ? 'es' : 'en';
  return `<a href="${h(href(frame.path, other))}" lang="${other}" hreflang="${other}">${h(t(other).languageName)}</a>`;
}

/**
 * The mode switch: both modes as links, the current one marked. A page of one mode leads to the
 * same page of the other (a detail page to its list), a page of both modes to the other mode's
 * overview.
 */
function modeSwitch(frame: PageFrame, mode: 'test' | 'live'): string {
  const m = t(frame.lang);
  const samePage = /^\/dashboard\/(?:test|live)\/([^/]+)/.exec(frame.path)?.[1] ?? 'overview';
  const link = (target: 'test' | 'live') => {
    const current = target === mode;
    const url = current ? frame.path : `/dashboard/${target}/${samePage}`;
    return `<a href="${h(href(url, frame.lang))}"${current ? ' aria-current="true"' : ''}>${h(target === 'live' ? m.liveData : m.testData)}</a>`;
  };
  return `<nav class="mode-switch" aria-label="${h(m.modeSwitch)}">${link('test')}${link('live')}</nav>`;
}

/** The console's header: its name, the language, the operator and a sign-out that needs no script. */
function operatorHeader(frame: PageFrame, operator: { email: string; csrfToken: string }): string {
  const m = t(frame.lang);
  return `<header class="operator">
  <a class="brand" href="${h(href('/operator/merchants', frame.lang))}">${h(m.operatorConsole)}</a>
  <div class="account">
  ${languageSwitch(frame)}
  <span class="who">${h(operator.email)}</span>
  <form method="post" action="${h(href('/operator/sign-out', frame.lang))}">
    <input type="hidden" name="csrf_token" value="${h(operator.csrfToken)}">
    <button type="submit" class="secondary">${h(m.signOut)}</button>
  </form>
  </div>
</header>`;
}

function header(frame: PageFrame): string {
  const m = t(frame.lang);
  if (frame.operator) return operatorHeader(frame, frame.operator);
  if (!frame.session)
    return `<header><span class="brand">${h(m.title)}</span>${languageSwitch(frame)}</header>`;
  const mode = frame.mode ?? 'test';
  return `<header class="mode-${mode}">
  <a class="brand" href="${h(href(`/dashboard/${mode}/overview`, frame.lang))}">${h(m.title)}</a>
  ${modeSwitch(frame, mode)}
  <div class="account">
  ${languageSwitch(frame)}
  <span class="who">${h(frame.session.email)} (${h(roleLabel(frame.lang, frame.session.role))})</span>
  <form method="post" action="${h(href('/dashboard/sign-out', frame.lang))}">
    <input type="hidden" name="csrf_token" value="${h(frame.session.csrfToken)}">
    <button type="submit" class="secondary">${h(m.signOut)}</button>
  </form>
  <form method="post" action="${h(href('/dashboard/sign-out-everywhere', frame.lang))}">
    <input type="hidden" name="csrf_token" value="${h(frame.session.csrfToken)}">
    <button type="submit" class="secondary">${h(m.signOutEverywhere)}</button>
  </form>
  </div>
</header>
${
  mode === 'test'
    ? `<p class="test-banner" role="note"><span class="mode">${h(m.viewing)}: ${h(m.testData)}</span>. ${h(m.testBanner)}</p>`
    : `<p class="live-banner" role="note"><span class="mode">${h(m.viewing)}: ${h(m.liveData)}</span>. ${h(m.liveBanner)}</p>`
}`;
}

/**
 * A list's previous and next links (keyset pages, domain/keyset.ts): each keeps the list's filters
 * (`query`) and adds its cursor, so a page's URL says exactly what it shows.
 */
export function pager(
  frame: PageFrame,
  path: string,
  query: Record<string, string | undefined>,
  cursors: { previous: string | null; next: string | null },
  labels: { previous?: string; next?: string } = {},
): string {
  if (!cursors.previous && !cursors.next) return '';
  const m = t(frame.lang);
  const link = (rel: 'prev' | 'next', cursor: Record<string, string>, label: string) =>
    `<a rel="${rel}" href="${h(href(path, frame.lang, { ...query, ...cursor }))}">${h(label)}</a>`;
  const links = [
    cursors.previous ? link('prev', { before: cursors.previous }, labels.previous ?? m.previous) : '',
    cursors.next ? link('next', { cursor: cursors.next }, labels.next ?? m.next) : '',
  ].filter(Boolean);
  return `<nav class="pager" aria-label="${h(m.pages)}">${links.join(' ')}</nav>`;
}

/** An empty list: what is missing, and what to do about it. */
export function emptyState(title: string, help: string): string {
  return `<div class="empty"><strong>${h(title)}</strong><p>${h(help)}</p></div>`;
}

/** Shown on every signed-in page while an endpoint of the mode fails; links its page. */
function attentionBanner(frame: PageFrame): string {
  if (!frame.attention?.length) return '';
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const items = frame.attention
    .map(
      (e) =>
        `<li>${h(e.status === 'disabled' ? m.bannerDisabled : m.bannerFailing)} <a href="${h(href(`/dashboard/${mode}/webhooks/${e.id}`, frame.lang))}">${h(e.url)}</a></li>`,
    )
    .join('');
  return `<section class="banner" aria-label="${h(m.attention)}"><ul>${items}</ul><p>${h(m.bannerHelp)}</p></section>`;
}

/**
 * Every table in a region that scrolls sideways on a narrow screen, so the page itself never
 * does. The region is focusable (a keyboard user can scroll it) and named by the table's caption.
 */
function scrollableTables(main: string): string {
  return main.replace(/<table>([\s\S]*?)<\/table>/g, (table, inner: string) => {
    const caption = /<caption>([\s\S]*?)<\/caption>/.exec(inner)?.[1]?.replace(/<[^>]*>/g, '') ?? '';
    const named = caption ? ` role="region" aria-label="${caption}"` : '';
    return `<div class="table-wrap" tabindex="0"${named}>${table}</div>`;
  });
}

/** The whole document around a page's main content. */
export function page(frame: PageFrame, main: string): string {
  const m = t(frame.lang);
  const csrfToken = frame.session?.csrfToken ?? frame.operator?.csrfToken;
  const csrf = csrfToken ? `<meta name="csrf-token" content="${h(csrfToken)}">` : '';
  const items = frame.session
    ? navigationItems(frame.mode ?? 'test', frame.lang, frame.path)
    : frame.operator
      ? operatorNavigationItems(frame.lang, frame.path)
      : null;
  const body = items
    ? `<div class="shell">
<nav class="sidenav" aria-label="${h(m.sections)}"><ul>
    ${items}
</ul></nav>
<main id="main">
${attentionBanner(frame)}
<h1>${h(frame.title)}</h1>
${scrollableTables(main)}
</main>
</div>`
    : `<main id="main">
<h1>${h(frame.title)}</h1>
${main}
</main>`;
  return `<!doctype html>
<html lang="${frame.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${csrf}
<title>${h(frame.title)} · ${h(m.title)}</title>
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>
<body class="${frame.session ? `signed-in mode-${frame.mode ?? 'test'}` : frame.operator ? 'signed-in operator' : 'public'}" data-copy="${h(m.copy)}" data-copied="${h(m.copied)}">
<a class="skip" href="#main">${h(m.skip)}</a>
${header(frame)}
${body}
</body>
</html>`;
}
