import {
  type PaymentIntent,
  type Transaction,
  transactionStatuses,
  transactionTypes,
} from '@paygate/contract';
import { describeAmount } from '../domain/money.ts';
import type { Language } from './i18n.ts';
import { h, href, type PageFrame, page, t } from './layout.ts';

export function signInPage(lang: Language): string {
  const m = t(lang);
  return page(
    { lang, title: m.signIn, path: '/dashboard/sign-in' },
    `<form data-api="/dashboard/api/v1/session" data-next="${h(href('/dashboard/test/payments', lang))}" data-failed="${h(m.signInFailed)}" data-done="">
  <label>${h(m.email)} <input name="email" type="email" autocomplete="username" required></label>
  <label>${h(m.password)} <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">${h(m.signIn)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
  );
}

export function acceptInvitationPage(lang: Language): string {
  const m = t(lang);
  return page(
    { lang, title: m.acceptInvitation, path: '/dashboard/accept-invitation' },
    `<form data-api="/dashboard/api/v1/invitations/accept" data-failed="${h(m.acceptInvitation)}" data-done="${h(m.accepted)}">
  <label>${h(m.token)} <input name="token" required autocomplete="off"></label>
  <label>${h(m.newPassword)} <input name="password" type="password" autocomplete="new-password" minlength="12" required></label>
  <button type="submit">${h(m.accept)}</button>
  <p data-out aria-live="polite"></p>
</form>
<p><a href="${h(href('/dashboard/sign-in', lang))}">${h(m.signIn)}</a></p>`,
  );
}

export interface PaymentsFilter {
  status?: string;
  type?: string;
  from?: string;
  to?: string;
}

function options(values: readonly string[], chosen: string | undefined, anyLabel: string): string {
  return [`<option value="">${h(anyLabel)}</option>`]
    .concat(values.map((v) => `<option value="${h(v)}"${v === chosen ? ' selected' : ''}>${h(v)}</option>`))
    .join('');
}

export function paymentsPage(
  frame: PageFrame,
  filter: PaymentsFilter,
  result: { items: Transaction[]; nextCursor: string | null } | { error: string },
): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const form = `<form class="inline" method="get" action="/dashboard/${mode}/payments" role="search">
  <input type="hidden" name="lang" value="${frame.lang}">
  <label>${h(m.status)} <select name="status">${options(transactionStatuses, filter.status, m.any)}</select></label>
  <label>${h(m.type)} <select name="type">${options(transactionTypes, filter.type, m.any)}</select></label>
  <label>${h(m.from)} <input name="from" value="${h(filter.from)}" placeholder="2026-01-01T00:00:00Z"></label>
  <label>${h(m.to)} <input name="to" value="${h(filter.to)}" placeholder="2026-12-31T23:59:59Z"></label>
  <button type="submit">${h(m.search)}</button>
</form>`;
  if ('error' in result) return page(frame, `${form}<p role="alert">${h(result.error)}</p>`);
  const rows = result.items
    .map(
      (tx) => `<tr>
  <td><a href="${h(href(`/dashboard/${mode}/payments/${tx.payment_intent_id}`, frame.lang))}">${h(tx.payment_intent_id)}</a></td>
  <td>${h(tx.type)}</td><td>${h(tx.status)}</td>
  <td>${h(describeAmount(tx.amount_minor, tx.currency))}</td><td>${h(tx.created_at)}</td></tr>`,
    )
    .join('\n');
  const table = result.items.length
    ? `<table><caption>${h(m.payments)}</caption><thead><tr><th scope="col">${h(m.payment)}</th><th scope="col">${h(m.type)}</th><th scope="col">${h(m.status)}</th><th scope="col">${h(m.amount)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(m.noPayments)}</p>`;
  const next = result.nextCursor
    ? `<p><a href="${h(href(`/dashboard/${mode}/payments`, frame.lang, { ...filter, cursor: result.nextCursor }))}">${h(m.next)}</a></p>`
    : '';
  return page(frame, `${form}${table}${next}`);
}

export function paymentPage(frame: PageFrame, intent: PaymentIntent, canRefund: boolean): string {
  const m = t(frame.lang);
  const mode = frame.mode ?? 'test';
  const refundable = intent.amount_minor - intent.amount_refunded_minor;
  const refundForm =
    canRefund && intent.status === 'SUCCEEDED' && refundable > 0
      ? `<h2>${h(m.refund)}</h2>
<form data-api="/dashboard/api/v1/${mode}/refunds" data-idempotent data-failed="${h(m.refund)}" data-done="${h(m.refundDone)}" data-show="id">
  <input type="hidden" name="payment_intent_id" value="${h(intent.id)}">
  <label>${h(m.refundAmount)} <input name="amount_minor" type="number" min="1" max="${refundable}" step="1" value="${refundable}" required></label>
  <button type="submit">${h(m.refund)}</button>
  <p data-out aria-live="polite"></p>
</form>`
      : '';
  return page(
    frame,
    `<dl>
  <dt>ID</dt><dd><code>${h(intent.id)}</code></dd>
  <dt>${h(m.status)}</dt><dd>${h(intent.status)}</dd>
  <dt>${h(m.amount)}</dt><dd>${h(describeAmount(intent.amount_minor, intent.currency))}</dd>
  <dt>${h(m.refunded)}</dt><dd>${h(describeAmount(intent.amount_refunded_minor, intent.currency))}</dd>
  <dt>${h(m.created)}</dt><dd>${h(intent.created_at)}</dd>
</dl>
${refundForm}
<p><a href="${h(href(`/dashboard/${mode}/payments`, frame.lang))}">${h(m.back)}</a></p>`,
  );
}

export interface TeamView {
  users: { email: string; role: string; created_at: string }[];
  /** Null when the caller may not read it (not an owner). */
  audit: { action: string; target: string | null; user_email: string | null; created_at: string }[] | null;
}

export function teamPage(frame: PageFrame, view: TeamView): string {
  const m = t(frame.lang);
  const users = view.users
    .map((u) => `<tr><td>${h(u.email)}</td><td>${h(u.role)}</td><td>${h(u.created_at)}</td></tr>`)
    .join('');
  const owner = view.audit !== null;
  const invite = owner
    ? `<h2>${h(m.invite)}</h2>
<form class="inline" data-api="/dashboard/api/v1/invitations" data-failed="${h(m.invite)}" data-done="${h(m.invited)}" data-show="token">
  <label>${h(m.email)} <input name="email" type="email" required></label>
  <label>${h(m.role)} <select name="role"><option>viewer</option><option>developer</option><option>owner</option></select></label>
  <button type="submit">${h(m.invite)}</button>
  <p data-out aria-live="polite"></p>
</form>`
    : '';
  const audit = view.audit
    ? `<h2>${h(m.auditLog)}</h2><table><caption>${h(m.auditLog)}</caption><thead><tr><th scope="col">${h(m.when)}</th><th scope="col">${h(m.who)}</th><th scope="col">${h(m.action)}</th><th scope="col">${h(m.target)}</th></tr></thead><tbody>${view.audit
        .map(
          (e) =>
            `<tr><td>${h(e.created_at)}</td><td>${h(e.user_email ?? m.operator)}</td><td>${h(e.action)}</td><td>${h(e.target)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  return page(
    frame,
    `<h2>${h(m.users)}</h2><table><caption>${h(m.users)}</caption><thead><tr><th scope="col">${h(m.email)}</th><th scope="col">${h(m.role)}</th><th scope="col">${h(m.created)}</th></tr></thead><tbody>${users}</tbody></table>${invite}${audit}`,
  );
}
