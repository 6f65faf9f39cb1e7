import { affectedText } from '../app/deprecations/deprecation-mail.ts';
import type { DeprecationDetail } from '../app/deprecations/retrieve-deprecation.ts';
import { deprecatableClients } from '../domain/deprecations.ts';
import type { DeprecationRecord } from '../storage/repositories/deprecations.ts';
import { type Language, t } from './i18n.ts';
import { h, href, page } from './layout.ts';

/** A signed-in operator's page: the dashboard's document with the console's own navigation. */
function consolePage(
  lang: Language,
  path: string,
  title: string,
  operator: { email: string; csrfToken: string },
  main: string,
): string {
  const m = t(lang);
  const nav = `<nav aria-label="${h(m.operatorConsole)}"><ul><li><a href="${h(href('/operator/deprecations', lang))}">${h(m.operatorDeprecations)}</a></li></ul>
<p>${h(operator.email)}</p>
<form data-api="/operator/api/v1/session/sign-out" data-next="${h(href('/operator/sign-in', lang))}" data-failed="${h(m.signOut)}" data-done="">
<button type="submit" class="secondary">${h(m.signOut)}</button><span data-out aria-live="polite"></span></form></nav>`;
  return page({ lang, title, path, csrfToken: operator.csrfToken }, `${nav}${main}`);
}

export function operatorSignInPage(lang: Language): string {
  const m = t(lang);
  return page(
    { lang, title: m.operatorSignIn, path: '/operator/sign-in' },
    `<form data-api="/operator/api/v1/session" data-next="${h(href('/operator/deprecations', lang))}" data-failed="${h(m.signInFailed)}" data-done="">
  <label>${h(m.email)} <input name="email" type="email" autocomplete="username" required></label>
  <label>${h(m.password)} <input name="password" type="password" autocomplete="current-password" required></label>
  <label>${h(m.signInCode)} <input name="totp_code" autocomplete="one-time-code" maxlength="32"></label>
  <button type="submit">${h(m.signIn)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
  );
}

/** Every announcement, newest first, and the form to announce one. */
export function operatorDeprecationsPage(
  lang: Language,
  operator: { email: string; csrfToken: string },
  deprecations: (DeprecationRecord & { merchantsTold: number })[],
  today: string,
): string {
  const m = t(lang);
  const options = [
    ...deprecatableClients.map((name) => `<option value="${h(name)}">${h(name)}</option>`),
    `<option value="contract:v1">${h(m.operatorAllOfContract)}</option>`,
  ].join('');
  const form = `<section aria-labelledby="announce-heading"><h2 id="announce-heading">${h(m.operatorAnnounce)}</h2>
<form data-api="/operator/api/v1/deprecations" data-next="${h(href('/operator/deprecations', lang))}" data-failed="${h(m.failedAction)}" data-done="${h(m.operatorAnnounced)}">
  <label>${h(m.operatorAffected)} <select name="affected">${options}</select></label>
  <label>${h(m.operatorBelow)} <input name="below" placeholder="2.0.0" pattern="\\d+\\.\\d+\\.\\d+.*"></label>
  <label>${h(m.operatorWithdrawOn)} <input name="withdraw_on" type="date" min="${h(today)}" required></label>
  <label>${h(m.operatorText)} <textarea name="text" required maxlength="4000"></textarea></label>
  <button type="submit">${h(m.operatorAnnounce)}</button>
  <p data-out aria-live="polite"></p>
</form></section>`;
  const rows = deprecations
    .map(
      (d) =>
        `<tr><td><a href="${h(href(`/operator/deprecations/${d.id}`, lang))}">${h(affectedText(lang, d.affected))}</a></td><td>${h(d.withdrawOn)}</td><td>${d.merchantsTold}</td><td>${h(d.createdAt.toISOString())}</td></tr>`,
    )
    .join('');
  const table = deprecations.length
    ? `<table><thead><tr><th scope="col">${h(m.operatorAffected)}</th><th scope="col">${h(m.operatorWithdrawOn)}</th><th scope="col">${h(m.operatorMerchantsTold)}</th><th scope="col">${h(m.operatorAnnouncedAt)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(m.operatorNoDeprecations)}</p>`;
  return consolePage(lang, '/operator/deprecations', m.operatorDeprecations, operator, `${table}${form}`);
}

/** One announcement: its text and everyone told, when, in which language. */
export function operatorDeprecationPage(
  lang: Language,
  operator: { email: string; csrfToken: string },
  deprecation: DeprecationDetail,
): string {
  const m = t(lang);
  const rows = deprecation.recipients
    .map(
      (r) =>
        `<tr><td>${h(r.merchantId)}</td><td>${h(r.email)}</td><td>${h(r.language)}</td><td>${h(r.clients.join(', '))}</td><td>${h(r.notifiedAt.toISOString())}</td></tr>`,
    )
    .join('');
  const table = deprecation.recipients.length
    ? `<table><thead><tr><th scope="col">${h(m.operatorMerchant)}</th><th scope="col">${h(m.email)}</th><th scope="col">${h(m.language)}</th><th scope="col">${h(m.clients)}</th><th scope="col">${h(m.operatorToldAt)}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>${h(m.operatorNoRecipients)}</p>`;
  const summary = `<p>${h(affectedText(lang, deprecation.affected))} · ${h(m.operatorWithdrawOn)}: ${h(deprecation.withdrawOn)}</p><p>${h(deprecation.bodyText)}</p>`;
  return consolePage(
    lang,
    `/operator/deprecations/${deprecation.id}`,
    m.operatorRecipients,
    operator,
    `${summary}<h2>${h(m.operatorRecipients)}</h2>${table}`,
  );
}
