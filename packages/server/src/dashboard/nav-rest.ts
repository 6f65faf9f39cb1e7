import escapeHtml from 'escape-html';
import type { Language } from './i18n.ts';
import { rt } from './i18n-rest.ts';

export { rt };

/** The navigation entries of the API keys, embedding domains and clients pages. */
export function restNavItems(mode: 'test' | 'live', lang: Language): string {
  const r = rt(lang);
  return [
    [`/dashboard/${mode}/api-keys?lang=${lang}`, r.apiKeys],
    // Embedding domains and the second factor serve both modes; their pages keep the mode.
    [`/dashboard/embed-domains?mode=${mode}&lang=${lang}`, r.embedDomains],
    [`/dashboard/${mode}/clients?lang=${lang}`, r.clients],
    [`/dashboard/account?mode=${mode}&lang=${lang}`, r.secondFactor],
    // The audit log (owners only; dash3).
    [`/dashboard/audit?lang=${lang}`, lang === 'es' ? 'Auditoría' : 'Audit log'],
  ]
    .map(([url, label]) => `<li><a href="${escapeHtml(url ?? '')}">${escapeHtml(label ?? '')}</a></li>`)
    .join('\n    ');
}
