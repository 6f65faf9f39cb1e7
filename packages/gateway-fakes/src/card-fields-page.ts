// The card fields of the fakes' stand-in components (Stripe's card element, Adyen's secured
// fields): a page of the fake's own origin, framed by the component that the checkout frame loaded.
// The card data is typed here and posted only to the fake's tokenising endpoint; the component in
// the frame above receives a token, as with the real gateways.
import type { FakeAnswer } from './fake-server.ts';

export interface CardFieldsTexts {
  number: string;
  expiry: string;
  expiryPlaceholder: string;
  cvc: string;
  holderName: string;
  errors: {
    incomplete_number: string;
    invalid_number: string;
    incomplete_expiry: string;
    invalid_expiry_year_past: string;
    incomplete_cvc: string;
    holder_name_required: string;
  };
}

const texts: Record<'en' | 'es', CardFieldsTexts> = {
  en: {
    number: 'Card number',
    expiry: 'Expiry date',
    expiryPlaceholder: 'MM / YY',
    cvc: 'Security code',
    holderName: 'Name on card',
    errors: {
      incomplete_number: 'Your card number is incomplete.',
      invalid_number: 'Your card number is invalid.',
      incomplete_expiry: "Your card's expiration date is incomplete.",
      invalid_expiry_year_past: "Your card's expiration year is in the past.",
      incomplete_cvc: "Your card's security code is incomplete.",
      holder_name_required: 'Enter the name on the card.',
    },
  },
  es: {
    number: 'Número de tarjeta',
    expiry: 'Fecha de vencimiento',
    expiryPlaceholder: 'MM / AA',
    cvc: 'Código de seguridad',
    holderName: 'Nombre en la tarjeta',
    errors: {
      incomplete_number: 'El número de tu tarjeta está incompleto.',
      invalid_number: 'El número de tu tarjeta no es válido.',
      incomplete_expiry: 'La fecha de vencimiento de tu tarjeta está incompleta.',
      invalid_expiry_year_past: 'El año de vencimiento de tu tarjeta ya pasó.',
      incomplete_cvc: 'El código de seguridad de tu tarjeta está incompleto.',
      holder_name_required: 'Ingresa el nombre que figura en la tarjeta.',
    },
  },
};

export function cardFieldsTexts(locale: string | null): CardFieldsTexts {
  return (locale ?? '').toLowerCase().startsWith('es') ? texts.es : texts.en;
}

