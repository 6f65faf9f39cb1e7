import type { operatorAuditLog } from '../../../app/operators/operator-accounts.ts';
import { t } from '../../../i18n/i18n.ts';
import { auditFilterForm, auditPager } from '../../dashboard/audit/page.ts';
import { emptyState, h } from '../../kit/layout.ts';
import { consoleFrame, consolePage, type OperatorView, when } from '../pages.ts';

/** The filters of the console's audit log, as the page's form and its URL carry them. */
export interface OperatorAuditFilterValues {
  action?: string | undefined;
  operator_email?: string | undefined;
  created_gte?: string | undefined;
  created_lt?: string | undefined;
  limit?: string | undefined;
}

/**
 * What the operators did, newest first: who, what, to what, when; filtered by action, operator
 * and UTC day, read in keyset pages both ways whose links keep the filters.
 */
export function operatorAuditPage(
  view: OperatorView,
  filters: OperatorAuditFilterValues,
  result: Pick<Awaited<ReturnType<typeof operatorAuditLog>>, 'entries' | 'next_cursor' | 'previous_cursor'>,
): string {
  const { lang } = view;
  const m = t(lang);
  const frame = consoleFrame(view, '/operator/audit', m.operatorAudit);
  const form = auditFilterForm(
    frame,
    '/operator/audit',
    { ...filters },
    {
      name: 'operator_email',
      label: m.operatorWho,
    },
  );
  const rows = result.entries
    .map(
      (e) =>
        `<tr data-id="${h(e.id)}"><td>${when(e.created_at, lang)}</td><td>${h(e.email)}</td><td><code>${h(e.action)}</code></td><td>${e.target ? `<code>${h(e.target)}</code>` : ''}</td></tr>`,
    )
    .join('');
  const table = result.entries.length
    ? `<table><thead><tr><th scope="col">${h(m.operatorWhen)}</th><th scope="col">${h(m.operatorWho)}</th><th scope="col">${h(m.operatorAction)}</th><th scope="col">${h(m.operatorTarget)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.operatorAuditEmpty, m.operatorAuditHelp);
  const pages = auditPager(frame, '/operator/audit', { ...filters }, result);
  return consolePage(
    view,
    '/operator/audit',
    m.operatorAudit,
    `<p>${h(m.operatorAuditHelp)}</p>${form}${table}${pages}`,
  );
}
