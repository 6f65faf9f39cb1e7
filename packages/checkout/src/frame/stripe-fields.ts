import {
  type CardComponentAdapter,
  type CardSubmitResult,
  componentErrorLine,
  loadGatewayScript,
} from './hosted-fields.ts';

/** The part of Stripe.js the frame uses (`Stripe(pk).elements().create('card')`). */
interface StripeCardElement {
  mount(target: HTMLElement): void;
  on(event: 'change', listener: (event: { error?: { message?: string } }) => void): void;
  focus(): void;
  destroy(): void;
}
interface StripeJs {
  elements(options?: { locale?: string }): { create(type: 'card', options?: object): StripeCardElement };
  createPaymentMethod(request: {
    type: 'card';
    card: StripeCardElement;
  }): Promise<{ paymentMethod?: { id: string }; error?: { type?: string; message?: string } }>;
}
type StripeFactory = (publishableKey: string, options?: { locale?: string }) => StripeJs;

/**
 * Stripe's card element, from Stripe.js loaded at the configured origin. Its fields live in
 * Stripe's frames; its errors come as events and are written once, under it.
 */
export const stripeAdapter: CardComponentAdapter = {
  async mount(context) {
    if (!context.publicKey) throw new Error('no Stripe publishable key is configured');
    await loadGatewayScript(context.componentUrl);
    const factory = Reflect.get(window, 'Stripe') as StripeFactory | undefined;
    if (typeof factory !== 'function') throw new Error('Stripe.js did not load');
    const stripe = factory(context.publicKey, { locale: context.locale });
    const card = stripe.elements({ locale: context.locale }).create('card', { hidePostalCode: true });
    const host = document.createElement('div');
    host.className = 'gateway-component';
    context.container.append(host);
    const errorLine = componentErrorLine(context.container);
    card.mount(host);
    card.on('change', (event) => {
      errorLine.textContent = event.error?.message ?? '';
    });
    return {
      async submit(): Promise<CardSubmitResult> {
        const { paymentMethod, error } = await stripe.createPaymentMethod({ type: 'card', card });
        if (paymentMethod) {
          errorLine.textContent = '';
          return { kind: 'token', token: paymentMethod.id };
        }
        if (error?.type === 'api_connection_error') return { kind: 'unavailable' };
        errorLine.textContent = error?.message ?? '';
        return { kind: 'invalid' };
      },
      focus: () => card.focus(),
      destroy() {
        card.destroy();
        host.remove();
        errorLine.remove();
      },
    };
  },
};
