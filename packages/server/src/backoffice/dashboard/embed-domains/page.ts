import type { embedDomainResource } from '../../../app/resources/operator.ts';
import { t } from '../../../i18n/i18n.ts';
import { emptyState, h, type PageFrame, page } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';
import { timeTag } from '../../kit/time.ts';

type Domain = ReturnType<typeof embedDomainResource>;

/** What the page says after a form: a status line, or the add form refused with what was typed. */
export interface EmbedDomainsOutcome {
  notice?: string | undefined;
  refused?: { problem: string; origin: string } | undefined;
}

/**
 * The merchant's embedding domains. Adding is a plain form post (redirect, then this page with a
 * status line); Remove opens a confirmation, since the checkout stops working on that site.
 */
export function embedDomainsPage(
  frame: PageFrame,
  domains: Domain[],
  canChange: boolean,
  outcome: EmbedDomainsOutcome = {},
): string {
  const m = t(frame.lang);
  const rows = domains
    .map((d) => {
      const remove = canChange
        ? `<form class="inline" method="get" action="/dashboard/embed-domains/remove"><input type="hidden" name="lang" value="${frame.lang}"><input type="hidden" name="origin" value="${h(d.origin)}"><button type="submit" class="destructive" aria-label="${h(`${m.remove} ${d.origin}`)}">${h(m.remove)}</button></form>`
        : '';
      return `<tr><td><code>${h(d.origin)}</code></td><td>${timeTag(frame, d.created_at)}</td><td>${remove}</td></tr>`;
    })
    .join('');
  const table = domains.length
    ? `<table><caption>${h(m.embedDomains)}</caption><thead><tr><th scope="col">${h(m.origin)}</th><th scope="col">${h(m.created)}</th><th scope="col"><span class="skip-visually">${h(m.remove)}</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.noDomains, m.emptyDomainsHelp);
  const refused = outcome.refused;
  const add = canChange
    ? `<h2>${h(m.addDomain)}</h2>
<form class="inline" method="post" action="${h(href('/dashboard/embed-domains', frame.lang))}">
  <input type="hidden" name="csrf_token" value="${h(frame.session?.csrfToken ?? '')}">${refused ? `\n  <p role="alert">${h(refused.problem)}</p>` : ''}
  <label>${h(m.origin)} <input name="origin" type="url" required value="${h(refused?.origin ?? '')}" placeholder="https://shop.example"></label>
  <button type="submit">${h(m.addDomain)}</button>
</form>`
    : '';
  const notice = outcome.notice ? `<p role="status">${h(outcome.notice)}</p>` : '';
  return page(frame, `${notice}<p>${h(m.embedHelp)}</p>${table}${add}`);
}
