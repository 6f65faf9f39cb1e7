import { rt } from './i18n-rest.ts';
import { h, href, type PageFrame, page } from './layout.ts';

/** The signed-in user's two-step sign-in: its state, the enrolment in progress, or turning it off. */
export function totpPage(
  frame: PageFrame,
  view: { enabled: boolean; pending: { secret: string; otpauthUri: string; qrSvg: string } | null },
): string {
  const r = rt(frame.lang);
  const api = '/dashboard/api/v1/totp';
  const here = href('/dashboard/account', frame.lang);
  const codeField = `<label>${h(r.totpCode)} <input name="code" autocomplete="one-time-code" required maxlength="32"></label>`;
  if (view.enabled) {
    return page(
      frame,
      `<p>${h(r.totpOn)}</p>
<form class="inline" data-api="${api}/disable" data-failed="${h(r.failedAction)}" data-done="${h(r.totpDisabled)}">
  ${codeField}
  <button type="submit" class="secondary">${h(r.totpDisable)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
    );
  }
  const start = `<form data-api="${api}/enrol" data-next="${h(here)}" data-failed="${h(r.failedAction)}" data-done="">
  <button type="submit">${h(r.totpStart)}</button><span data-out aria-live="polite"></span>
</form>`;
  if (!view.pending) return page(frame, `<p>${h(r.totpOff)}</p>${start}`);
  return page(
    frame,
    `<p>${h(r.totpScan)}</p>
<div class="qr" role="img" aria-label="${h(r.totpQr)}">${view.pending.qrSvg}</div>
<dl><dt>${h(r.totpKey)}</dt><dd><code data-totp-secret>${h(view.pending.secret)}</code></dd>
<dt>URI</dt><dd><code>${h(view.pending.otpauthUri)}</code></dd></dl>
<form class="inline" data-api="${api}/confirm" data-failed="${h(r.failedAction)}" data-done="${h(r.totpEnabled)}" data-show="recovery_codes">
  ${codeField}
  <button type="submit">${h(r.totpConfirm)}</button>
  <p data-out aria-live="polite"></p>
</form>`,
  );
}
