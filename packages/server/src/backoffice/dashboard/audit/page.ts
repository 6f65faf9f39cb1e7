import type { searchAudit } from '../../../app/back-office-users/audit.ts';
import { t } from '../../../i18n/i18n.ts';
import { emptyState, h, type PageFrame, page, pager } from '../../kit/layout.ts';
import { timeTag } from '../../kit/time.ts';

export function auditForbiddenPage(frame: PageFrame): string {
  return page(frame, `<p role="alert">${h(t(frame.lang).auditOwnersOnly)}</p>`);
}

export interface AuditFilterValues {
  action?: string | undefined;
  user_email?: string | undefined;
  created_gte?: string | undefined;
  created_lt?: string | undefined;
  /** Rows per page, kept in the URL with the filters. */
  limit?: string | undefined;
}

/**
 * The filter form of an audit log (the merchant's and the console's): action, who (by e-mail),
 * UTC days as date inputs; the rows per page ride along, so a filtered page keeps its size.
 */
export function auditFilterForm(
  frame: Pick<PageFrame, 'lang'>,
  path: string,
  filters: Record<string, string | undefined>,
  who: { name: string; label: string },
): string {
  const m = t(frame.lang);
  const field = (name: string, label: string, type = 'text') =>
    `<label>${h(label)} <input name="${name}" type="${type}" value="${h(filters[name] ?? '')}"></label>`;
  return `<form class="inline" method="get" action="${h(path)}" role="search" aria-label="${h(m.auditFilter)}">
  <input type="hidden" name="lang" value="${frame.lang}">
  ${filters.limit ? `<input type="hidden" name="limit" value="${h(filters.limit)}">` : ''}
  ${field('action', m.action)}
  ${field(who.name, who.label, 'email')}
  ${field('created_gte', m.auditFrom, 'date')}
  ${field('created_lt', m.auditBefore, 'date')}
  <button type="submit">${h(m.auditFilter)}</button>
</form>`;
}

/** An audit log's newer and older links, each keeping the filters and the rows per page. */
export function auditPager(
  frame: PageFrame,
  path: string,
  filters: Record<string, string | undefined>,
  cursors: { previous_cursor: string | null; next_cursor: string | null },
): string {
  const m = t(frame.lang);
  return pager(
    frame,
    path,
    { ...filters },
    { previous: cursors.previous_cursor, next: cursors.next_cursor },
    { previous: m.auditNewer, next: m.auditOlder },
  );
}

export function auditPage(
  frame: PageFrame,
  filters: AuditFilterValues,
  result: Awaited<ReturnType<typeof searchAudit>>,
  /** A filter the service refused, with the field named. */
  problem?: string,
): string {
  const m = t(frame.lang);
  const form = auditFilterForm(
    frame,
    '/dashboard/audit',
    { ...filters },
    {
      name: 'user_email',
      label: m.auditUser,
    },
  );
  const rows = result.data
    .map(
      (e) =>
        `<tr data-id="${h(e.id)}"><td>${timeTag(frame, e.created_at)}</td><td>${h(e.user_email ?? m.operator)}</td><td>${h(e.action)}</td><td>${h(e.target ?? '')}</td><td>${e.livemode === null ? '' : h(e.livemode ? m.liveData : m.testData)}</td></tr>`,
    )
    .join('');
  const table = result.data.length
    ? `<table><caption>${h(m.auditLog)}</caption><thead><tr><th scope="col">${h(m.when)}</th><th scope="col">${h(m.who)}</th><th scope="col">${h(m.action)}</th><th scope="col">${h(m.target)}</th><th scope="col">${h(m.auditMode)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.auditNone, m.emptyAuditHelp);
  const pages = auditPager(frame, '/dashboard/audit', { ...filters }, result);
  const alert = problem ? `<p role="alert">${h(problem)}</p>` : '';
  // The CSV of exactly this filtered set: the same filters, every page of them.
  const exported = Object.entries({
    action: filters.action,
    user_email: filters.user_email,
    created_gte: filters.created_gte,
    created_lt: filters.created_lt,
  }).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  const csv = `/dashboard/api/v1/audit-log/export.csv?${new URLSearchParams(exported).toString()}`;
  const download = `<p><a href="${h(csv)}" download>${h(m.exportCsv)}</a></p>`;
  return page(frame, `<p>${h(m.auditHelp)}</p>${alert}${form}${download}${table}${pages}`);
}
