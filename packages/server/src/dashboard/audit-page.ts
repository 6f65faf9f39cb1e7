import type { searchAudit } from '../app/dashboard/audit.ts';
import { t } from './i18n.ts';
import { emptyState, h, type PageFrame, page } from './layout.ts';
import { href } from './navigation.ts';
import { timeTag } from './time.ts';

export function auditForbiddenPage(frame: PageFrame): string {
  return page(frame, `<p role="alert">${h(t(frame.lang).auditOwnersOnly)}</p>`);
}

export interface AuditFilterValues {
  action?: string;
  user_email?: string;
  created_gte?: string;
  created_lt?: string;
}

export function auditPage(
  frame: PageFrame,
  filters: AuditFilterValues,
  result: Awaited<ReturnType<typeof searchAudit>>,
  paged: boolean,
  /** A filter the service refused, with the field named. */
  problem?: string,
): string {
  const m = t(frame.lang);
  const field = (name: keyof AuditFilterValues, label: string, type = 'text') =>
    `<label>${h(label)} <input name="${name}" type="${type}" value="${h(filters[name] ?? '')}"></label>`;
  const form = `<form class="inline" method="get" action="/dashboard/audit" role="search" aria-label="${h(m.auditFilter)}">
  <input type="hidden" name="lang" value="${frame.lang}">
  ${field('action', m.action)}
  ${field('user_email', m.auditUser, 'email')}
  ${field('created_gte', m.auditFrom, 'date')}
  ${field('created_lt', m.auditBefore, 'date')}
  <button type="submit">${h(m.auditFilter)}</button>
</form>`;
  const rows = result.data
    .map(
      (e) =>
        `<tr><td>${timeTag(frame, e.created_at)}</td><td>${h(e.user_email ?? m.operator)}</td><td>${h(e.action)}</td><td>${h(e.target ?? '')}</td><td>${e.livemode === null ? '' : h(e.livemode ? m.liveData : m.testData)}</td></tr>`,
    )
    .join('');
  const table = result.data.length
    ? `<table><caption>${h(m.auditLog)}</caption><thead><tr><th scope="col">${h(m.when)}</th><th scope="col">${h(m.who)}</th><th scope="col">${h(m.action)}</th><th scope="col">${h(m.target)}</th><th scope="col">${h(m.auditMode)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.auditNone, m.emptyAuditHelp);
  const links = [
    paged
      ? `<a href="${h(href('/dashboard/audit', frame.lang, { ...filters }))}">${h(m.auditNewest)}</a>`
      : '',
    result.next_cursor
      ? `<a rel="next" href="${h(href('/dashboard/audit', frame.lang, { ...filters, cursor: result.next_cursor }))}">${h(m.auditOlder)}</a>`
      : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const alert = problem ? `<p role="alert">${h(problem)}</p>` : '';
  return page(frame, `<p>${h(m.auditHelp)}</p>${alert}${form}${table}${links ? `<p>${links}</p>` : ''}`);
}
