// The hosted checkout frame, served by the service at its own origin. It receives the client
// secret from the merchant page, reads the intent, shows the gateway's hosted card field, confirms
// with the token it issues, and reports the outcome to the merchant page.
import { type Texts, textsFor } from '../locales.ts';
import {
  type CheckoutErrorCode,
  type FramePayload,
  intentIdOfClientSecret,
  MESSAGE_SOURCE,
  parseInitMessage,
} from '../protocol.ts';
import { type ApiResult, FrameApi, type FrameIntent } from './api.ts';
import { hostedFieldsAddress, hostedFieldsProtocol } from './hosted-fields.ts';
import { type FormView, formatAmount, renderForm, renderLoading, renderMessage } from './view.ts';

interface FrameConfig {
  mode: 'checkout' | 'denied' | 'invalid_key';
  parentOrigin: string;
  publishableKey: string;
  locale: string;
}

function readConfig(): FrameConfig {
  const node = document.getElementById('paygate-frame-config');
  return JSON.parse(node?.textContent ?? '{}') as FrameConfig;
}

const config = readConfig();
const texts: Texts = textsFor(config.locale);
document.documentElement.lang = config.locale.startsWith('es') ? 'es' : 'en';

/** Every message to the merchant page goes to its exact origin, never to '*'. */
function tell(message: FramePayload): void {
  if (window.parent === window) return;
  window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, config.parentOrigin);
}

function fail(code: CheckoutErrorCode, title: string, body: string): void {
  renderMessage(stateOfError(code), title, body);
  tell({ type: 'error', code, message: body });
}

function stateOfError(code: CheckoutErrorCode) {
  switch (code) {
    case 'payment_failed':
      return 'declined' as const;
    case 'intent_expired':
      return 'expired' as const;
    case 'session_invalid':
      return 'session_invalid' as const;
    case 'embed_origin_denied':
      return 'denied' as const;
  }
}

const sessionInvalid = () => fail('session_invalid', texts.sessionTitle, texts.sessionBody);

/** The body's own height (the document's is at least the frame's, so it could only grow). */
function reportResize(): void {
  tell({ type: 'resize', height: Math.ceil(document.body.getBoundingClientRect().height) });
}

/** Acts on an intent's status; true when the payer may still pay (the form stays). */
function settle(intent: FrameIntent): boolean {
  switch (intent.status) {
    case 'SUCCEEDED':
      renderMessage('succeeded', texts.succeededTitle, texts.succeededBody);
      tell({ type: 'success', paymentIntentId: intent.id, status: 'SUCCEEDED' });
      return false;
    case 'PROCESSING':
      renderMessage('processing', texts.processingTitle, texts.processingBody);
      tell({ type: 'success', paymentIntentId: intent.id, status: 'PROCESSING' });
      return false;
    case 'FAILED':
      fail('payment_failed', texts.declinedTitle, texts.declinedBody);
      return false;
    case 'EXPIRED':
      fail('intent_expired', texts.expiredTitle, texts.expiredBody);
      return false;
    case 'CANCELED':
      // The intent cannot be paid any more; like an expired one, the shop must create a new one.
      fail('intent_expired', texts.expiredTitle, texts.canceledBody);
      return false;
    case 'REQUIRES_ACTION':
      if (intent.redirect_url) {
        renderMessage('requires_action', texts.actionTitle, texts.actionBody, {
          href: intent.redirect_url,
          text: texts.actionContinue,
        });
        return false;
      }
      sessionInvalid();
      return false;
    default:
      return true;
  }
}

async function onToken(api: FrameApi, form: FormView, token: string): Promise<void> {
  form.setBusy(true);
  form.setError('');
  let result: ApiResult = await api.confirm(token);
  // After a lost answer or a state conflict, read the intent instead of confirming again.
  if (
    result.kind === 'network' ||
    (result.kind === 'problem' && result.code === 'invalid_state_transition')
  ) {
    result = await api.retrieve();
  }
  if (result.kind === 'intent') {
    if (result.intent.status === 'REQUIRES_ACTION' && result.intent.redirect_url) {
      settle(result.intent);
      tell({ type: 'redirect', url: result.intent.redirect_url });
      return;
    }
    if (settle(result.intent)) form.setBusy(false);
    return;
  }
  if (result.kind === 'problem') {
    if (result.status === 402) {
      fail('payment_failed', texts.declinedTitle, texts.declinedBody);
      return;
    }
    if (result.status === 401 || result.status === 404) {
      sessionInvalid();
      return;
    }
    if (result.intent && !settle(result.intent)) return;
    form.setError(result.code === 'gateway_unavailable' ? texts.unavailable : texts.retryLater);
  } else {
    form.setError(texts.retryLater);
  }
  form.setBusy(false);
}

function showForm(api: FrameApi, intent: FrameIntent, locale: string): void {
  const checkout = intent.checkout;
  if (!checkout?.hosted_fields_url || !checkout.gateway_origin) {
    sessionInvalid();
    return;
  }
  const gatewayOrigin = checkout.gateway_origin;
  const protocol = hostedFieldsProtocol(checkout.gateway_id);
  const form = renderForm(
    texts,
    formatAmount(intent.amount_minor, intent.currency, locale),
    hostedFieldsAddress(checkout.hosted_fields_url, config.parentOrigin),
  );
  let paying = false;
  window.addEventListener('message', (event) => {
    if (event.origin !== gatewayOrigin || event.source !== form.hostedFrame.contentWindow) return;
    const read = protocol.read(event.data);
    if (!read || paying) return;
    if ('error' in read) {
      form.setError(read.error);
      return;
    }
    paying = true;
    void onToken(api, form, read.token).finally(() => {
      paying = false;
    });
  });
  form.payButton.addEventListener('click', () => {
    form.setError('');
    form.hostedFrame.contentWindow?.postMessage(protocol.submitMessage, gatewayOrigin);
  });
  form.cancelButton.addEventListener('click', () => tell({ type: 'cancel' }));
}

async function start(clientSecret: string, publishableKey: string, locale: string): Promise<void> {
  const intentId = intentIdOfClientSecret(clientSecret);
  if (publishableKey !== config.publishableKey || intentId === null) {
    sessionInvalid();
    return;
  }
  const api = new FrameApi(publishableKey, clientSecret, intentId);
  const result = await api.retrieve();
  if (result.kind !== 'intent') {
    sessionInvalid();
    return;
  }
  tell({ type: 'session' });
  if (settle(result.intent)) showForm(api, result.intent, locale);
}

function main(): void {
  new ResizeObserver(reportResize).observe(document.body);
  if (config.mode === 'denied') {
    fail('embed_origin_denied', texts.deniedTitle, texts.deniedBody(config.parentOrigin));
    return;
  }
  if (config.mode !== 'checkout') {
    sessionInvalid();
    return;
  }
  renderLoading(texts);
  let initialised = false;
  window.addEventListener('message', (event) => {
    // Only the merchant page that the service let frame us, and only once.
    if (initialised || event.origin !== config.parentOrigin || event.source !== window.parent) return;
    const init = parseInitMessage(event.data);
    if (!init) return;
    initialised = true;
    void start(init.clientSecret, init.publishableKey, config.locale);
  });
  tell({ type: 'ready' });
}

main();
