import { affectedText } from '../../app/deprecations/deprecation-mail.ts';
import type { DeprecationDetail, DeprecationRecord } from '../../app/deprecations/retrieve-deprecation.ts';
import type { ReconciliationReport } from '../../app/gateways/reconcile-with-gateway.ts';
import type { LateCaptureRecord } from '../../app/late-captures/list-late-captures.ts';
import { deprecatableClients } from '../../domain/deprecations.ts';
import { fill, type Language, t } from '../../i18n/i18n.ts';
import { differencesTable } from '../dashboard/reconciliation/page.ts';
import { type SignInFormState, signInForm } from '../dashboard/session/page.ts';
import { enrolmentDetails } from '../dashboard/totp/page.ts';
import { formatMoney } from '../kit/format.ts';
import { emptyState, h, href, type PageFrame, page } from '../kit/layout.ts';
import { statusBadge } from '../kit/status-badge.ts';

/** The signed-in operator a console page is drawn for, and what the last action left to say. */
export interface OperatorView {
  lang: Language;
  email: string;
  csrfToken: string;
  /** What the action just done changed (post, redirect, get: read from the query). */
  notice?: string | undefined;
  /** Why the action asked for was refused (the form is shown again with it). */
  problem?: string | undefined;
}

/** The frame of a console page: the dashboard's document, header and side navigation. */
export function consoleFrame(view: OperatorView, path: string, title: string): PageFrame {
  return { lang: view.lang, title, path, operator: { email: view.email, csrfToken: view.csrfToken } };
}

/** A console page: the notice or the problem of the last action above the page's own content. */
export function consolePage(view: OperatorView, path: string, title: string, main: string): string {
  const notice = view.notice ? `<p role="status">${h(view.notice)}</p>` : '';
  const problem = view.problem ? `<p role="alert">${h(view.problem)}</p>` : '';
  return page(consoleFrame(view, path, title), `${problem}${notice}${main}`);
}

/** The hidden CSRF field of a plain form of the console (the dashboard's rule: csrfRule). */
export function csrfField(view: OperatorView): string {
  return `<input type="hidden" name="csrf_token" value="${h(view.csrfToken)}">`;
}

/** A plain POST form of the console: works without a script, answered by a redirect. */
export function postForm(view: OperatorView, action: string, inner: string, className = ''): string {
  const cls = className ? ` class="${className}"` : '';
  return `<form method="post" action="${h(href(action, view.lang))}"${cls}>
  ${csrfField(view)}
  ${inner}
</form>`;
}

const timeFormats = new Map<Language, Intl.DateTimeFormat>();

/** A moment as the console shows it: day and minute in UTC, the exact instant in `datetime` and on hover. */
export function when(at: Date | string, lang: Language): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  let format = timeFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    timeFormats.set(lang, format);
  }
  const iso = date.toISOString();
  return `<time datetime="${h(iso)}" title="${h(iso)}">${h(format.format(date))} UTC</time>`;
}

/** The console's sign-in: the dashboard's form (a plain post with its pre-session token). */
export function operatorSignInPage(lang: Language, state: SignInFormState): string {
  return page(
    { lang, title: t(lang).operatorSignIn, path: '/operator/sign-in' },
    signInForm(lang, '/operator/sign-in', state),
  );
}

