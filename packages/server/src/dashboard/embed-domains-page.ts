import type { embedDomainResource } from '../app/resources/operator.ts';
import { t } from './i18n.ts';
import { emptyState, h, type PageFrame, page } from './layout.ts';
import { timeTag } from './time.ts';

type Domain = ReturnType<typeof embedDomainResource>;

export function embedDomainsPage(frame: PageFrame, domains: Domain[], canChange: boolean): string {
  const m = t(frame.lang);
  const api = '/dashboard/api/v1/embed-domains';
  const rows = domains
    .map((d) => {
      const remove = canChange
        ? `<form data-api="${api}/remove" data-failed="${h(m.failedAction)}" data-done="${h(m.removed)}"><input type="hidden" name="origin" value="${h(d.origin)}"><button type="submit" class="danger" aria-label="${h(`${m.remove} ${d.origin}`)}">${h(m.remove)}</button><span data-out aria-live="polite"></span></form>`
        : '';
      return `<tr><td><code>${h(d.origin)}</code></td><td>${timeTag(frame, d.created_at)}</td><td>${remove}</td></tr>`;
    })
    .join('');
  const table = domains.length
    ? `<table><caption>${h(m.embedDomains)}</caption><thead><tr><th scope="col">${h(m.origin)}</th><th scope="col">${h(m.created)}</th><th scope="col"><span class="skip-visually">${h(m.remove)}</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.noDomains, m.emptyDomainsHelp);
  const add = canChange
    ? `<h2>${h(m.addDomain)}</h2>
<form class="inline" data-api="${api}" data-failed="${h(m.failedAction)}" data-done="${h(m.domainAdded)}">
  <label>${h(m.origin)} <input name="origin" type="url" required placeholder="https://shop.example"></label>
  <button type="submit">${h(m.addDomain)}</button>
  <p data-out aria-live="polite"></p>
</form>`
    : '';
  return page(frame, `<p>${h(m.embedHelp)}</p>${table}${add}`);
}
