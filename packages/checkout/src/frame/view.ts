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
): MessageView {
  const heading = element('h1', { tabindex: '-1', id: 'message-heading' }, title);
  const text = element('p', { id: 'message-body' }, body);
  const box = element('div', { class: `message message-${state}` });
  box.append(heading, text);
  if (link) {
    // target=_top: a click is a user gesture, which every browser lets a frame use to move the tab.
    box.append(element('a', { href: link.href, target: '_top', class: 'button' }, link.text));
  }
  show(state, box);
  heading.focus();
  return {
    addAction(label, onClick) {
      const button = element('button', { type: 'button', class: 'primary', id: 'retry' }, label);
      button.addEventListener('click', () => onClick(button));
      box.append(button);
      return button;
    },
    setBody(message) {
      text.textContent = message;
    },
  };
}

export interface MessageView {
  /** A button under the message (one: "Try another card"). */
  addAction(label: string, onClick: (button: HTMLButtonElement) => void): HTMLButtonElement;
  setBody(message: string): void;
}

export interface FormView {
  /** Presses are ignored while busy (`aria-disabled`). */
  payButton: HTMLButtonElement;
  cancelButton: HTMLButtonElement;
  /** Where the gateway's card component goes. */
  cardContainer: HTMLElement;
  setBusy(busy: boolean): void;
  setError(message: string): void;
}

/**
 * The form: the amount, the gateway's card component, one Pay button and Cancel. Only the frame's
 * own problems (the gateway unavailable) are written here; field errors are the component's.
 */
export function renderForm(texts: Texts, amount: string, savesMethodFor: string | null = null): FormView {
  const heading = element('h1', { id: 'checkout-heading' }, texts.heading);
  const amountLine = element('p', { class: 'amount' }, amount);
  const header = element('div', { class: 'form-header' });
  header.append(heading, amountLine);
  const cardContainer = element('div', { class: 'card-fields' });
  const help = element('p', { class: 'help', id: 'card-help' }, texts.cardHelp);
  const error = element('p', { class: 'error', id: 'form-error', role: 'alert' });
  const payLabel = texts.payAmount(amount);
  const payButton = element('button', { type: 'button', id: 'pay', class: 'primary' }, payLabel);
  payButton.setAttribute('aria-describedby', 'form-error card-help');
  const cancelButton = element('button', { type: 'button', id: 'cancel', class: 'secondary' }, texts.cancel);
  const actions = element('div', { class: 'actions' });
  actions.append(payButton, cancelButton);
  const form = element('section', { 'aria-labelledby': 'checkout-heading' });
  if (savesMethodFor === null) form.append(header, cardContainer, error, actions, help);
  else {
    // Before the Pay button, and read with it: paying is the payer's consent to the saving.
    const consent = element('p', { class: 'consent', id: 'save-consent' }, texts.saveConsent(savesMethodFor));
    payButton.setAttribute('aria-describedby', 'form-error save-consent card-help');
    form.append(header, cardContainer, error, consent, actions, help);
  }
  show('form', form);

  return {
    payButton,
    cancelButton,
    cardContainer,
    setBusy(busy) {
      document.body.dataset.state = busy ? 'paying' : 'form';
      // aria-disabled, not disabled: a disabled button drops the keyboard focus to the page.
      payButton.setAttribute('aria-disabled', String(busy));
      cancelButton.setAttribute('aria-disabled', String(busy));
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
