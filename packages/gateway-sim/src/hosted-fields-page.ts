// escape-html escapes & < > " ' for element content and quoted attribute values.
import escapeHtml from 'escape-html';
import { CARD_CHECKS_SOURCE } from './card-checks.ts';
import type { HostedFieldsTexts } from './hosted-fields-texts.ts';

/** A JSON literal that is safe inside an inline <script> (no "</script>" or U+2028 surprises). */
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

const style = `
  :root { color-scheme: light; --ink: #1a1a1a; --muted: #555; --line: #8a8a8a; --focus: #1d4ed8; --bad: #b00020; }
  * { box-sizing: border-box; }
  body { font: 16px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 2px 4px 4px; color: var(--ink); background: #fff; }
  form { display: grid; grid-template-columns: 1fr 1fr; gap: 4px 12px; }
  .field { display: flex; flex-direction: column; min-width: 0; }
  .wide { grid-column: 1 / -1; }
  label { font-weight: 600; font-size: 0.9rem; margin-bottom: 4px; }
  .control { position: relative; }
  input { font: inherit; width: 100%; padding: 10px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--ink); }
  #card-number { padding-right: 9.5rem; letter-spacing: 0.02em; }
  input:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; border-color: var(--focus); }
  input[aria-invalid="true"] { border-color: var(--bad); box-shadow: inset 0 0 0 1px var(--bad); }
  .brand { position: absolute; right: 8px; top: 50%; transform: translateY(-50%); font-size: 0.75rem; font-weight: 700;
    text-transform: uppercase; letter-spacing: 0.04em; padding: 2px 8px; border-radius: 999px; background: #eef2ff; color: #1e3a8a; }
  .brand:empty { display: none; }
  .hint { color: var(--muted); font-size: 0.8rem; margin: 4px 0 0; }
  .error { color: var(--bad); font-size: 0.85rem; margin: 4px 0 0; min-height: 1.2em; }
  .error:not(:empty)::before { content: "⚠ "; }
  .test-hint { grid-column: 1 / -1; color: var(--muted); font-size: 0.8rem; margin: 2px 0 0; }
`;

/**
 * The hosted card fields: number (with the brand shown as it is recognised), expiry, security
 * code and name. The values go only to this gateway's own `/v1/tokens`; the checkout frame above
 * receives nothing but the token, posted to its exact origin. There is no button here: the frame's
 * one Pay button asks the fields to submit (`paygate-sim:submit`), and Enter in a field asks the
 * frame to press it (`paygate-sim:submit-request`). Errors are shown here only, once per field.
 */
