import { h, type PageFrame } from './layout.ts';

/** The session's CSRF token as a plain form's hidden field (a form cannot send the header). */
export function csrfField(frame: PageFrame): string {
  return `<input type="hidden" name="csrf_token" value="${h(frame.session?.csrfToken ?? frame.operator?.csrfToken ?? '')}">`;
}
