/** The few fields of a payment intent and of a problem document that the frame reads. */
export interface FrameIntent {
  id: string;
  status: string;
  amount_minor: number;
  currency: string;
  redirect_url: string | null;
  checkout?: {
    gateway_id: string;
    hosted_fields_url: string | null;
    gateway_origin: string | null;
    component_key: string | null;
    component: string | null;
    /** The merchant the payer's method is saved for (setup_future_usage), or null. */
    saves_method_for: string | null;
  };
}

export type ApiResult =
  | { kind: 'intent'; intent: FrameIntent }
  | { kind: 'problem'; status: number; code: string; intent: FrameIntent | null }
  | { kind: 'network' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function intentOf(value: unknown): FrameIntent | null {
  if (!isRecord(value) || value.object !== 'payment_intent') return null;
  if (typeof value.id !== 'string' || typeof value.status !== 'string') return null;
  if (typeof value.amount_minor !== 'number' || typeof value.currency !== 'string') return null;
  const checkout = isRecord(value.checkout) ? value.checkout : null;
  return {
    id: value.id,
    status: value.status,
    amount_minor: value.amount_minor,
    currency: value.currency,
    redirect_url: typeof value.redirect_url === 'string' ? value.redirect_url : null,
    ...(checkout
      ? {
          checkout: {
            gateway_id: String(checkout.gateway_id),
            hosted_fields_url:
              typeof checkout.hosted_fields_url === 'string' ? checkout.hosted_fields_url : null,
            gateway_origin: typeof checkout.gateway_origin === 'string' ? checkout.gateway_origin : null,
            component_key: typeof checkout.component_key === 'string' ? checkout.component_key : null,
            component: typeof checkout.component === 'string' ? checkout.component : null,
            saves_method_for:
              typeof checkout.saves_method_for === 'string' ? checkout.saves_method_for : null,
          },
        }
      : {}),
  };
}

/**
 * The API is where the service is: the frame lives at `<service>/checkout/v1/frame`, so a service
 * under a path prefix (PAYGATE_PUBLIC_URL=https://example.com/pay) works too.
 */
function apiUrl(path: string): string {
  return new URL(`../..${path}`, location.href).href;
}

/**
 * The payer's two calls, made from the frame (the service's own origin) with the publishable key
 * and the client secret in headers, never in the URL. No cookies are sent.
 */
export class FrameApi {
  constructor(
    private readonly publishableKey: string,
    private readonly clientSecret: string,
    private readonly intentId: string,
  ) {}

  retrieve(): Promise<ApiResult> {
    return this.send('GET', `/v1/payment-intents/${this.intentId}`);
  }

  confirm(paymentMethodToken: string): Promise<ApiResult> {
    return this.send('POST', `/v1/payment-intents/${this.intentId}/confirm`, {
      payment_method_token: paymentMethodToken,
    });
  }

  private async send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult> {
    let response: Response;
    let parsed: unknown;
    try {
      response = await fetch(apiUrl(path), {
        method,
        credentials: 'omit',
        cache: 'no-store',
        headers: {
          'x-api-key': this.publishableKey,
          'x-client-secret': this.clientSecret,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      parsed = await response.json();
    } catch {
      return { kind: 'network' };
    }
    if (response.ok) {
      const intent = intentOf(parsed);
      return intent ? { kind: 'intent', intent } : { kind: 'network' };
    }
    const problem = isRecord(parsed) ? parsed : {};
    return {
      kind: 'problem',
      status: response.status,
      code: typeof problem.code === 'string' ? problem.code : 'internal_error',
      intent: intentOf(problem.payment_intent),
    };
  }
}
