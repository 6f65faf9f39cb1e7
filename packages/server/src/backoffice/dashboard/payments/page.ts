import { type PaymentIntent, paymentIntentStatuses } from '@paygate/contract';
import type { PaymentDetailResource } from '../../../app/resources/dashboard.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { fill, t } from '../../../i18n/i18n.ts';
import { formatMoney } from '../../kit/format.ts';
import { emptyState, h, type PageFrame, page, pager } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';
import { disputeReasonLabel, statusBadge, statusLabel } from '../../kit/status-badge.ts';
import { exactTime, timeTag } from '../../kit/time.ts';
import { authorizationAmounts, captureDueSoon, refundableAmount } from './amounts.ts';

/** The search form's fields as typed (strings; the route turns them into the API's query). */
export type PaymentsPageFilter = Partial<
  Record<
    | 'id'
    | 'status'
    | 'amount_min'
    | 'amount_max'
    | 'currency'
    | 'from'
    | 'to'
    | 'metadata_key'
    | 'metadata_value'
    | 'limit',
    string
  >
>;

/** The status filter's choices: each status in words (the badge's), its raw value sent. */
function options(
  values: readonly string[],
  chosen: string | undefined,
  anyLabel: string,
  frame: PageFrame,
): string {
  return [`<option value="">${h(anyLabel)}</option>`]
    .concat(
      values.map(
        (v) =>
          `<option value="${h(v)}"${v === chosen ? ' selected' : ''}>${h(statusLabel(v, frame.lang))}</option>`,
      ),
    )
    .join('');
}

function searchForm(frame: PageFrame, filter: PaymentsPageFilter): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const input = (name: keyof PaymentsPageFilter, label: string, extra = '') =>
    `<label>${h(label)} <input name="${name}" value="${h(filter[name])}"${extra}></label>`;
  return `<form class="inline" method="get" action="/dashboard/${mode}/payments" role="search">
  <input type="hidden" name="lang" value="${frame.lang}">${filter.limit ? `\n  <input type="hidden" name="limit" value="${h(filter.limit)}">` : ''}
  ${input('id', m.paymentId, ' autocomplete="off"')}
  <label>${h(m.status)} <select name="status">${options(paymentIntentStatuses, filter.status, m.any, frame)}</select></label>
  ${input('amount_min', m.amountFrom, ' inputmode="decimal"')}
  ${input('amount_max', m.amountTo, ' inputmode="decimal"')}
  ${input('currency', m.currency, ' size="4" maxlength="3"')}
  ${input('from', m.from, ' type="date"')}
  ${input('to', m.to, ' type="date"')}
  ${input('metadata_key', m.metadataKey)}
  ${input('metadata_value', m.metadataValue)}
  <button type="submit">${h(m.search)}</button>
</form>`;
}

