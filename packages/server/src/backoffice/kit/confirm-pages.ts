import { t } from '../../i18n/i18n.ts';
import { h, type PageFrame, page } from './layout.ts';

/** What a confirmation page asks: the one sentence of what will happen, and the form that does it. */
export interface Confirmation {
  /** Exactly what will happen, with the amounts and ids it will happen to. */
  statement: string;
  /** Further facts the person should weigh (what stays, what stops working). */
  details?: string[];
  /** The POST target (with its `?lang=`). */
  action: string;
  /** Hidden fields the action needs besides the CSRF token. */
  fields?: Record<string, string>;
  /** Extra form controls (a choice the action takes), already rendered. */
  controls?: string;
  button: string;
  /** Money moves or an integration breaks: the button says so by its look. */
  destructive: boolean;
  cancelHref: string;
  /** A refusal of the action, shown above the form (the form stays, to try again). */
  problem?: string;
}

/**
 * A GOV.UK-style confirmation: a statement, a plain POST form (works without a script; the CSRF
 * token travels as a field) and a way back that changes nothing.
 */
export function confirmationPage(frame: PageFrame, confirmation: Confirmation): string {
  const m = t(frame.lang);
  const hidden = Object.entries({
    ...confirmation.fields,
    csrf_token: frame.session?.csrfToken ?? frame.operator?.csrfToken ?? '',
  })
    .map(([name, value]) => `<input type="hidden" name="${h(name)}" value="${h(value)}">`)
    .join('\n  ');
  const details = confirmation.details?.length
    ? `<ul>${confirmation.details.map((d) => `<li>${h(d)}</li>`).join('')}</ul>`
    : '';
  const problem = confirmation.problem ? `<p role="alert">${h(confirmation.problem)}</p>` : '';
  return page(
    frame,
    `${problem}<p class="statement"><strong>${h(confirmation.statement)}</strong></p>
${details}
<form method="post" action="${h(confirmation.action)}" class="confirm">
  ${hidden}
  ${confirmation.controls ?? ''}
  <button type="submit"${confirmation.destructive ? ' class="destructive"' : ''}>${h(confirmation.button)}</button>
  <a href="${h(confirmation.cancelHref)}">${h(m.cancel)}</a>
</form>`,
  );
}

/** The action cannot be confirmed as asked (a bad amount, nothing left to do): why, and the way back. */
export function confirmationProblem(
  frame: PageFrame,
  problem: string,
  backHref: string,
  /** The way back's words (default: back to payments, the refund's confirmation). */
  backLabel: string = t(frame.lang).back,
): string {
  return page(frame, `<p role="alert">${h(problem)}</p><p><a href="${h(backHref)}">${h(backLabel)}</a></p>`);
}

/**
 * A secret shown once, as the answer of the POST that made or revealed it: never in a URL, never
 * stored for the page, not cached (`no-store`); leaving the page hides it.
 */
export function secretPage(
  frame: PageFrame,
  shown: { statement: string; label: string; secret: string; backHref: string; backLabel: string },
): string {
  return page(
    frame,
    `<p role="status">${h(shown.statement)}</p>
<dl><dt>${h(shown.label)}</dt><dd><code class="secret">${h(shown.secret)}</code></dd></dl>
<p><a href="${h(shown.backHref)}">${h(shown.backLabel)}</a></p>`,
  );
}
