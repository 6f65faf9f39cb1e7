import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructEvent, Paygate, WebhookSignatureError } from '@paygate/node';
import { type Order, OrderBook } from './orders.ts';
import { homePage, messagePage, payPage, returnPage } from './pages.ts';

export interface ShopOptions {
  /** The Paygate service, e.g. http://localhost:8080 (the API and, under /checkout, the frame). */
  paygateUrl: string;
  /** sk_test_…: used only here, on the server. */
  secretKey: string;
  /** pk_test_…: handed to the browser component. */
  publishableKey: string;
  /** whsec_…: may be set later with setWebhookSecret (the endpoint is registered with our URL). */
  webhookSecret?: string | null;
  port?: number;
  host?: string;
  /** The gateway_id of the shop's intents (default `sim`; `stripe`/`adyen` with their fakes). */
  gatewayId?: string;
}

export interface Shop {
  url: string;
  orders: OrderBook;
  setWebhookSecret(secret: string): void;
  close(): Promise<void>;
}

const BODY_LIMIT_BYTES = 64 * 1024;

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size > BODY_LIMIT_BYTES) throw new Error('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, status: number, type: string, body: string, csp?: string): void {
  response.statusCode = status;
  response.setHeader('content-type', type);
  response.setHeader('cache-control', 'no-store');
  if (csp) response.setHeader('content-security-policy', csp);
  response.end(body);
}

