// The hosted checkout frame, served by the service at its own origin. It receives the client
// secret from the merchant page, reads the intent, mounts the gateway's card component, confirms
// with the token it issues, and reports the outcome to the merchant page. After a decline it can
// start over on a new intent the page creates (`retry` → `reset`), without a reload.
import { resolveLocale, type Texts, textsFor } from '../locales.ts';
import {
  type CheckoutErrorCode,
  type FramePayload,
  intentIdOfClientSecret,
  MESSAGE_SOURCE,
  parseInitMessage,
  parseRetryAnswer,
} from '../protocol.ts';
import { type ApiResult, FrameApi, type FrameIntent } from './api.ts';
import { type CardComponent, cardComponentAdapter } from './hosted-fields.ts';
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
const language = resolveLocale(config.locale);
const texts: Texts = textsFor(config.locale);
document.documentElement.lang = language;
document.title = texts.pageTitle;

/** Every message to the merchant page goes to its exact origin, never to '*'. */
function tell(message: FramePayload): void {
  if (window.parent === window) return;
  window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, config.parentOrigin);
}

/** The session in this frame: the page's keys, whether it offers another card, what is mounted. */
const session = {
  publishableKey: '',
  retry: false,
  component: null as CardComponent | null,
  /** Set when the payer asked for another card: only then may the page send `reset`. */
  awaitingReset: false,
  /** Bumped by every (re)start, so an answer of an older intent is never applied. */
  generation: 0,
};

function dropComponent(): void {
  session.component?.destroy();
  session.component = null;
}

function fail(code: CheckoutErrorCode, title: string, body: string): void {
  dropComponent();
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

/** A decline: said once, here; the page hears `payment_failed` and, if it offers one, a new try. */
function declined(intentId: string): void {
  dropComponent();
  const body = session.retry ? texts.declinedRetryBody : texts.declinedBody;
  const view = renderMessage('declined', texts.declinedTitle, body);
  tell({ type: 'error', code: 'payment_failed', message: body });
  if (!session.retry) return;
  view.addAction(texts.tryAnotherCard, (button) => {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    button.setAttribute('aria-busy', 'true');
    view.setBody(texts.startingOver);
    session.awaitingReset = true;
    tell({ type: 'retry', paymentIntentId: intentId });
  });
}

/** The body's own height (the document's is at least the frame's, so it could only grow). */
function reportResize(): void {
  tell({ type: 'resize', height: Math.ceil(document.body.getBoundingClientRect().height) });
}

/** Acts on an intent's status; true when the payer may still pay (the form stays). */
function settle(intent: FrameIntent): boolean {
  switch (intent.status) {
    case 'SUCCEEDED':
      dropComponent();
      renderMessage('succeeded', texts.succeededTitle, texts.succeededBody);
      tell({ type: 'success', paymentIntentId: intent.id, status: 'SUCCEEDED' });
      return false;
    case 'REQUIRES_CAPTURE':
      // A manual intent: the payer's part is done once the payment is authorised.
      dropComponent();
      renderMessage('succeeded', texts.succeededTitle, texts.succeededBody);
      tell({ type: 'success', paymentIntentId: intent.id, status: 'REQUIRES_CAPTURE' });
      return false;
    case 'PROCESSING':
      dropComponent();
      renderMessage('processing', texts.processingTitle, texts.processingBody);
      tell({ type: 'success', paymentIntentId: intent.id, status: 'PROCESSING' });
      return false;
    case 'FAILED':
      declined(intent.id);
      return false;
    case 'EXPIRED':
      fail('intent_expired', texts.expiredTitle, texts.expiredBody);
      return false;
    case 'CANCELED':
      // The intent cannot be paid any more; like an expired one, the shop must create a new one.
      fail('intent_expired', texts.expiredTitle, texts.canceledBody);
      return false;
    case 'REQUIRES_ACTION':
      dropComponent();
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

async function confirmWith(api: FrameApi, intentId: string, form: FormView, token: string): Promise<void> {
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
      declined(intentId);
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

async function showForm(
  api: FrameApi,
  intent: FrameIntent,
  generation: number,
  focusCard: boolean,
): Promise<void> {
  const checkout = intent.checkout;
  const adapter = checkout ? cardComponentAdapter(checkout.component ?? checkout.gateway_id) : null;
  if (!checkout?.hosted_fields_url || !checkout.gateway_origin || !adapter) {
    sessionInvalid();
    return;
  }
  const form = renderForm(
    texts,
    formatAmount(intent.amount_minor, intent.currency, config.locale),
    checkout.saves_method_for,
  );
  let busy = false;
  const pay = async () => {
    const component = session.component;
    if (busy || !component) return;
    busy = true;
    form.setBusy(true);
    form.setError('');
    try {
      const result = await component.submit();
      if (generation !== session.generation) return;
      if (result.kind === 'token') {
        await confirmWith(api, intent.id, form, result.token);
        return;
      }
      if (result.kind === 'unavailable') form.setError(texts.unavailable);
      form.setBusy(false);
    } finally {
      busy = false;
    }
  };
  form.payButton.addEventListener('click', () => void pay());
  form.cancelButton.addEventListener('click', () => {
    if (!busy) tell({ type: 'cancel' });
  });
  let component: CardComponent;
  try {
    component = await adapter.mount({
      container: form.cardContainer,
      gatewayId: checkout.gateway_id,
      componentUrl: checkout.hosted_fields_url,
      gatewayOrigin: checkout.gateway_origin,
      publicKey: checkout.component_key,
      parentOrigin: config.parentOrigin,
      locale: language,
      texts,
      onSubmitRequest: () => form.payButton.click(),
    });
  } catch {
    if (generation === session.generation) form.setError(texts.componentUnavailable);
    return;
  }
  if (generation !== session.generation) {
    component.destroy();
    return;
  }
  session.component = component;
  // After "Try another card" the payer goes on typing: the keyboard focus is in the first field.
  if (focusCard) component.focus();
}

/** Reads the intent of `clientSecret` and shows what it allows; used at start and after `reset`. */
async function start(clientSecret: string, afterRetry: boolean): Promise<void> {
  session.generation += 1;
  const generation = session.generation;
  dropComponent();
  const intentId = intentIdOfClientSecret(clientSecret);
  if (session.publishableKey !== config.publishableKey || intentId === null) {
    sessionInvalid();
    return;
  }
  const api = new FrameApi(session.publishableKey, clientSecret, intentId);
  const result = await api.retrieve();
  if (generation !== session.generation) return;
  if (result.kind !== 'intent') {
    sessionInvalid();
    return;
  }
  tell({ type: 'session' });
  if (settle(result.intent)) await showForm(api, result.intent, generation, afterRetry);
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
    // Only the merchant page that the service let frame us.
    if (event.origin !== config.parentOrigin || event.source !== window.parent) return;
    if (!initialised) {
      const init = parseInitMessage(event.data);
      if (!init) return;
      initialised = true;
      session.publishableKey = init.publishableKey;
      session.retry = init.retry;
      void start(init.clientSecret, false);
      return;
    }
    const answer = session.awaitingReset ? parseRetryAnswer(event.data) : null;
    if (answer) session.awaitingReset = false;
    if (answer?.type === 'reset') {
      renderLoading(texts);
      void start(answer.clientSecret, true);
    } else if (answer?.type === 'retry_failed') {
      renderMessage('declined', texts.declinedTitle, texts.retryFailed);
    }
  });
  tell({ type: 'ready' });
}

main();
