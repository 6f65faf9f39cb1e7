import type { Page } from 'playwright-core';
import { knownStatuses, statusLabel } from '../../src/backoffice/kit/status-badge.ts';
import { en } from '../../src/i18n/messages/en.ts';
import { es } from '../../src/i18n/messages/es.ts';

// What the Spanish walks look for: English a Spanish page must not show, and the text a reader sees.

/** Texts of the English catalogue (and of the status badges) a Spanish page must never show. */
export function englishOnlyTexts(): string[] {
  const fragments = new Set<string>();
  const add = (english: string, spanish: string) => {
    if (english === spanish) return;
    // A message with {placeholders} is looked for by its fixed parts; short parts say too little.
    for (const part of english.split(/\{\w+\}/)) {
      const text = part
        .trim()
        .replace(/[.:,;(]+$/, '')
        .trim();
      if (text.length >= 4 && /[A-Za-z]{3}/.test(text) && !spanish.includes(text)) fragments.add(text);
    }
  };
  for (const [key, english] of Object.entries(en)) add(english, es[key as keyof typeof es]);
  for (const status of knownStatuses()) add(statusLabel(status, 'en'), statusLabel(status, 'es'));
  return [...fragments];
}

/** The text a reader sees on the page, without what is not language: ids and code, the link to English. */
export async function visibleText(page: Page): Promise<string> {
  return page.locator('body').evaluate((body) => {
    const copy = body.cloneNode(true) as typeof body;
    for (const skip of copy.querySelectorAll('code, pre, script, [lang="en"], .visually-hidden-id'))
      skip.remove();
    const labels = [...copy.querySelectorAll('[aria-label], [title], [placeholder]')].map((e) =>
      ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a) ?? '').join('\n'),
    );
    // E-mail addresses are the users' own (owner@…), and event types and audit actions
    // (payment_intent.created) are names of the API, not the page's language.
    return `${copy.textContent ?? ''}\n${labels.join('\n')}`
      .replace(/[^\s<>()"']+@[^\s<>()"']+/g, ' ')
      .replace(/[a-z_]+(\.[a-z_]+)+/g, ' ');
  });
}
