import { type Language, t } from './i18n.ts';
import { h, type PageFrame, page } from './layout.ts';
import { href } from './navigation.ts';

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

/** The signed-in user's two-step sign-in: its state, the enrolment in progress, or turning it off. */
export function totpPage(
  frame: PageFrame,
  view: { enabled: boolean; pending: { secret: string; otpauthUri: string; qrSvg: string } | null },
): string {
  const m = t(frame.lang);
  const api = '/dashboard/api/v1/totp';
  const here = href('/dashboard/account', frame.lang);
  const codeField = `<label>${h(m.totpCode)} <input name="code" autocomplete="one-time-code" required maxlength="32"></label>`;
  if (view.enabled) {
    return page(
      frame,
      `<p>${h(m.totpOn)}</p>
<form class="inline" data-api="${api}/disable" data-failed="${h(m.failedAction)}" data-done="${h(m.totpDisabled)}">
  ${codeField}
  <button type="submit" class="danger">${h(m.totpDisable)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
    );
  }
  const start = `<form data-api="${api}/enrol" data-next="${h(here)}" data-failed="${h(m.failedAction)}" data-done="">
  <button type="submit">${h(m.totpStart)}</button><span data-out aria-live="polite"></span>
</form>`;
  if (!view.pending) return page(frame, `<p>${h(m.totpOff)}</p>${start}`);
  return page(
    frame,
    `${enrolmentDetails(frame.lang, view.pending)}
<form class="inline" data-api="${api}/confirm" data-failed="${h(m.failedAction)}" data-done="${h(m.totpEnabled)}" data-show="recovery_codes">
  ${codeField}
  <button type="submit">${h(m.totpConfirm)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
  );
}
