// The stand-ins for the gateways' browser components, served by each fake at its own origin as the
// real ones are served from the gateways' CDNs: a tiny Stripe.js (`Stripe(pk).elements()
// .create('card')`, `createPaymentMethod`) and a tiny Adyen Web (`AdyenCheckout(config)`,
// `create('card')`, `onSubmit(state)` with `state.data.paymentMethod`). Only the API surface the
// checkout frame uses is there. Their fields are `card-fields-page.ts`, framed from the fake.
import type { FakeAnswer } from './fake-server.ts';

const script = (body: string): FakeAnswer => ({
  status: 200,
  headers: {
    'content-type': 'text/javascript; charset=utf-8',
    'access-control-allow-origin': '*',
    'cache-control': 'no-store',
  },
  body,
});

/** What both stand-ins share: the framed fields and their postMessage channel. */
const framedFields = `
  function framedFields(prefix, path, params, host) {
    const url = new URL(path, origin);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('parent_origin', location.origin);
    const iframe = document.createElement('iframe');
    iframe.src = url.href;
    iframe.title = params.title || 'Card';
    iframe.setAttribute('allowtransparency', 'true');
    iframe.style.cssText = 'display:block;width:100%;height:90px;border:0';
    host.appendChild(iframe);
    const listeners = {};
    let waiting = null;
    const onMessage = (event) => {
      if (event.origin !== origin || event.source !== iframe.contentWindow) return;
      const data = event.data || {};
      if (typeof data.type !== 'string' || !data.type.startsWith(prefix + ':')) return;
      const type = data.type.slice(prefix.length + 1);
      if (type === 'resize') iframe.style.height = Math.min(Math.max(data.height, 40), 600) + 'px';
      if (type === 'result' && waiting) { const resolve = waiting; waiting = null; resolve(data); }
      for (const listener of listeners[type] || []) listener(data);
    };
    window.addEventListener('message', onMessage);
    const post = (type) => iframe.contentWindow && iframe.contentWindow.postMessage({ type: prefix + ':' + type }, origin);
    return {
      iframe,
      on(type, listener) { (listeners[type] = listeners[type] || []).push(listener); },
      post,
      tokenize() {
        return new Promise((resolve) => { waiting = resolve; post('tokenize'); });
      },
      destroy() { window.removeEventListener('message', onMessage); iframe.remove(); },
    };
  }
`;

/** `GET /v3/` of the Stripe fake: `window.Stripe`. */
export function stripeJsStandIn(origin: string): FakeAnswer {
  return script(`(() => {
  const origin = ${JSON.stringify(origin)};
  ${framedFields}
  window.Stripe = function Stripe(publishableKey, options) {
    if (!/^pk_(test|live)_/.test(String(publishableKey))) throw new Error('Invalid publishable key');
    const stripeLocale = (options && options.locale) || 'auto';
    return {
      elements(elementsOptions) {
        const locale = (elementsOptions && elementsOptions.locale) || stripeLocale;
        return {
          create(type) {
            if (type !== 'card') throw new Error('the stand-in has only the card element');
            let fields = null;
            const pending = [];
            return {
              mount(target) {
                const host = typeof target === 'string' ? document.querySelector(target) : target;
                fields = framedFields('stripe-fake', '/v3/elements/card', { locale, key: publishableKey, title: 'Secure card payment input frame' }, host);
                for (const [event, listener] of pending) fields.on(event, listener);
              },
              on(event, listener) {
                pending.push([event, listener]);
                if (fields) fields.on(event, listener);
              },
              focus() { if (fields) fields.post('focus'); },
              destroy() { if (fields) fields.destroy(); },
              _fields: () => fields,
            };
          },
        };
      },
      async createPaymentMethod(request) {
        const fields = request && request.card && request.card._fields && request.card._fields();
        if (!fields) return { error: { type: 'invalid_request_error', message: 'No card element given.' } };
        const answer = await fields.tokenize();
        if (answer.error) return { error: answer.error };
        return { paymentMethod: { id: answer.id, object: 'payment_method', type: 'card', card: { brand: answer.brand } } };
      },
    };
  };
})();
`);
}

/** `GET .../adyen.js` of the Adyen fake: `window.AdyenCheckout`. */
export function adyenWebStandIn(origin: string): FakeAnswer {
  return script(`(() => {
  const origin = ${JSON.stringify(origin)};
  ${framedFields}
  window.AdyenCheckout = async function AdyenCheckout(config) {
    if (!/^(test|live)_/.test(String(config && config.clientKey))) throw new Error('Invalid clientKey');
    return {
      create(type, options) {
        if (type !== 'card') throw new Error('the stand-in has only the card component');
        const holder = Boolean(options && options.hasHolderName);
        let fields = null;
        let valid = false;
        const component = {
          get isValid() { return valid; },
          mount(target) {
            const host = typeof target === 'string' ? document.querySelector(target) : target;
            fields = framedFields('adyen-fake', '/checkoutshopper/securedfields', {
              locale: config.locale || 'en-US', key: config.clientKey, holder: holder ? '1' : '', title: 'Card details',
            }, host);
            fields.on('change', (state) => { valid = state.complete; if (config.onChange) config.onChange({ isValid: valid }, component); });
            fields.on('enter', () => { if (options && options.onEnterKeyPressed) options.onEnterKeyPressed(); });
            return component;
          },
          showValidation() { if (fields) fields.post('validate'); },
          async submit() {
            if (!fields) return;
            const answer = await fields.tokenize();
            if (answer.error) {
              if (answer.error.type !== 'validation_error' && config.onError) config.onError(answer.error, component);
              return;
            }
            // Adyen Web hands onSubmit the card's encrypted fields (opaque to everyone but Adyen).
            const paymentMethod = Object.assign({ type: 'scheme' }, answer.encrypted);
            config.onSubmit({ isValid: true, data: { paymentMethod } }, component);
          },
          focus() { if (fields) fields.post('focus'); },
          unmount() { if (fields) fields.destroy(); fields = null; },
        };
        return component;
      },
    };
  };
})();
`);
}
