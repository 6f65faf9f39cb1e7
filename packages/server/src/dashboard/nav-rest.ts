import escapeHtml from 'escape-html';
import type { Language } from './i18n.ts';
import { rt } from './i18n-rest.ts';

export { rt };

/** The navigation entries of the API keys, embedding domains and clients pages. */
export function restNavItems(mode: 'test' | 'live', lang: Language): string {
  const r = rt(lang);
  return [
    [`/dashboard/${mode}/api-keys`, r.apiKeys],
    ['/dashboard/embed-domains', r.embedDomains],
    [`/dashboard/${mode}/clients`, r.clients],
  ]
    .map(
      ([path, label]) =>
        `<li><a href="${escapeHtml(`${path}?lang=${lang}`)}">${escapeHtml(label ?? '')}</a></li>`,
    )
    .join('\n    ');
}
