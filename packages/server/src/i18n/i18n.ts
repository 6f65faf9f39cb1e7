import { en, type Messages } from './messages/en.ts';
import { es } from './messages/es.ts';

/** The back office speaks English and Spanish; every string a page shows is in messages/<lang>.ts. */
export const languages = ['en', 'es'] as const;
export type Language = (typeof languages)[number];
export type { Messages };

const catalogues: Record<Language, Messages> = { en, es };

/** The one message catalogue of a language. */
export function t(lang: Language): Messages {
  return catalogues[lang];
}

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

/** `?lang=` first, then the browser's Accept-Language, then English. */
export function pickLanguage(query: unknown, acceptLanguage: string | undefined): Language {
  const asked = typeof query === 'object' && query !== null ? (query as { lang?: unknown }).lang : undefined;
  if (asked === 'es' || asked === 'en') return asked;
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('es') ? 'es' : 'en';
}

/** A dashboard role in words ("owner", "propietario"); the raw value stays in the forms. */
export function roleLabel(lang: Language, role: string): string {
  const m = t(lang);
  return role === 'owner'
    ? m.roleOwner
    : role === 'developer'
      ? m.roleDeveloper
      : role === 'viewer'
        ? m.roleViewer
        : role;
}

/** An API key's kind in words ("secret", "secreta"). */
export function keyKindLabel(lang: Language, kind: string): string {
  const m = t(lang);
  return kind === 'secret' ? m.kindSecret : kind === 'publishable' ? m.kindPublishable : kind;
}
