import type { ReconciliationReport } from '../../../app/gateways/reconcile-with-gateway.ts';
import type { DifferenceKind } from '../../../app/gateways/reconciliation-differences.ts';
import { fill, type Language, type Messages, t } from '../../../i18n/i18n.ts';
import { formatMoney } from '../../kit/format.ts';
import { emptyState, h, type PageFrame, page } from '../../kit/layout.ts';
import { statusBadge } from '../../kit/status-badge.ts';

const kindLabels: Record<DifferenceKind, keyof Messages> = {
  unknown_to_paygate: 'reconciliationUnknownToPaygate',
  missing_at_gateway: 'reconciliationMissingAtGateway',
  status_differs: 'reconciliationStatusDiffers',
  amount_differs: 'reconciliationAmountDiffers',
};

/**
 * The differences as a table, each row naming the record on both sides; `withMerchant` adds the
 * merchant's column (the operator's console reads every merchant's).
 */
export function differencesTable(
  lang: Language,
  differences: ReconciliationReport['differences'],
  withMerchant = false,
): string {
  const m = t(lang);
  const view = (status: string | null) => h(status ?? m.reconciliationNoRecord);
  const rows = differences
    .map((d) => {
      const record = d.paygateId ?? d.gatewayReference ?? d.idempotencyKey;
      const merchant = withMerchant
        ? `<td>${d.merchantId ? `<code>${h(d.merchantId)}</code>` : ''}</td>`
        : '';
      return `<tr><td>${h(m[kindLabels[d.kind]])}</td><td>${h(d.object === 'charge' ? m.reconciliationCharge : m.reconciliationRefund)} <code>${h(record)}</code></td>${merchant}<td>${view(d.paygateStatus)}</td><td>${view(d.gatewayStatus)}</td><td>${h(formatMoney(d.amountMinor, d.currency, lang))}</td><td>${h(d.gatewayId)}</td></tr>`;
    })
    .join('');
  const merchantHead = withMerchant ? `<th scope="col">${h(m.operatorMerchant)}</th>` : '';
  return `<table><caption>${h(m.reconciliationDifferences)}</caption><thead><tr><th scope="col">${h(m.kind)}</th><th scope="col">${h(m.reconciliationRecord)}</th>${merchantHead}<th scope="col">${h(m.reconciliationPaygateView)}</th><th scope="col">${h(m.reconciliationGatewayView)}</th><th scope="col">${h(m.amount)}</th><th scope="col">${h(m.gateway)}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The merchant's differences with its gateways' books in one mode, read-only: what the operator
 * API's reconciliation shows, for this merchant only. Each row names the record on both sides.
 */
export function reconciliationPage(frame: PageFrame, report: ReconciliationReport, days: number): string {
  const m = t(frame.lang);
  // A gateway account whose books could not be read is named with its cause; the others still count.
  const unreadable = report.unreadable
    .map((u) => {
      const gateway = u.gatewayAccountId ? `${u.gatewayId} (${u.gatewayAccountId})` : u.gatewayId;
      return `<p role="alert">${statusBadge('unreadable', frame.lang)} ${h(fill(m.reconciliationUnreadable, { gateway, reason: u.reason }))}</p>`;
    })
    .join('');
  const table = report.differences.length
    ? differencesTable(frame.lang, report.differences)
    : report.unreadable.length
      ? ''
      : emptyState(fill(m.reconciliationAgree, { days: String(days) }), m.reconciliationAgreeHelp);
  return page(frame, `<p>${h(fill(m.reconciliationHelp, { days: String(days) }))}</p>${unreadable}${table}`);
}
