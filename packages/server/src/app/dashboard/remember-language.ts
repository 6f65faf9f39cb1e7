import { setUserLanguage } from '../../storage/repositories/dashboard-users.ts';
import type { AppContext } from '../context.ts';

/**
 * Keeps the language a user works in (the language of the page they opened), so that mail to
 * them (deprecation notices) is written in it. Written only when it changes: a page view is a
 * read, not a write.
 */
export async function rememberLanguage(
  ctx: AppContext,
  user: { id: string; language?: 'en' | 'es' | null },
  language: 'en' | 'es',
): Promise<void> {
  if (user.language === language) return;
  await setUserLanguage(ctx.db, user.id, language);
}
