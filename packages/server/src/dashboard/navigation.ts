import escapeHtml from 'escape-html';
import { type Language, t } from './i18n.ts';

/** A link that keeps the page's language. */
export function href(path: string, lang: Language, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  params.set('lang', lang);
  return `${path}?${params.toString()}`;
}

/** The entries of the signed-in header's navigation, every page of the back office, in order. */
export function navigationItems(mode: 'test' | 'live', lang: Language): string {
  const m = t(lang);
  return [
    [href(`/dashboard/${mode}/overview`, lang), m.overview],
    [href(`/dashboard/${mode}/payments`, lang), m.payments],
    [href(`/dashboard/${mode}/webhooks`, lang), m.webhooks],
    [href('/dashboard/team', lang), m.team],
    [href(`/dashboard/${mode}/api-keys`, lang), m.apiKeys],
    // Embedding domains and the second factor serve both modes; their pages keep the mode.
    [href('/dashboard/embed-domains', lang, { mode }), m.embedDomains],
    [href(`/dashboard/${mode}/clients`, lang), m.clients],
    [href('/dashboard/account', lang, { mode }), m.secondFactor],
    // The audit log (owners only).
    [href('/dashboard/audit', lang), m.auditNav],
  ]
    .map(([url, label]) => `<li><a href="${escapeHtml(url ?? '')}">${escapeHtml(label ?? '')}</a></li>`)
    .join('\n    ');
}