/** A small merchant site: it creates intents on its server, mounts the checkout, trusts webhooks. */
export async function startShop(options: ShopOptions): Promise<Shop> {
  const paygate = new Paygate({ apiKey: options.secretKey, baseUrl: options.paygateUrl });
  const checkoutUrl = `${options.paygateUrl.replace(/\/+$/, '')}/checkout`;
  const checkoutOrigin = new URL(checkoutUrl).origin;
  const orders = new OrderBook();
  let webhookSecret = options.webhookSecret ?? null;
  let shopUrl = '';

  // The shop's pages may load the component and frame the checkout, and talk only to the shop.
  const pageCsp = (nonce: string) =>
    [
      "default-src 'self'",
      `script-src 'nonce-${nonce}' ${checkoutOrigin}`,
      `style-src 'nonce-${nonce}'`,
      `frame-src ${checkoutOrigin}`,
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'self'",
    ].join('; ');
  const html = (response: ServerResponse, status: number, render: (nonce: string) => string) => {
    const nonce = randomBytes(16).toString('base64');
    send(response, status, 'text/html; charset=utf-8', render(nonce), pageCsp(nonce));
  };

  /** Creates the order's next intent (the first, or a new one after a decline) on Paygate. */
  async function createIntentFor(order: Order, expiresIn: string | null): Promise<void> {
    const intent = await paygate.paymentIntents.create(
      {
        amount_minor: order.amountMinor,
        currency: order.currency,
        gateway_id: options.gatewayId ?? 'sim',
        metadata: { order_id: order.id },
        return_url: `${shopUrl}/return?order=${encodeURIComponent(order.id)}`,
        ...(expiresIn ? { expires_in_seconds: Number(expiresIn) } : {}),
      },
      { idempotencyKey: orders.attemptKey(order) },
    );
    if (!intent.client_secret) throw new Error('the create response carries no client_secret');
    orders.attachIntent(order, intent.id, intent.client_secret);
  }

  async function createOrder(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams((await readBody(request)).toString('utf8'));
    const amountMinor = Number(form.get('amount_minor') ?? 2500);
    const currency = form.get('currency') ?? 'USD';
    const order = orders.create(amountMinor, currency);
    await createIntentFor(order, form.get('expires_in_seconds'));
    const locale = form.get('locale');
    const query = locale ? `?locale=${encodeURIComponent(locale)}` : '';
    response.statusCode = 303;
    response.setHeader('location', `/orders/${order.id}/pay${query}`);
    response.end();
  }

  /**
   * "Try another card": the page asks for a new intent after a decline. The shop's server decides:
   * only when the order's current intent really FAILED (asked of Paygate, not of the browser) is a
   * new one created; asking again for the same declined intent gives the same new one.
   */
  async function retryOrder(order: Order, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = JSON.parse((await readBody(request)).toString('utf8') || '{}') as {
      failed_payment_intent_id?: unknown;
    };
    const failedId = typeof body.failed_payment_intent_id === 'string' ? body.failed_payment_intent_id : '';
    const known = order.paymentIntentIds.indexOf(failedId);
    if (known === -1) return send(response, 404, 'application/json', '{"error":"not this order\'s payment"}');
    if (known === order.paymentIntentIds.length - 1) {
      const current = await paygate.paymentIntents.retrieve(failedId);
      if (current.status !== 'FAILED') {
        return send(response, 409, 'application/json', '{"error":"the payment did not fail"}');
      }
      await createIntentFor(order, null);
    }
    send(response, 200, 'application/json', JSON.stringify({ client_secret: order.clientSecret }));
  }

  /** A full refund of the order's paid intent, from the shop's server; the webhook says how it ends. */
  async function refundOrder(order: Order, response: ServerResponse): Promise<void> {
    if (!order.paymentIntentId || order.paymentStatus !== 'SUCCEEDED') {
      return send(response, 409, 'application/json', '{"error":"the order is not paid"}');
    }
    const refund = await paygate.refunds.create(
      { payment_intent_id: order.paymentIntentId },
      { idempotencyKey: `${order.idempotencyKey}.refund` },
    );
    order.refundStatus = order.refundStatus ?? refund.status;
    send(response, 200, 'application/json', JSON.stringify({ refund_id: refund.id, status: refund.status }));
  }

  async function receiveWebhook(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // 1. the raw body, before any parser; 2. the signature; 3. dedupe; 4. answer fast.
    const rawBody = await readBody(request);
    if (!webhookSecret) return send(response, 503, 'text/plain', 'webhook secret not configured');
    let event: ReturnType<typeof constructEvent>;
    try {
      const header = request.headers['service-signature'];
      event = constructEvent(rawBody, typeof header === 'string' ? header : null, webhookSecret);
    } catch (error) {
      if (error instanceof WebhookSignatureError) return send(response, 400, 'text/plain', 'bad signature');
      throw error;
    }
    const firstDelivery = orders.firstDelivery(event.id);
    if (firstDelivery && event.type.startsWith('refund.')) {
      const refund = event.data.object as { payment_intent_id?: unknown; status?: unknown };
      const order =
        typeof refund.payment_intent_id === 'string'
          ? orders.byPaymentIntent(refund.payment_intent_id)
          : null;
      if (order && typeof refund.status === 'string') {
        order.events.push(event.type);
        order.refundStatus = refund.status;
      }
    }
    if (firstDelivery && event.type.startsWith('payment_intent.')) {
      const object = event.data.object as { id?: unknown; status?: unknown };
      const order = typeof object.id === 'string' ? orders.byPaymentIntent(object.id) : null;
      if (order && typeof object.status === 'string') {
        order.events.push(event.type);
        // 5. Unknown types are ignored; the status inside data.object is what counts, not arrival order.
        // Only the current attempt's intent moves the order (a late event of a declined one does not).
        if (order.paymentStatus !== 'SUCCEEDED' && object.id === order.paymentIntentId) {
          order.paymentStatus = object.status;
        }
      }
    }
    send(response, 200, 'application/json', '{"received":true}');
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://shop.invalid');
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/') return html(response, 200, homePage);
    if (method === 'POST' && url.pathname === '/orders') return createOrder(request, response);
    if (method === 'POST' && url.pathname === '/webhooks/paygate') return receiveWebhook(request, response);

    const actionPath = /^\/orders\/(order_\d+)\/(retry|refund)$/.exec(url.pathname);
    if (method === 'POST' && actionPath) {
      const order = orders.get(actionPath[1] ?? '');
      if (!order) return send(response, 404, 'application/json', '{"error":"no such order"}');
      return actionPath[2] === 'retry' ? retryOrder(order, request, response) : refundOrder(order, response);
    }
    const orderPath = /^\/orders\/(order_\d+)\/(pay|status)$/.exec(url.pathname);
    if (method === 'GET' && orderPath) {
      const order = orders.get(orderPath[1] ?? '');
      if (!order) return html(response, 404, (nonce) => messagePage('Not found', 'No such order.', nonce));
      if (orderPath[2] === 'status') {
        const status = {
          order_id: order.id,
          payment_intent_id: order.paymentIntentId,
          payment_status: order.paymentStatus,
          refund_status: order.refundStatus,
          events: order.events,
        };
        return send(response, 200, 'application/json', JSON.stringify(status));
      }
      const locale = url.searchParams.get('locale') ?? 'en';
      return html(response, 200, (nonce) =>
        payPage(order, { checkoutUrl, publishableKey: options.publishableKey, locale, nonce }),
      );
    }
    if (method === 'GET' && url.pathname === '/return') {
      // The order names the payment; what the gateway appended (Paygate's intent id from the
      // simulator, the gateway's own reference from Stripe or Adyen) decides nothing: the webhook does.
      const order = orders.get(url.searchParams.get('order') ?? '');
      if (!order?.paymentIntentId) {
        return html(response, 404, (nonce) => messagePage('Not found', 'No such order.', nonce));
      }
      const paymentIntentId = order.paymentIntentId;
      return html(response, 200, (nonce) => returnPage(order, paymentIntentId, nonce));
    }
    return html(response, 404, (nonce) => messagePage('Not found', 'No such page.', nonce));
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      // Never echo a request body or an API answer: the message names the failure only.
      const message = error instanceof Error ? error.message : 'unexpected error';
      if (!response.headersSent) send(response, 500, 'text/plain; charset=utf-8', `Shop error: ${message}`);
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  shopUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: shopUrl,
    orders,
    setWebhookSecret(secret) {
      webhookSecret = secret;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