/** Every announcement, newest first, and the form to announce one. */
export function operatorDeprecationsPage(
  view: OperatorView,
  deprecations: (DeprecationRecord & { merchantsTold: number })[],
  today: string,
): string {
  const { lang } = view;
  const m = t(lang);
  const options = [
    ...deprecatableClients.map((name) => `<option value="${h(name)}">${h(name)}</option>`),
    `<option value="contract:v1">${h(m.operatorAllOfContract)}</option>`,
  ].join('');
  const form = `<section aria-labelledby="announce-heading"><h2 id="announce-heading">${h(m.operatorAnnounce)}</h2>
${postForm(
  view,
  '/operator/deprecations',
  `<label>${h(m.operatorAffected)} <select name="affected">${options}</select></label>
  <label>${h(m.operatorBelow)} <input name="below" placeholder="2.0.0" pattern="\\d+\\.\\d+\\.\\d+.*"></label>
  <label>${h(m.operatorWithdrawOn)} <input name="withdraw_on" type="date" min="${h(today)}" required></label>
  <label>${h(m.operatorText)} <textarea name="text" required maxlength="4000"></textarea></label>
  <button type="submit">${h(m.operatorAnnounce)}</button>`,
)}</section>`;
  const rows = deprecations
    .map(
      (d) =>
        `<tr><td><a href="${h(href(`/operator/deprecations/${d.id}`, lang))}">${h(affectedText(lang, d.affected))}</a></td><td>${h(d.withdrawOn)}</td><td>${d.merchantsTold}</td><td>${when(d.createdAt, lang)}</td></tr>`,
    )
    .join('');
  const table = deprecations.length
    ? `<table><thead><tr><th scope="col">${h(m.operatorAffected)}</th><th scope="col">${h(m.operatorWithdrawOn)}</th><th scope="col">${h(m.operatorMerchantsTold)}</th><th scope="col">${h(m.operatorAnnouncedAt)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : emptyState(m.operatorNoDeprecations, m.operatorNoDeprecationsHelp);
  return consolePage(view, '/operator/deprecations', m.operatorDeprecations, `${table}${form}`);
}

/** One announcement: its text and everyone told, when, in which language. */
export function operatorDeprecationPage(view: OperatorView, deprecation: DeprecationDetail): string {
  const { lang } = view;
  const m = t(lang);
  const rows = deprecation.recipients
    .map(
      (r) =>
        `<tr><td><a href="${h(href(`/operator/merchants/${r.merchantId}`, lang))}"><code>${h(r.merchantId)}</code></a></td><td>${h(r.email)}</td><td>${h(r.language)}</td><td>${h(r.clients.join(', '))}</td><td>${when(r.notifiedAt, lang)}</td></tr>`,
    )
    .join('');
  const table = deprecation.recipients.length
    ? `<table><thead><tr><th scope="col">${h(m.operatorMerchant)}</th><th scope="col">${h(m.email)}</th><th scope="col">${h(m.language)}</th><th scope="col">${h(m.clients)}</th><th scope="col">${h(m.operatorToldAt)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(m.operatorNoRecipients)}</p>`;
  const summary = `<p>${h(affectedText(lang, deprecation.affected))} · ${h(m.operatorWithdrawOn)}: ${h(deprecation.withdrawOn)}</p><p>${h(deprecation.bodyText)}</p>`;
  return consolePage(
    view,
    `/operator/deprecations/${deprecation.id}`,
    m.operatorRecipients,
    `${summary}<h2>${h(m.operatorRecipients)}</h2>${table}`,
  );
}

/** The read of the gateways' books: what was compared, what could not be read, the differences. */
export type ReconciliationRead = { report: ReconciliationReport } | { failed: string };

/** Late captures and their repair, and the differences with every gateway's books of the last day. */
export function operatorReconciliationPage(
  view: OperatorView,
  lateCaptures: LateCaptureRecord[],
  read: ReconciliationRead,
): string {
  const { lang } = view;
  const m = t(lang);
  const captureRows = lateCaptures
    .map(
      (c) =>
        `<tr><td><code>${h(c.paymentIntentId)}</code></td><td><a href="${h(href(`/operator/merchants/${c.merchantId}`, lang))}"><code>${h(c.merchantId)}</code></a></td><td>${h(formatMoney(c.amountMinor, c.currency, lang))}</td><td>${h(c.gatewayId)}</td><td>${statusBadge(c.repairStatus, lang)}</td><td>${when(c.detectedAt, lang)}</td></tr>`,
    )
    .join('');
  const captures = lateCaptures.length
    ? `<table><caption>${h(m.operatorLateCaptures)}</caption><thead><tr><th scope="col">${h(m.operatorPayment)}</th><th scope="col">${h(m.operatorMerchant)}</th><th scope="col">${h(m.amount)}</th><th scope="col">${h(m.gateway)}</th><th scope="col">${h(m.operatorRepair)}</th><th scope="col">${h(m.operatorDetected)}</th></tr></thead><tbody>${captureRows}</tbody></table>`
    : emptyState(m.operatorNoLateCaptures, m.operatorNoLateCapturesHelp);
  let books: string;
  if ('failed' in read) {
    books = `<p role="alert">${h(fill(m.operatorBooksFailed, { reason: read.failed }))}</p>`;
  } else {
    const { report } = read;
    const compared = report.gateways
      .map(
        (g) =>
          `<li>${h(g.gatewayId)} (${h(g.livemode ? m.liveData : m.testData)})${g.gatewayAccountId ? ` <code>${h(g.gatewayAccountId)}</code>` : ''}: ${h(fill(m.operatorBooksCounted, { charges: g.charges, refunds: g.refunds }))}</li>`,
      )
      .join('');
    const unreadable = report.unreadable
      .map(
        (u) =>
          `<li>${statusBadge('unreadable', lang)} ${h(u.gatewayId)} (${h(u.livemode ? m.liveData : m.testData)})${u.gatewayAccountId ? ` <code>${h(u.gatewayAccountId)}</code>` : ''}: ${h(u.reason)}</li>`,
      )
      .join('');
    const skipped = report.skipped.length
      ? `<p>${h(m.operatorBooksSkipped)} ${report.skipped.map((s) => `<code>${h(s)}</code>`).join(', ')}</p>`
      : '';
    books = `<ul class="books">${unreadable}${compared}</ul>${skipped}${
      report.differences.length
        ? differencesTable(lang, report.differences, true)
        : emptyState(m.operatorBooksAgree, m.operatorBooksAgreeHelp)
    }`;
  }
  return consolePage(
    view,
    '/operator/reconciliation',
    m.operatorReconciliation,
    `<section aria-labelledby="late-heading"><h2 id="late-heading">${h(m.operatorLateCaptures)}</h2><p>${h(m.operatorLateCapturesHelp)}</p>${captures}</section>
<section aria-labelledby="books-heading"><h2 id="books-heading">${h(m.operatorBooks)}</h2><p>${h(m.operatorBooksHelp)}</p>${books}</section>`,
  );
}

/**
 * The operator's own two-step sign-in, with plain forms: turn it on (the QR code to scan), confirm
 * with a code (the recovery codes, shown once), or turn it off with a code.
 */
export function operatorTotpPage(
  view: OperatorView,
  state: {
    enabled: boolean;
    pending: { secret: string; otpauthUri: string; qrSvg: string } | null;
    recoveryCodes?: string[] | undefined;
  },
): string {
  const m = t(view.lang);
  const codeField = `<label>${h(m.totpCode)} <input name="code" autocomplete="one-time-code" required maxlength="32"></label>`;
  let main: string;
  if (state.enabled) {
    const codes = state.recoveryCodes
      ? `<p role="status">${h(m.totpEnabled)}</p><ul class="recovery-codes">${state.recoveryCodes.map((c) => `<li><code>${h(c)}</code></li>`).join('')}</ul>`
      : '';
    main = `${codes}<p>${h(m.totpOn)}</p>${postForm(view, '/operator/account/totp/disable', `${codeField}\n  <button type="submit" class="danger">${h(m.totpDisable)}</button>`)}`;
  } else if (state.pending) {
    main = `${enrolmentDetails(view.lang, state.pending)}${postForm(view, '/operator/account/totp/confirm', `${codeField}\n  <button type="submit">${h(m.totpConfirm)}</button>`)}`;
  } else {
    main = `<p>${h(m.totpOff)}</p>${postForm(view, '/operator/account/totp/enrol', `<button type="submit">${h(m.totpStart)}</button>`)}`;
  }
  return consolePage(view, '/operator/account', m.secondFactor, main);
}