export function paymentsSearchPage(
  frame: PageFrame,
  filter: PaymentsPageFilter,
  result:
    | {
        intents: PaymentIntent[];
        nextCursor: string | null;
        previousCursor: string | null;
        /** The API's query of these filters (amounts in minor units): the CSV link's, so it exports this set. */
        exportQuery: Record<string, string>;
      }
    | { error: string },
): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const form = searchForm(frame, filter);
  if ('error' in result) return page(frame, `${form}<p role="alert">${h(result.error)}</p>`);
  const operate = frame.session ? roleAllows(frame.session.role, 'operate') : false;
  const csv = `/dashboard/api/v1/${mode}/payments/export.csv?${new URLSearchParams(result.exportQuery).toString()}`;
  const rows = result.intents
    .map(
      (pi) => `<tr>
  <td><a href="${h(href(`/dashboard/${mode}/payments/${pi.id}`, frame.lang))}"><code>${h(pi.id)}</code></a></td>
  <td>${statusBadge(pi.status, frame.lang)}</td><td>${h(formatMoney(pi.amount_minor, pi.currency, frame.lang))}</td>
  <td>${h(formatMoney(pi.amount_refunded_minor, pi.currency, frame.lang))}</td><td>${timeTag(frame, pi.created_at)}</td>
  <td>${pi.status === 'REQUIRES_CAPTURE' ? `${deadlineText(frame, pi)}${operate ? rowActions(frame, pi) : ''}` : ''}</td></tr>`,
    )
    .join('\n');
  const table = result.intents.length
    ? `<table><caption>${h(m.payments)}</caption><thead><tr><th scope="col">${h(m.payment)}</th><th scope="col">${h(m.status)}</th><th scope="col">${h(m.amount)}</th><th scope="col">${h(m.refundedAmount)}</th><th scope="col">${h(m.created)}</th><th scope="col">${h(m.captureBefore)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.noPayments, m.emptyPaymentsHelp);
  const pages = pager(frame, `/dashboard/${mode}/payments`, filter, {
    previous: result.previousCursor,
    next: result.nextCursor,
  });
  const toCapture = href(`/dashboard/${mode}/payments`, frame.lang, { status: 'REQUIRES_CAPTURE' });
  const links = `<p><a href="${h(toCapture)}">${h(m.toCaptureFilter)}</a> · <a href="${h(csv)}" download>${h(m.exportCsv)}</a></p>`;
  return page(frame, `${form}${links}${table}${pages}`);
}

function list<T>(items: T[], empty: string, render: (items: T[]) => string): string {
  return items.length ? render(items) : `<p>${h(empty)}</p>`;
}

export function paymentDetailPage(
  frame: PageFrame,
  detail: PaymentDetailResource,
  canRefund: boolean,
  /** What was just done from this page (post, redirect, get), announced at the top. */
  done: { refundId?: string; captured?: boolean; voided?: boolean } = {},
): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const intent = detail.payment_intent;
  const refundable = refundableAmount(intent);
  const money = (minor: number) => formatMoney(minor, intent.currency, frame.lang);
  // The form only opens the confirmation (a GET): nothing moves until that page's button.
  const refundForm =
    canRefund && intent.status === 'SUCCEEDED' && refundable > 0
      ? `<h2>${h(m.refund)}</h2>
<form method="get" action="/dashboard/${mode}/payments/${h(intent.id)}/refund" class="inline">
  <input type="hidden" name="lang" value="${frame.lang}">
  <label>${h(m.refundAmount)} <input name="amount" inputmode="decimal" autocomplete="off" size="12"></label>
  <button type="submit">${h(m.reviewRefund)}</button>
  <button type="submit" name="rest" value="1" class="secondary">${h(fill(m.refundRest, { amount: money(refundable) }))}</button>
