/**
 * The gateway's card component inside the frame, one small adapter per gateway_id. Every adapter
 * puts the gateway's own fields (served from the gateway's origin, never this frame's) into a
 * container, and on `submit()` lets them check themselves and tokenise: the card data goes from
 * the payer's browser to the gateway only, and this frame gets a token. Field errors are shown by
 * the gateway's fields themselves, so the frame never repeats them.
 *
 * A new gateway adds one entry to `adapters`.
 */
import type { Texts } from '../locales.ts';
import { adyenAdapter } from './adyen-fields.ts';
import { simAdapter } from './sim-fields.ts';
import { stripeAdapter } from './stripe-fields.ts';

export type CardSubmitResult =
  /** A payment-method token for `confirm`. */
  | { kind: 'token'; token: string }
  /** The fields showed what is wrong (nothing for the frame to add). */
  | { kind: 'invalid' }
  /** The component could not answer (gateway unreachable): the frame says so. */
  | { kind: 'unavailable' };

export interface CardComponent {
  submit(): Promise<CardSubmitResult>;
  /** Moves the keyboard focus into the first field. */
  focus(): void;
  destroy(): void;
}

export interface CardComponentContext {
  container: HTMLElement;
  /** From the intent's `checkout` block: the gateway's component address and origin. */
  gatewayId: string;
  componentUrl: string;
  gatewayOrigin: string;
  /** The public key the gateway's component takes (Stripe publishable key, Adyen client key). */
  publicKey: string | null;
  /** The merchant page's origin (the pages above this frame must be allowed to frame the fields). */
  parentOrigin: string;
  locale: 'en' | 'es';
  texts: Texts;
  /** The payer pressed Enter inside the gateway's fields: the frame presses its Pay button. */
  onSubmitRequest(): void;
}

export interface CardComponentAdapter {
  mount(context: CardComponentContext): Promise<CardComponent>;
}

const adapters: Record<string, CardComponentAdapter> = {
  sim: simAdapter,
  stripe: stripeAdapter,
  adyen: adyenAdapter,
};

/** The adapter of a card component (the intent's `checkout.component`), or null for one the frame cannot mount. */
export function cardComponentAdapter(gatewayId: string): CardComponentAdapter | null {
  return Object.hasOwn(adapters, gatewayId) ? (adapters[gatewayId] ?? null) : null;
}

const loadedScripts = new Map<string, Promise<void>>();

/**
 * Loads a gateway's component script once per frame (the CSP lets in only the gateways' component
 * origins). A failed load is not kept, so a later mount tries again.
 */
export function loadGatewayScript(url: string): Promise<void> {
  let loading = loadedScripts.get(url);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.addEventListener('load', () => resolve(), { once: true });
      script.addEventListener('error', () => reject(new Error(`could not load ${url}`)), { once: true });
      document.head.append(script);
    });
    loadedScripts.set(url, loading);
    loading.catch(() => loadedScripts.delete(url));
  }
  return loading;
}

/** A line under a component whose fields leave their errors to the page (Stripe's card element). */
export function componentErrorLine(container: HTMLElement): HTMLElement {
  const line = document.createElement('p');
  line.className = 'error component-error';
  line.id = 'component-error';
  line.setAttribute('role', 'alert');
  container.append(line);
  return line;
}

/**
 * The pages above this frame, outermost last (Chromium gives `ancestorOrigins`; elsewhere the
 * merchant page is the only one known). A gateway framing its fields must allow all of them.
 */
export function ancestorOrigins(parentOrigin: string): string[] {
  return typeof location.ancestorOrigins === 'object' && location.ancestorOrigins.length > 0
    ? Array.from(location.ancestorOrigins).slice(0, 5)
    : [parentOrigin];
}
