import { textsFor } from './locales.ts';
import {
  type CheckoutErrorCode,
  HANDSHAKE_TIMEOUT_MS,
  type InitMessage,
  isPublishableKey,
  MESSAGE_SOURCE,
  parseFrameMessage,
  type RetryAnswerMessage,
} from './protocol.ts';

export const CHECKOUT_VERSION = '1.0.0';

/** Thrown at once, in the merchant's page, for a key or option that can never work. */
export class PaygateConfigurationError extends Error {
  override readonly name = 'PaygateConfigurationError';
}

export interface PaygateOptions {
  /**
   * Where the service serves the checkout: `<PAYGATE_PUBLIC_URL>/checkout`. The script loaded from
   * `<checkout url>/v1/checkout.js` knows it; an application bundling this module must give it.
   */
  checkoutUrl?: string;
}

export interface CheckoutSuccess {
  paymentIntentId: string;
  /**
   * `PROCESSING` when the gateway decides later: fulfil only on the `payment_intent.succeeded`
   * webhook. `REQUIRES_CAPTURE` for an intent created with `capture_method: 'manual'`: the payment
   * is authorised, and your server captures it (`payment_intent.requires_capture`).
   */
  status: 'SUCCEEDED' | 'REQUIRES_CAPTURE' | 'PROCESSING';
}

export interface CheckoutError {
  code: CheckoutErrorCode;
  message: string;
}

/** What `onRetry` receives: the payer wants to try another card after `payment_failed`. */
export interface CheckoutRetry {
  /** The declined intent (now `FAILED`; it cannot be paid again). */
  failedPaymentIntentId: string;
}

export interface CheckoutOptions {
  /** The intent's client secret, handed to the page by the merchant's server. */
  clientSecret: string;
  /** A CSS selector or an element; the frame is appended to it. */
  container: string | Element;
  /** A BCP 47 tag such as `en` or `es-MX`; unsupported languages fall back to English. */
  locale?: string;
  onSuccess?: (result: CheckoutSuccess) => void;
  onError?: (error: CheckoutError) => void;
  onCancel?: () => void;
  /**
   * Offers "Try another card" after a decline. Called when the payer presses it: create a new
   * intent on your server and return its client secret (or a promise of it); the frame starts over
   * on it without a reload. A rejected promise shows "please reload". Without `onRetry` a decline
   * ends the checkout (`onError` with `payment_failed`).
   */
  onRetry?: (retry: CheckoutRetry) => string | Promise<string>;
}

export interface CheckoutHandle {
  /** Removes the frame and the message listener. Calling it again does nothing. */
  unmount(): void;
}

export interface PaygateCheckout {
  checkout(options: CheckoutOptions): CheckoutHandle;
}

let defaultCheckoutUrl: string | null = null;

/** Set by the browser script from its own address, so `Paygate(pk)` needs nothing else. */
export function setDefaultCheckoutUrl(url: string): void {
  defaultCheckoutUrl = url;
}

