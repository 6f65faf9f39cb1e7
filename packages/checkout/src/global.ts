// The script served at `<checkout url>/v1/checkout.js`: it defines `window.Paygate`, and takes the
// checkout address from its own `src`, so the frame always comes from where the script came from.
import { CHECKOUT_VERSION, Paygate, PaygateConfigurationError, setDefaultCheckoutUrl } from './component.ts';

declare global {
  interface Window {
    Paygate: typeof Paygate & { version: string; ConfigurationError: typeof PaygateConfigurationError };
  }
}

const script = document.currentScript;
if (script instanceof HTMLScriptElement && script.src) {
  // `<base>/v1/checkout.js` → `<base>`
  setDefaultCheckoutUrl(new URL('..', script.src).href);
}
window.Paygate = Object.assign(Paygate, {
  version: CHECKOUT_VERSION,
  ConfigurationError: PaygateConfigurationError,
});