export function hostedFieldsPage(parentOrigin: string, texts: HostedFieldsTexts, nonce: string): string {
  const t = (text: string) => escapeHtml(text);
  return `<!doctype html>
<html lang="${texts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t(texts.title)}</title>
<style nonce="${nonce}">${style}</style>
</head>
<body>
<form id="card-form" novalidate>
  <div class="field wide">
    <label for="card-number">${t(texts.numberLabel)}</label>
    <div class="control">
      <input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number"
        maxlength="23" spellcheck="false" required aria-describedby="card-brand card-number-error">
      <span id="card-brand" class="brand" aria-live="polite"></span>
    </div>
    <p id="card-number-error" class="error"></p>
  </div>
  <div class="field">
    <label for="card-expiry">${t(texts.expiryLabel)}</label>
    <input id="card-expiry" name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp"
      maxlength="9" placeholder="${t(texts.expiryPlaceholder)}" spellcheck="false" required aria-describedby="card-expiry-error">
    <p id="card-expiry-error" class="error"></p>
  </div>
  <div class="field">
    <label for="card-cvc">${t(texts.cvcLabel)}</label>
    <input id="card-cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc"
      maxlength="4" spellcheck="false" required aria-describedby="card-cvc-hint card-cvc-error">
    <p id="card-cvc-hint" class="hint">${t(texts.cvcHint3)}</p>
    <p id="card-cvc-error" class="error"></p>
  </div>
  <div class="field wide">
    <label for="card-name">${t(texts.nameLabel)}</label>
    <input id="card-name" name="cardholder_name" type="text" autocomplete="cc-name" maxlength="100"
      spellcheck="false" required aria-describedby="card-name-error">
    <p id="card-name-error" class="error"></p>
  </div>
  <p id="form-error" class="error wide"></p>
  <p class="test-hint">${t(texts.testHint)}</p>
</form>
<script nonce="${nonce}">
(() => {
${CARD_CHECKS_SOURCE}
  const parentOrigin = ${scriptLiteral(parentOrigin)};
  const texts = ${scriptLiteral(texts)};
  const $ = (id) => document.getElementById(id);
  const fields = {
    number: { input: $('card-number'), error: $('card-number-error'), check: (v) => checkCardNumber(v) },
    expiry: { input: $('card-expiry'), error: $('card-expiry-error'), check: (v) => checkExpiry(v, new Date()) },
    cvc: { input: $('card-cvc'), error: $('card-cvc-error'), check: (v) => checkCvc(v, fields.number.input.value) },
    name: { input: $('card-name'), error: $('card-name-error'), check: (v) => checkName(v) },
  };
  const brandBadge = $('card-brand');
  const cvcHint = $('card-cvc-hint');
  const formError = $('form-error');
  const tell = (message) => window.parent.postMessage(message, parentOrigin);

  const show = (field, key) => {
    field.error.textContent = key ? texts.errors[key] : '';
    if (key) field.input.setAttribute('aria-invalid', 'true');
    else field.input.removeAttribute('aria-invalid');
  };
  const validate = (field) => {
    const key = field.check(field.input.value);
    show(field, key);
    return key;
  };

  fields.number.input.addEventListener('input', () => {
    const input = fields.number.input;
    const formatted = formatCardNumber(input.value);
    if (formatted !== input.value) input.value = formatted;
    const brand = cardBrand(formatted);
    brandBadge.textContent = brand ? brand.name : '';
    brandBadge.setAttribute('aria-label', brand ? texts.brandDetected.replace('{brand}', brand.name) : '');
    brandBadge.dataset.brand = brand ? brand.id : '';
    const cvcLength = brand ? brand.cvcLength : 3;
    cvcHint.textContent = cvcLength === 4 ? texts.cvcHint4 : texts.cvcHint3;
    if (fields.number.input.getAttribute('aria-invalid') === 'true') validate(fields.number);
  });
  fields.expiry.input.addEventListener('input', (event) => {
    const input = fields.expiry.input;
    // "12" becomes "12 / " as the payer types; deleting is left alone.
    if (event.inputType && event.inputType.startsWith('delete')) return;
    const digits = input.value.replace(/[^0-9]/g, '').slice(0, 4);
    if (/^[0-9]{2,}$/.test(digits) && !input.value.includes('/')) input.value = digits.slice(0, 2) + ' / ' + digits.slice(2);
  });
  for (const field of Object.values(fields)) {
    // A field is judged when the payer leaves it, and again as they correct it.
    field.input.addEventListener('blur', () => {
      if (field.input.value.trim() !== '') validate(field);
    });
    field.input.addEventListener('input', () => {
      if (field !== fields.number && field.input.getAttribute('aria-invalid') === 'true') validate(field);
    });
    field.input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      tell({ type: 'paygate-sim:submit-request' });
    });
  }

  let submitting = false;
  const invalid = () => tell({ type: 'paygate-sim:invalid' });
  async function submit() {
    if (submitting) return;
    formError.textContent = '';
    const failed = Object.values(fields).filter((field) => validate(field) !== null);
    if (failed.length > 0) {
      failed[0].input.focus();
      return invalid();
    }
    const [month, year] = fields.expiry.input.value.split('/').map((part) => Number(part.trim()));
    submitting = true;
    try {
      const response = await fetch('v1/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          card_number: cardDigits(fields.number.input.value),
          exp_month: month,
          exp_year: year < 100 ? 2000 + year : year,
          cvc: fields.cvc.input.value.trim(),
          cardholder_name: fields.name.input.value.trim(),
        }),
      });
      const body = await response.json();
      if (!response.ok) {
        if (body.error && body.error.code === 'unknown_test_card') {
          show(fields.number, 'unknownTestCard');
          fields.number.input.focus();
        } else {
          formError.textContent = texts.errors.network;
        }
        return invalid();
      }
      const brand = cardBrand(fields.number.input.value);
      tell({ type: 'paygate-sim:token', token: body.token, brand: brand ? brand.id : null });
    } catch {
      formError.textContent = texts.errors.network;
      invalid();
    } finally {
      submitting = false;
    }
  }
  $('card-form').addEventListener('submit', (event) => event.preventDefault());
  window.addEventListener('message', (event) => {
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    if (event.data && event.data.type === 'paygate-sim:submit') void submit();
    if (event.data && event.data.type === 'paygate-sim:focus') fields.number.input.focus();
  });
  new ResizeObserver(() => {
    tell({ type: 'paygate-sim:resize', height: Math.ceil(document.body.getBoundingClientRect().height) });
  }).observe(document.body);
})();
</script>
</body>
</html>
`;
}