</form>`
      : '';
  const metadata = Object.entries(intent.metadata)
    .map(([key, value]) => `<li><code>${h(key)}</code>: ${h(value)}</li>`)
    .join('');
  const timeline = `<h2>${h(m.timeline)}</h2><ol class="timeline">${detail.timeline
    .map(
      (step) =>
        `<li>${statusBadge(step.status, frame.lang)} ${timeTag(frame, step.at)}${step.event_id ? ` (<code>${h(step.event_id)}</code>)` : ''}</li>`,
    )
    .join('')}</ol>`;
  const attempts = `<h2>${h(m.gatewayAttempts)}</h2>${list(
    detail.attempts,
    m.noAttempts,
    (items) =>
      `<table><caption>${h(m.gatewayAttempts)}</caption><thead><tr><th scope="col">#</th><th scope="col">${h(m.gateway)}</th><th scope="col">${h(m.outcome)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${items
        .map(
          (a) =>
            `<tr><td>${a.attempt_number}</td><td>${h(a.gateway_id)}${a.gateway_reference ? ` <code>${h(a.gateway_reference)}</code>` : ''}</td><td>${statusBadge(a.status, frame.lang)}${a.failure_code ? ` (${h(a.failure_code)})` : ''}</td><td>${timeTag(frame, a.created_at)}</td></tr>`,
        )
        .join('')}</tbody></table>`,
  )}`;
  const refunds = `<h2>${h(m.refundsOfPayment)}</h2>${list(
    detail.refunds,
    m.noRefunds,
    (items) =>
      `<table><caption>${h(m.refundsOfPayment)}</caption><thead><tr><th scope="col">ID</th><th scope="col">${h(m.status)}</th><th scope="col">${h(m.amount)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${items
        .map(
          (refund) =>
            `<tr><td><code>${h(refund.id)}</code></td><td>${statusBadge(refund.status, frame.lang)}</td><td>${h(formatMoney(refund.amount_minor, refund.currency, frame.lang))}</td><td>${timeTag(frame, refund.created_at)}</td></tr>`,
        )
        .join('')}</tbody></table>`,
  )}`;
  const disputes = `<h2>${h(m.disputesOfPayment)}</h2>${list(
    detail.disputes,
    m.noDisputes,
    (items) =>
      `<table><caption>${h(m.disputesOfPayment)}</caption><thead><tr><th scope="col">ID</th><th scope="col">${h(m.status)}</th><th scope="col">${h(m.amount)}</th><th scope="col">${h(m.disputeReason)}</th><th scope="col">${h(m.evidenceDueBy)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${items
        .map(
          (dispute) =>
            `<tr><td><code>${h(dispute.id)}</code></td><td>${statusBadge(dispute.status, frame.lang)}</td><td>${h(formatMoney(dispute.amount_minor, dispute.currency, frame.lang))}</td><td>${h(disputeReasonLabel(dispute.reason, frame.lang))}</td><td>${timeTag(frame, dispute.evidence_due_by)}</td><td>${timeTag(frame, dispute.created_at)}</td></tr>`,
        )
        .join('')}</tbody></table>`,
  )}`;
  const events = `<h2>${h(m.eventsAndDeliveries)}</h2>${list(
    detail.events,
    m.noEvents,
    (items) =>
      `<table><caption>${h(m.eventsAndDeliveries)}</caption><thead><tr><th scope="col">${h(m.event)}</th><th scope="col">${h(m.type)}</th><th scope="col">${h(m.created)}</th><th scope="col">${h(m.deliveries)}</th></tr></thead><tbody>${items
        .map(
          (event) =>
            `<tr><td><code>${h(event.id)}</code></td><td>${h(event.type)}</td><td>${timeTag(frame, event.created_at)}</td><td>${
              event.deliveries.length
                ? `<ul>${event.deliveries.map((d) => `<li><code>${h(d.endpoint_url)}</code>: ${statusBadge(d.status, frame.lang)} (${d.attempt_count})</li>`).join('')}</ul>`
                : h(m.noEventDeliveries)
            }</td></tr>`,
        )
        .join('')}</tbody></table>`,
  )}`;
  const made = detail.refunds.find((r) => r.id === done.refundId);
  const notice = made
    ? `<p role="status">${h(fill(m.refundCreated, { id: made.id, amount: money(made.amount_minor), status: made.status }))}</p>`
    : done.captured || done.voided
      ? `<p role="status">${h(authorizationNotice(intent, money, frame))}</p>`
      : '';
  return page(
    frame,
    `${notice}<dl>
  <dt>ID</dt><dd><code>${h(intent.id)}</code></dd>
  <dt>${h(m.status)}</dt><dd>${statusBadge(intent.status, frame.lang)}</dd>
  <dt>${h(m.amount)}</dt><dd>${h(formatMoney(intent.amount_minor, intent.currency, frame.lang))}</dd>
${authorizationFacts(frame, intent)}  <dt>${h(m.refunded)}</dt><dd>${h(formatMoney(intent.amount_refunded_minor, intent.currency, frame.lang))}</dd>
  <dt>${h(m.gateway)}</dt><dd>${h(intent.gateway_id)}</dd>
  <dt>${h(m.created)}</dt><dd>${timeTag(frame, intent.created_at)}</dd>
  <dt>${h(m.metadata)}</dt><dd>${metadata ? `<ul>${metadata}</ul>` : '–'}</dd>