function checkoutBase(url: string | undefined): string {
  const value = url ?? defaultCheckoutUrl;
  if (!value) {
    throw new PaygateConfigurationError(
      'checkoutUrl is required when the component is bundled: Paygate(pk, { checkoutUrl: "https://pay.example.com/checkout" })',
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new PaygateConfigurationError('checkoutUrl must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new PaygateConfigurationError('checkoutUrl must be an absolute http(s) URL');
  }
  return parsed.href.replace(/\/+$/, '');
}

function containerOf(container: CheckoutOptions['container']): Element {
  const element = typeof container === 'string' ? document.querySelector(container) : container;
  if (!(element instanceof Element)) {
    throw new PaygateConfigurationError(`container ${String(container)} is not an element of this page`);
  }
  return element;
}

/** Navigates the whole tab (the challenge page must not run inside a frame). */
function navigateTop(url: string): void {
  try {
    if (window.top) {
      window.top.location.href = url;
      return;
    }
  } catch {
    // A page that is itself framed by another origin may not move the top: move itself instead.
  }
  window.location.href = url;
}

/**
 * `Paygate(publishableKey)`: the embedded checkout. It only mounts the hosted frame and relays its
 * outcome; it never calls the API, authenticates nothing and never sees card data.
 *
 * @example
 * const paygate = Paygate('pk_test_...');
 * const handle = paygate.checkout({
 *   clientSecret, container: '#checkout', locale: 'es',
 *   onSuccess: ({ paymentIntentId }) => showThanks(paymentIntentId),
 *   onError: ({ code }) => (code === 'payment_failed' ? offerAnotherMethod() : location.reload()),
 *   onCancel: () => handle.unmount(),
 *   // Optional: "Try another card" after a decline, on a new intent from your server.
 *   onRetry: async () => (await fetch('/orders/42/new-intent', { method: 'POST' })).text(),
 * });
 */
export function Paygate(publishableKey: string, options: PaygateOptions = {}): PaygateCheckout {
  if (!isPublishableKey(publishableKey)) {
    throw new PaygateConfigurationError(
      'Paygate() takes a publishable key (pk_test_... or pk_live_...); a secret key must never reach a browser',
    );
  }
  const base = checkoutBase(options.checkoutUrl);
  return { checkout: (checkoutOptions) => mountCheckout(base, publishableKey, checkoutOptions) };
}

function mountCheckout(base: string, publishableKey: string, options: CheckoutOptions): CheckoutHandle {
  if (typeof options !== 'object' || options === null) {
    throw new PaygateConfigurationError('checkout() takes an options object');
  }
  if (typeof options.clientSecret !== 'string' || options.clientSecret === '') {
    throw new PaygateConfigurationError('clientSecret must be the payment intent’s client secret');
  }
  const container = containerOf(options.container);
  const locale = typeof options.locale === 'string' && options.locale !== '' ? options.locale : 'en';

  // Only the publishable key (not a secret) and this page's origin travel in the URL.
  const frameUrl = new URL(`${base}/v1/frame`);
  frameUrl.searchParams.set('pk', publishableKey);
  frameUrl.searchParams.set('origin', window.location.origin);
  frameUrl.searchParams.set('locale', locale);
  const frameOrigin = frameUrl.origin;

  const iframe = document.createElement('iframe');
  iframe.src = frameUrl.href;
  iframe.title = textsFor(locale).frameTitle;
  iframe.setAttribute('data-paygate-checkout', CHECKOUT_VERSION);
  iframe.style.cssText =
    'display:block;width:100%;min-height:120px;height:320px;border:0;background:transparent';

  let phase: 'handshake' | 'open' | 'done' | 'unmounted' = 'handshake';
  // After a payment_failed the frame may still ask for another card (once per decline).
  let retryable = false;
  let initSent = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const clearTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const fail = (error: CheckoutError) => {
    clearTimer();
    phase = 'done';
    options.onError?.(error);
  };

  const onMessage = (event: MessageEvent) => {
    if (phase === 'unmounted') return;
    if (event.origin !== frameOrigin || event.source !== iframe.contentWindow) return;
    const message = parseFrameMessage(event.data);
    // After the outcome the frame still shows it (and may resize), but reports nothing more,
    // except the payer's wish to try another card after a decline.
    if (!message) return;
    if (phase === 'done' && message.type !== 'resize' && !(message.type === 'retry' && retryable)) return;
    switch (message.type) {
      case 'ready': {
        if (initSent) return;
        initSent = true;
        const init: InitMessage = {
          source: MESSAGE_SOURCE,
          type: 'init',
          clientSecret: options.clientSecret,
          publishableKey,
          locale,
          retry: typeof options.onRetry === 'function',
        };
        iframe.contentWindow?.postMessage(init, frameOrigin);
        return;
      }
      case 'session':
        clearTimer();
        phase = 'open';
        return;
      case 'resize':
        iframe.style.height = `${message.height}px`;
        return;
      case 'success':
        clearTimer();
        phase = 'done';
        options.onSuccess?.({ paymentIntentId: message.paymentIntentId, status: message.status });
        return;
      case 'error':
        retryable = message.code === 'payment_failed' && typeof options.onRetry === 'function';
        fail({ code: message.code, message: message.message });
        return;
      case 'retry':
        retryable = false;
        void retryWith(message.paymentIntentId);
        return;
      case 'cancel':
        options.onCancel?.();
        return;
      case 'redirect':
        navigateTop(message.url);
        return;
    }
  };

  /** Asks the page for a new intent and hands its client secret to the frame, which starts over. */
  const retryWith = async (failedPaymentIntentId: string) => {
    let clientSecret: unknown;
    try {
      clientSecret = await options.onRetry?.({ failedPaymentIntentId });
    } catch {
      clientSecret = null;
    }
    if (phase === 'unmounted') return;
    const answer: RetryAnswerMessage =
      typeof clientSecret === 'string' && clientSecret !== ''
        ? { source: MESSAGE_SOURCE, type: 'reset', clientSecret }
        : { source: MESSAGE_SOURCE, type: 'retry_failed' };
    if (answer.type === 'reset') phase = 'open';
    iframe.contentWindow?.postMessage(answer, frameOrigin);
  };

  window.addEventListener('message', onMessage);
  timer = setTimeout(() => {
    if (phase !== 'handshake') return;
    fail({ code: 'session_invalid', message: textsFor(locale).handshakeTimeout });
  }, HANDSHAKE_TIMEOUT_MS);
  container.appendChild(iframe);

  return {
    unmount() {
      if (phase === 'unmounted') return;
      phase = 'unmounted';
      clearTimer();
      window.removeEventListener('message', onMessage);
      iframe.remove();
    },
  };
}
