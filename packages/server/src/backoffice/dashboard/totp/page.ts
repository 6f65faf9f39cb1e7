import { type Language, t } from '../../../i18n/i18n.ts';
import { csrfField } from '../../kit/forms.ts';
import { h, type PageFrame, page } from '../../kit/layout.ts';
import { href } from '../../kit/navigation.ts';

/** The enrolment begun: the QR code, the key and the URI for the authenticator app. */
export function enrolmentDetails(
  lang: Language,
  pending: { secret: string; otpauthUri: string; qrSvg: string },
): string {
  const m = t(lang);
  return `<p>${h(m.totpScan)}</p>
<div class="qr" role="img" aria-label="${h(m.totpQr)}">${pending.qrSvg}</div>
<dl><dt>${h(m.totpKey)}</dt><dd><code data-totp-secret>${h(pending.secret)}</code></dd>
<dt>URI</dt><dd><code>${h(pending.otpauthUri)}</code></dd></dl>`;
}

/** What the second factor page shows besides its state: the last action's line, or a refusal. */
export interface TotpOutcome {
  notice?: string | undefined;
  problem?: string | undefined;
  /** The recovery codes, on the first page after the confirmation only. */
  recoveryCodes?: string[] | undefined;
}

/**
 * The signed-in user's two-step sign-in, with plain forms (no script needed): turn it on (the QR
 * code to scan), confirm with a code (the recovery codes, shown once, on the page the post
 * redirects to), or turn it off with a code.
 */
export function totpPage(
  frame: PageFrame,
  view: { enabled: boolean; pending: { secret: string; otpauthUri: string; qrSvg: string } | null },
  outcome: TotpOutcome = {},
): string {
  const m = t(frame.lang);
  const post = (action: string, inner: string) =>
    `<form class="inline" method="post" action="${h(href(`/dashboard/account/totp/${action}`, frame.lang, { mode: frame.mode }))}">
  ${csrfField(frame)}
  ${inner}
</form>`;
  const codeField = `<label>${h(m.totpCode)} <input name="code" autocomplete="one-time-code" required maxlength="32"></label>`;
  const lines = `${outcome.problem ? `<p role="alert">${h(`${m.failedAction}: ${outcome.problem}`)}</p>` : ''}${
    outcome.recoveryCodes
      ? `<p role="status">${h(m.totpEnabled)}</p><ul class="recovery-codes">${outcome.recoveryCodes.map((c) => `<li><code>${h(c)}</code></li>`).join('')}</ul>`
      : outcome.notice
        ? `<p role="status">${h(outcome.notice)}</p>`
        : ''
  }`;
  if (view.enabled) {
    return page(
      frame,
      `${lines}<p>${h(m.totpOn)}</p>${post('disable', `${codeField}\n  <button type="submit" class="danger">${h(m.totpDisable)}</button>`)}`,
    );
  }
  if (!view.pending)
    return page(
      frame,
      `${lines}<p>${h(m.totpOff)}</p>${post('enrol', `<button type="submit">${h(m.totpStart)}</button>`)}`,
    );
  return page(
    frame,
    `${lines}${enrolmentDetails(frame.lang, view.pending)}${post('confirm', `${codeField}\n  <button type="submit">${h(m.totpConfirm)}</button>`)}`,
  );
}