</dl>
${canRefund ? authorizationControls(frame, intent) : ''}${refundForm}
${timeline}
${attempts}
${refunds}
${disputes}
${events}
<p><a href="${h(href(`/dashboard/${mode}/payments`, frame.lang))}">${h(m.back)}</a></p>`,
  );
}

function authorizationFacts(frame: PageFrame, intent: PaymentIntent): string {
  const amounts = authorizationAmounts(intent);
  if (!amounts) return '';
  const m = t(frame.lang);
  const money = (minor: number) => h(formatMoney(minor, intent.currency, frame.lang));
  const deadline =
    intent.status === 'REQUIRES_CAPTURE' && intent.capture_before
      ? `  <dt>${h(m.captureBefore)}</dt><dd>${deadlineText(frame, intent)}</dd>\n`
      : '';
  return `  <dt>${h(m.authorised)}</dt><dd>${money(amounts.authorised)}</dd>
  <dt>${h(m.captured)}</dt><dd>${money(amounts.captured)}</dd>
  <dt>${h(m.released)}</dt><dd>${money(amounts.released)}</dd>
${deadline}`;
}

/**
 * A to-capture intent's deadline: relative ("in 6 days"), the exact time in the reader's zone,
 * and a "within 24 h" badge when it is that close.
 */
function deadlineText(frame: PageFrame, intent: PaymentIntent): string {
  if (!intent.capture_before) return '–';
  const exact = exactTime(new Date(intent.capture_before), frame.lang, frame.timeZone);
  const soon = captureDueSoon(intent, frame.now)
    ? ` <span class="badge warn">${h(t(frame.lang).within24h)}</span>`
    : '';
  return `${timeTag(frame, intent.capture_before)} (${h(exact)})${soon}`;
}

/** A to-capture row's ways to its capture (all of it) and its void: each opens the confirmation. */
function rowActions(frame: PageFrame, intent: PaymentIntent): string {
  const m = t(frame.lang);
  const base = `/dashboard/${frame.mode ?? 'test'}/payments/${intent.id}`;
  return `<br><a href="${h(href(`${base}/capture`, frame.lang, { all: '1' }))}">${h(m.captureRow)}</a> · <a href="${h(href(`${base}/void`, frame.lang))}">${h(m.voidRow)}</a>`;
}

/** The capture form (an amount in major units, or all) and the void link; both open a confirmation. */
function authorizationControls(frame: PageFrame, intent: PaymentIntent): string {
  if (intent.status !== 'REQUIRES_CAPTURE') return '';
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const all = formatMoney(intent.amount_capturable_minor, intent.currency, frame.lang);
  return `<h2>${h(m.captureHeading)}</h2>
<form method="get" action="/dashboard/${mode}/payments/${h(intent.id)}/capture" class="inline">
  <input type="hidden" name="lang" value="${frame.lang}">
  <label>${h(fill(m.captureAmount, { currency: intent.currency }))} <input name="amount" inputmode="decimal" autocomplete="off" size="12"></label>
  <button type="submit">${h(m.reviewCapture)}</button>
  <button type="submit" name="all" value="1" class="secondary">${h(fill(m.captureAll, { amount: all }))}</button>
</form>
<p><a href="${h(href(`/dashboard/${mode}/payments/${intent.id}/void`, frame.lang))}">${h(m.voidAuthorisation)}</a></p>
`;
}

/** The notice after a capture or a void: what the intent now is. */
function authorizationNotice(
  intent: PaymentIntent,
  money: (minor: number) => string,
  frame: PageFrame,
): string {
  const m = t(frame.lang);
  if (intent.status === 'SUCCEEDED')
    return fill(m.capturedNotice, { amount: money(intent.amount_captured_minor) });
  // Lapsed while the confirmation was open: the void found nothing to release, and says so.
  if (intent.status === 'CANCELED' && intent.cancellation_reason === 'authorization_expired')
    return fill(m.lapsedNotice, { amount: money(intent.amount_minor) });
  if (intent.status === 'CANCELED') return fill(m.voidedNotice, { amount: money(intent.amount_minor) });
  return fill(m.authorizationPendingNotice, { status: statusLabel(intent.status, frame.lang) });
}