function literal(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

/**
 * The page. `prefix` names its messages (`stripe-fake`, `adyen-fake`); with `inlineErrors` the
 * fields write their own errors (Adyen's do), otherwise the component hands them to the page
 * above (Stripe's card element does). `tokenPath` gets `{number, exp_month, exp_year, cvc,
 * holder_name}` as JSON and answers `{id, brand}` (Adyen's: `{id, brand, encrypted}`, the card's
 * encrypted fields) or `{error: {code, message}}`.
 */
export function cardFieldsPage(options: {
  title: string;
  prefix: string;
  parentOrigin: string;
  locale: string | null;
  holderName: boolean;
  inlineErrors: boolean;
  tokenPath: string;
  publicKey: string;
}): FakeAnswer {
  const t = cardFieldsTexts(options.locale);
  const lang = t === texts.es ? 'es' : 'en';
  const holder = options.holderName
    ? `<div class="f wide"><label for="holder">${t.holderName}</label><input id="holder" autocomplete="cc-name" aria-describedby="holder-error"><p id="holder-error" class="e"></p></div>`
    : '';
  const body = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${options.title}</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:2px 4px;color:#1a1a1a}
form{display:grid;grid-template-columns:2fr 1fr 1fr;gap:4px 10px}.wide{grid-column:1/-1}
.f{display:flex;flex-direction:column;min-width:0}label{font-weight:600;font-size:.85rem;margin-bottom:3px}
input{font:inherit;padding:9px 10px;border:1px solid #8a8a8a;border-radius:6px;width:100%;box-sizing:border-box}
input:focus-visible{outline:3px solid #1d4ed8;outline-offset:1px}input[aria-invalid=true]{border-color:#b00020}
.e{color:#b00020;font-size:.8rem;margin:3px 0 0;min-height:1.1em}
</style></head><body>
<form id="f" novalidate>
<div class="f"><label for="number">${t.number}</label><input id="number" inputmode="numeric" autocomplete="cc-number" aria-describedby="number-error"><p id="number-error" class="e"></p></div>
<div class="f"><label for="expiry">${t.expiry}</label><input id="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="${t.expiryPlaceholder}" aria-describedby="expiry-error"><p id="expiry-error" class="e"></p></div>
<div class="f"><label for="cvc">${t.cvc}</label><input id="cvc" inputmode="numeric" autocomplete="cc-csc" aria-describedby="cvc-error"><p id="cvc-error" class="e"></p></div>
${holder}
</form>
<script>
(() => {
  const prefix = ${literal(options.prefix)};
  const parentOrigin = ${literal(options.parentOrigin)};
  const errors = ${literal(t.errors)};
  const inlineErrors = ${literal(options.inlineErrors)};
  const tokenPath = ${literal(options.tokenPath)};
  const publicKey = ${literal(options.publicKey)};
  const $ = (id) => document.getElementById(id);
  const tell = (type, data) => parent.postMessage({ type: prefix + ':' + type, ...data }, parentOrigin);
  const digits = (v) => v.replace(/[^0-9]/g, '');
  const luhn = (d) => { let s = 0; for (let i = 0; i < d.length; i++) { let n = +d[d.length - 1 - i]; if (i % 2) { n *= 2; if (n > 9) n -= 9; } s += n; } return s % 10 === 0; };
  const amex = () => /^3[47]/.test(digits($('number').value));
  const checks = {
    number: () => { const d = digits($('number').value); return d.length < 13 ? 'incomplete_number' : (d.length > 19 || !luhn(d)) ? 'invalid_number' : null; },
    expiry: () => {
      const m = /^(\\d{1,2})\\s*\\/\\s*(\\d{2})$/.exec($('expiry').value.trim());
      if (!m || +m[1] < 1 || +m[1] > 12) return 'incomplete_expiry';
      const now = new Date(); const y = 2000 + +m[2];
      return y * 12 + (+m[1] - 1) < now.getUTCFullYear() * 12 + now.getUTCMonth() ? 'invalid_expiry_year_past' : null;
    },
    cvc: () => digits($('cvc').value).length === (amex() ? 4 : 3) ? null : 'incomplete_cvc',
  };
  if ($('holder')) checks.holder = () => $('holder').value.trim() ? null : 'holder_name_required';
  const show = (id, code) => {
    if (code) $(id).setAttribute('aria-invalid', 'true'); else $(id).removeAttribute('aria-invalid');
    if (inlineErrors) $(id + '-error').textContent = code ? errors[code] : '';
  };
  const state = (validate) => {
    let first = null;
    for (const [id, check] of Object.entries(checks)) {
      const code = check();
      if (validate) show(id, code);
      if (code && !first) first = { id, code };
    }
    return first;
  };
  const report = () => {
    const first = state(false);
    const touched = Object.keys(checks).filter((id) => $(id).value.trim() !== '' && checks[id]());
    const error = touched.length ? { code: checks[touched[0]](), message: errors[checks[touched[0]]()] } : null;
    tell('change', { complete: first === null, empty: digits($('number').value) === '', error });
  };
  for (const id of Object.keys(checks)) {
    $(id).addEventListener('input', report);
    $(id).addEventListener('blur', () => { if ($(id).value.trim()) show(id, checks[id]()); });
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); tell('enter', {}); } });
  }
  $('f').addEventListener('submit', (e) => e.preventDefault());
  window.addEventListener('message', async (event) => {
    if (event.origin !== parentOrigin || event.source !== parent) return;
    const type = event.data && event.data.type;
    if (type === prefix + ':focus') $('number').focus();
    if (type === prefix + ':validate') state(true);
    if (type !== prefix + ':tokenize') return;
    const first = state(true);
    if (first) { $(first.id).focus(); return tell('result', { error: { type: 'validation_error', code: first.code, message: errors[first.code] } }); }
    const [month, year] = $('expiry').value.split('/').map((p) => +p.trim());
    try {
      const response = await fetch(tokenPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + publicKey },
        body: JSON.stringify({ number: digits($('number').value), exp_month: month, exp_year: 2000 + year,
          cvc: digits($('cvc').value), holder_name: $('holder') ? $('holder').value.trim() : null }),
      });
      const answer = await response.json();
      if (!response.ok) { show('number', 'invalid_number'); return tell('result', { error: answer.error }); }
      tell('result', { id: answer.id, brand: answer.brand, encrypted: answer.encrypted });
    } catch {
      tell('result', { error: { type: 'api_connection_error', code: 'network', message: 'network' } });
    }
  });
  new ResizeObserver(() => tell('resize', { height: Math.ceil(document.body.getBoundingClientRect().height) })).observe(document.body);
})();
</script></body></html>`;
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body,
  };
}

/** The behaviour a test card number stands for at a fake (null: not a test card). */
export function testCardBehaviour(
  number: string,
  holderName: string | null,
): 'approve' | 'decline' | 'challenge' | null {
  // Adyen's own way of asking for a refusal in test: the holder name says the result.
  if (holderName?.toUpperCase() === 'REFUSED') return 'decline';
  switch (number) {
    case '4242424242424242':
    case '4111111145551142':
    case '5555555555554444':
      return 'approve';
    case '4000000000000002':
      return 'decline';
    case '4000002760003184':
    case '4000000000003220':
    case '4212345678910006':
      return 'challenge';
    default:
      return null;
  }
}
