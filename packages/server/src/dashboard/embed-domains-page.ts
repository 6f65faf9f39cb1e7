import type { embedDomainResource } from '../app/resources/operator.ts';
import { rt } from './i18n-rest.ts';
import { h, type PageFrame, page, t } from './layout.ts';

type Domain = ReturnType<typeof embedDomainResource>;

export function embedDomainsPage(frame: PageFrame, domains: Domain[], canChange: boolean): string {
  const m = t(frame.lang);
  const r = rt(frame.lang);
  const api = '/dashboard/api/v1/embed-domains';
  const rows = domains
    .map((d) => {
      const remove = canChange
        ? `<form data-api="${api}/remove" data-failed="${h(r.failedAction)}" data-done="${h(r.removed)}"><input type="hidden" name="origin" value="${h(d.origin)}"><button type="submit" class="secondary" aria-label="${h(`${r.remove} ${d.origin}`)}">${h(r.remove)}</button><span data-out aria-live="polite"></span></form>`
        : '';
      return `<tr><td><code>${h(d.origin)}</code></td><td>${h(d.created_at)}</td><td>${remove}</td></tr>`;
    })
    .join('');
  const table = domains.length
    ? `<table><caption>${h(r.embedDomains)}</caption><thead><tr><th scope="col">${h(r.origin)}</th><th scope="col">${h(m.created)}</th><th scope="col"><span class="skip-visually">${h(r.remove)}</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(r.noDomains)}</p>`;
  const add = canChange
    ? `<h2>${h(r.addDomain)}</h2>
<form class="inline" data-api="${api}" data-failed="${h(r.failedAction)}" data-done="${h(r.domainAdded)}">
  <label>${h(r.origin)} <input name="origin" type="url" required placeholder="https://shop.example"></label>
  <button type="submit">${h(r.addDomain)}</button>
  <p data-out aria-live="polite"></p>
</form>`
    : '';
  return page(frame, `<p>${h(r.embedHelp)}</p>${table}${add}`);
}
