import type { Texts } from '../locales.ts';

/** What the frame shows; `document.body.dataset.state` names it for styles, tests and screenshots. */
export type FrameState =
  | 'loading'
  | 'form'
  | 'paying'
  | 'succeeded'
  | 'processing'
  | 'declined'
  | 'expired'
  | 'session_invalid'
  | 'denied'
  | 'requires_action';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function show(state: FrameState, ...children: Node[]): HTMLElement {
  const app = document.getElementById('app');
  if (!app) throw new Error('the frame page has no #app');
  document.body.dataset.state = state;
  app.replaceChildren(...children);
  return app;
}

export function renderLoading(texts: Texts): void {
  show('loading', element('p', { role: 'status', class: 'status' }, texts.loading));
}

/** A final or waiting state: a heading that takes focus (read out by screen readers) and a text. */
export function renderMessage(
  state: FrameState,
  title: string,
  body: string,
  link?: { href: string; text: string },
): void {
  const heading = element('h1', { tabindex: '-1' }, title);
  const box = element('div', { class: `message message-${state}` });
  box.append(heading, element('p', {}, body));
  if (link) {
    // target=_top: a click is a user gesture, which every browser lets a frame use to move the tab.
    box.append(element('a', { href: link.href, target: '_top', class: 'button' }, link.text));
  }
  show(state, box);
  heading.focus();
}

export interface FormView {
  payButton: HTMLButtonElement;
  cancelButton: HTMLButtonElement;
  hostedFrame: HTMLIFrameElement;
  setBusy(busy: boolean): void;
  setError(message: string): void;
}

export function renderForm(texts: Texts, amount: string, hostedFieldsUrl: string): FormView {
  const heading = element('h1', {}, texts.heading);
  const hostedFrame = element('iframe', {
    src: hostedFieldsUrl,
    title: texts.hostedFieldsFrameTitle,
    class: 'hosted-fields',
  });
  const help = element('p', { class: 'help', id: 'card-help' }, texts.cardHelp);
  const error = element('p', { class: 'error', id: 'form-error', role: 'alert' });
  const payLabel = texts.payAmount(amount);
  const payButton = element('button', { type: 'button', id: 'pay', class: 'primary' }, payLabel);
  payButton.setAttribute('aria-describedby', 'card-help form-error');
  const cancelButton = element('button', { type: 'button', id: 'cancel', class: 'secondary' }, texts.cancel);
  const actions = element('div', { class: 'actions' });
  actions.append(payButton, cancelButton);
  const form = element('section', { 'aria-labelledby': 'checkout-heading' });
  heading.id = 'checkout-heading';
  form.append(heading, hostedFrame, help, error, actions);
  show('form', form);

  return {
    payButton,
    cancelButton,
    hostedFrame,
    setBusy(busy) {
      document.body.dataset.state = busy ? 'paying' : 'form';
      payButton.disabled = busy;
      cancelButton.disabled = busy;
      payButton.setAttribute('aria-busy', String(busy));
      payButton.textContent = busy ? texts.paying : payLabel;
    },
    setError(message) {
      error.textContent = message;
    },
  };
}

/** The amount for people: `$12.34`, `12,34 €`, `¥500`, from integer minor units. */
export function formatAmount(amountMinor: number, currency: string, locale: string): string {
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    const exponent = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amountMinor / 10 ** exponent);
  } catch {
    return `${amountMinor} ${currency} (minor units)`;
  }
}
