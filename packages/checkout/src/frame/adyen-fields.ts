import { type CardComponentAdapter, type CardSubmitResult, loadGatewayScript } from './hosted-fields.ts';

/** The part of Adyen Web the frame uses (`AdyenCheckout(config)`, `create('card')`). */
interface AdyenCardComponent {
  readonly isValid: boolean;
  mount(target: HTMLElement): AdyenCardComponent;
  showValidation(): void;
  submit(): void;
  focus?(): void;
  unmount(): void;
}
interface AdyenSubmitState {
  data: { paymentMethod: Record<string, unknown> };
}

/**
 * The payment method token of Adyen Web's card state: its `paymentMethod` as JSON (the card's
 * encrypted fields, which only Adyen can read), or a stored payment method's id.
 */
function tokenOf(paymentMethod: Record<string, unknown>): string | null {
  if (typeof paymentMethod.encryptedCardNumber === 'string') return JSON.stringify(paymentMethod);
  const stored = paymentMethod.storedPaymentMethodId;
  return typeof stored === 'string' ? stored : null;
}
type AdyenCheckoutFactory = (config: {
  environment: 'test' | 'live';
  clientKey: string;
  locale: string;
  analytics: { enabled: boolean };
  onSubmit(state: AdyenSubmitState): void;
  onError(error: { type?: string }): void;
}) => Promise<{ create(type: 'card', options: object): AdyenCardComponent }>;

/**
 * Adyen Web's card component, loaded at the configured origin. Its secured fields show their own
 * errors (so the frame adds none); `onSubmit` gives the card's encrypted fields, passed on as the
 * payment method token (Paygate forwards them to Adyen's `/payments` unread).
 */
export const adyenAdapter: CardComponentAdapter = {
  async mount(context) {
    const clientKey = context.publicKey;
    if (!clientKey) throw new Error('no Adyen client key is configured');
    await loadGatewayScript(context.componentUrl);
    const factory = Reflect.get(window, 'AdyenCheckout') as AdyenCheckoutFactory | undefined;
    if (typeof factory !== 'function') throw new Error('Adyen Web did not load');
    let pending: ((result: CardSubmitResult) => void) | null = null;
    const settle = (result: CardSubmitResult) => {
      const resolve = pending;
      pending = null;
      resolve?.(result);
    };
    const checkout = await factory({
      environment: clientKey.startsWith('live_') ? 'live' : 'test',
      clientKey,
      locale: context.locale === 'es' ? 'es-ES' : 'en-US',
      analytics: { enabled: false },
      onSubmit(state) {
        const token = tokenOf(state.data.paymentMethod);
        settle(token ? { kind: 'token', token } : { kind: 'unavailable' });
      },
      onError(error) {
        settle(error.type === 'network' ? { kind: 'unavailable' } : { kind: 'invalid' });
      },
    });
    const host = document.createElement('div');
    host.className = 'gateway-component';
    context.container.append(host);
    const card = checkout
      .create('card', {
        hasHolderName: true,
        holderNameRequired: true,
        onEnterKeyPressed: () => context.onSubmitRequest(),
      })
      .mount(host);
    return {
      submit() {
        if (!card.isValid) {
          card.showValidation();
          return Promise.resolve({ kind: 'invalid' });
        }
        return new Promise<CardSubmitResult>((resolve) => {
          pending = resolve;
          card.submit();
          setTimeout(() => {
            if (pending === resolve) settle({ kind: 'unavailable' });
          }, 20_000);
        });
      },
      focus: () => card.focus?.(),
      destroy() {
        settle({ kind: 'invalid' });
        card.unmount();
        host.remove();
      },
    };
  },
};
