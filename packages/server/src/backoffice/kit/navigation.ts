import escapeHtml from 'escape-html';
import { type Language, type Messages, t } from '../../i18n/i18n.ts';

/** A link that keeps the page's language. */
export function href(path: string, lang: Language, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  params.set('lang', lang);
  return `${path}?${params.toString()}`;
}

/** One entry of the side navigation: a page of the back office. */
export interface NavigationEntry {
  /** The page's path (without the query). */
  path: string;
  /** Extra query of the link (the pages of both modes keep the mode they were opened from). */
  query: Record<string, string>;
  label: keyof Messages;
}

/**
 * Every page of the merchant's back office, in the navigation's order. The one list: the side
 * navigation draws it, and the accessibility and Lighthouse tests walk it, so a page added here
 * is checked without touching them.
 */
export function navigationEntries(mode: 'test' | 'live'): NavigationEntry[] {
  return [
    { path: `/dashboard/${mode}/overview`, query: {}, label: 'overview' },
    { path: `/dashboard/${mode}/payments`, query: {}, label: 'payments' },
    { path: `/dashboard/${mode}/webhooks`, query: {}, label: 'webhooks' },
    { path: `/dashboard/${mode}/events`, query: {}, label: 'events' },
    { path: `/dashboard/${mode}/reconciliation`, query: {}, label: 'reconciliation' },
    { path: '/dashboard/team', query: {}, label: 'team' },
    { path: `/dashboard/${mode}/api-keys`, query: {}, label: 'apiKeys' },
    // Embedding domains and the second factor serve both modes; their pages keep the mode.
    { path: '/dashboard/embed-domains', query: { mode }, label: 'embedDomains' },
    { path: `/dashboard/${mode}/clients`, query: {}, label: 'clients' },
    { path: '/dashboard/account', query: { mode }, label: 'secondFactor' },
    // The user's own settings (the time zone of exact times): both modes, it keeps the mode.
    { path: '/dashboard/settings', query: { mode }, label: 'settingsNav' },
    // The audit log (owners only).
    { path: '/dashboard/audit', query: {}, label: 'auditNav' },
  ];
}

/**
 * Every page of the operator's console, in its navigation's order (the one list, as for the
 * merchant's back office: the accessibility walk reads it too).
 */
export function operatorNavigationEntries(): NavigationEntry[] {
  return [
    { path: '/operator/merchants', query: {}, label: 'operatorMerchants' },
    { path: '/operator/reconciliation', query: {}, label: 'operatorReconciliation' },
    { path: '/operator/deprecations', query: {}, label: 'operatorDeprecations' },
    { path: '/operator/audit', query: {}, label: 'operatorAudit' },
    { path: '/operator/account', query: {}, label: 'secondFactor' },
  ];
}

function drawEntries(entries: NavigationEntry[], lang: Language, currentPath: string): string {
  const m = t(lang);
  const current = entries
    .filter((e) => currentPath === e.path || currentPath.startsWith(`${e.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return entries
    .map(
      (e) =>
        `<li><a href="${escapeHtml(href(e.path, lang, e.query))}"${e === current ? ' aria-current="page"' : ''}>${escapeHtml(m[e.label])}</a></li>`,
    )
    .join('\n    ');
}

/** The console's side navigation, the current page marked. */
export function operatorNavigationItems(lang: Language, currentPath = ''): string {
  return drawEntries(operatorNavigationEntries(), lang, currentPath);
}

/**
 * The side navigation's items; the entry whose page `currentPath` is (or lies under, for a
 * detail page) is marked as the current page.
 */
export function navigationItems(mode: 'test' | 'live', lang: Language, currentPath = ''): string {
  return drawEntries(navigationEntries(mode), lang, currentPath);
}
