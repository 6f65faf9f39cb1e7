import { ancestorOrigins, type CardComponentAdapter, type CardSubmitResult } from './hosted-fields.ts';

function messageOf(data: unknown): { type: string; token?: unknown; height?: unknown } | null {
  if (typeof data !== 'object' || data === null) return null;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && type.startsWith('paygate-sim:') ? (data as { type: string }) : null;
}

/**
 * The simulated gateway's hosted fields: a page of the gateway's origin in an iframe, driven by
 * postMessage (`paygate-sim:submit` → `paygate-sim:token` | `paygate-sim:invalid`).
 */
export const simAdapter: CardComponentAdapter = {
  async mount(context) {
    const url = new URL(context.componentUrl);
    // The fields post the token to this frame only; the pages above may frame them too.
    url.searchParams.set('parent_origin', location.origin);
    url.searchParams.set('ancestor_origins', ancestorOrigins(context.parentOrigin).join(' '));
    url.searchParams.set('locale', context.locale);
    const iframe = document.createElement('iframe');
    iframe.src = url.href;
    iframe.title = context.texts.hostedFieldsFrameTitle;
    iframe.className = 'hosted-fields';
    context.container.append(iframe);

    let pending: ((result: CardSubmitResult) => void) | null = null;
    const settle = (result: CardSubmitResult) => {
      const resolve = pending;
      pending = null;
      resolve?.(result);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== context.gatewayOrigin || event.source !== iframe.contentWindow) return;
      const message = messageOf(event.data);
      if (!message) return;
      if (message.type === 'paygate-sim:resize' && typeof message.height === 'number') {
        iframe.style.height = `${Math.min(Math.max(Math.ceil(message.height), 80), 1200)}px`;
      } else if (message.type === 'paygate-sim:submit-request') {
        context.onSubmitRequest();
      } else if (message.type === 'paygate-sim:token' && typeof message.token === 'string') {
        settle({ kind: 'token', token: message.token });
      } else if (message.type === 'paygate-sim:invalid') {
        settle({ kind: 'invalid' });
      }
    };
    window.addEventListener('message', onMessage);
    await new Promise<void>((resolve) => {
      iframe.addEventListener('load', () => resolve(), { once: true });
    });

    return {
      submit() {
        return new Promise<CardSubmitResult>((resolve) => {
          if (pending) {
            resolve({ kind: 'invalid' });
            return;
          }
          pending = resolve;
          iframe.contentWindow?.postMessage({ type: 'paygate-sim:submit' }, context.gatewayOrigin);
          // A gateway that never answers must not leave the Pay button busy for ever.
          setTimeout(() => {
            if (pending === resolve) settle({ kind: 'unavailable' });
          }, 20_000);
        });
      },
      focus() {
        iframe.contentWindow?.postMessage({ type: 'paygate-sim:focus' }, context.gatewayOrigin);
      },
      destroy() {
        window.removeEventListener('message', onMessage);
        settle({ kind: 'invalid' });
        iframe.remove();
      },
    };
  },
};
