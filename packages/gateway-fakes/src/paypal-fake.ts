// A stateful fake of PayPal's REST APIs as Paygate's PayPal connector uses them (issue 46): OAuth2
// client credentials, Orders v2 (create, read, the payer's approval page, capture, authorize),
// Payments v2 (capture and void of an authorisation, refunds of a capture) and webhooks with their
// verification call. Every JSON request is validated against PayPal's own OpenAPI descriptions
// (the trimmed copies in ../specs: 400 to a request a connector builds wrongly); PayPal-Request-Id
// replays the first answer, as PayPal's idempotency does. The OAuth token endpoint is not in
// PayPal's published descriptions: it is checked as PayPal documents it (Basic client id and
// secret, `grant_type=client_credentials`).
import { randomUUID } from 'node:crypto';
import escapeHtml from 'escape-html';
import {
  type FakeAnswer,
  type FakeRequest,
  type GatewayFake,
  gatewayFake,
  IdempotencyStore,
  json,
  Notifier,
  RefundFailurePlan,
  randomReference,
  recordViolations,
  redirectTo,
  startFakeServer,
} from './fake-server.ts';
import { type SpecName, SpecValidator } from './spec-validator.ts';

export interface PayPalFakeOptions {
  port?: number;
  clientId: string;
  clientSecret: string;
  /** The id PayPal gives the merchant's webhook; verify-webhook-signature answers SUCCESS only for it. */
  webhookId: string;
  notificationUrl: string | null;
  /** How long an access token lives (PayPal: about 9 hours). */
  tokenLifetimeSeconds?: number;
  /** How long a capture or refund failed as `timeout` holds its answer back (default 30 000). */
  hangMs?: number;
}

/** The payer's choices on the fake's approval page, by the id of their button. */
export const PAYPAL_APPROVAL_CHOICES = {
  /** Approves; the capture then completes. */
  approve: 'approve',
  /** Approves with a funding source the capture finds declined (422 INSTRUMENT_DECLINED). */
  approveDeclining: 'approve-declining',
  /** Leaves for the merchant's cancel_url; the order stays unapproved. */
  cancel: 'cancel',
} as const;

type Json = Record<string, unknown>;
type Money = { currency_code: string; value: string };

interface Order {
  id: string;
  intent: 'CAPTURE' | 'AUTHORIZE';
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  purchaseUnit: Json & { amount: Money };
  returnUrl: string | null;
  cancelUrl: string | null;
  declining: boolean;
  capture: Capture | null;
  authorization: Authorization | null;
  createdAt: string;
}

interface Capture {
  id: string;
  orderId: string;
  status: 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  amount: Money;
  customId: string | null;
  createdAt: string;
}

interface Authorization {
  id: string;
  orderId: string;
  status: 'CREATED' | 'CAPTURED' | 'VOIDED';
  amount: Money;
  customId: string | null;
  captureId: string | null;
  createdAt: string;
}

interface Refund {
  id: string;
  captureId: string;
  status: 'COMPLETED' | 'PENDING' | 'FAILED';
  amount: Money;
  invoiceId: string | null;
  createdAt: string;
}

export type PayPalFake = GatewayFake & {
  /** Every access token issued so far stops working (as one past its expiry does). */
  expireTokens(): void;
  /** How many access tokens were issued (a connector caches its token: few). */
  tokensIssued(): number;
  /** The order as PayPal would answer GET /v2/checkout/orders/{id} (null: no such order). */
  order(id: string): Json | null;
};

/**
 * An amount in hundredths of its currency's unit, exactly (PayPal's values have at most two
 * decimals for the currencies the fake is used with): the fake's own sums, never a float.
 */
function cents(money: Money): number {
  const [units = '0', fraction = ''] = money.value.split('.');
  return Number(units) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** Hundredths as a PayPal value with `decimals` (0 or 2) decimals. */
function asValue(hundredths: number, decimals: number): string {
  const units = Math.floor(hundredths / 100);
  return decimals === 0 ? String(units) : `${units}.${String(hundredths % 100).padStart(2, '0')}`;
}

export async function startPayPalFake(options: PayPalFakeOptions): Promise<PayPalFake> {
  const specs = new Map<SpecName, SpecValidator>();
  const specOf = (name: SpecName) => {
    let spec = specs.get(name);
    if (!spec) {
      spec = new SpecValidator(name);
      specs.set(name, spec);
    }
    return spec;
  };
  const orders = new Map<string, Order>();
  const captures = new Map<string, Capture>();
  const authorizations = new Map<string, Authorization>();
  const refunds = new Map<string, Refund>();
  const tokens = new Map<string, number>();
  let issued = 0;
  const idempotency = new IdempotencyStore();
  const refundPlan = new RefundFailurePlan(options.hangMs ?? 30_000);
  const capturePlan = new RefundFailurePlan(options.hangMs ?? 30_000);
  const notifier = new Notifier(options.notificationUrl);
  const violations: GatewayFake['violations'] = [];
  /** The transmissions the fake signed, by id: what verify-webhook-signature recognises. */
  const transmissions = new Map<string, { body: string; signature: string }>();
  let baseUrl = '';
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const lifetime = options.tokenLifetimeSeconds ?? 32_400;

  /** PayPal's error document: `name`, `message`, `debug_id`, the issue in `details`. */
  const problem = (status: number, name: string, issue: string, description: string): FakeAnswer =>
    json(status, {
      name,
      message:
        status === 422
          ? 'The requested action could not be performed, semantically incorrect, or failed business validation.'
          : description,
      debug_id: randomReference(13, 'abcdef0123456789'),
      details: [{ issue, description }],
    });
  const notFound = (what: string) =>
    problem(
      404,
      'RESOURCE_NOT_FOUND',
      'INVALID_RESOURCE_ID',
      `Specified resource ID (${what}) does not exist.`,
    );

  function authorized(request: FakeRequest): boolean {
    const header = String(request.headers.authorization ?? '');
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const until = tokens.get(token);
    return until !== undefined && until > Date.now();
  }

  function issueToken(request: FakeRequest): FakeAnswer {
    const header = String(request.headers.authorization ?? '');
    const [id, secret] = Buffer.from(header.replace(/^Basic /, ''), 'base64')
      .toString('utf8')
      .split(':');
    if (!header.startsWith('Basic ') || id !== options.clientId || secret !== options.clientSecret) {
      return json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    }
    if (new URLSearchParams(request.rawBody).get('grant_type') !== 'client_credentials') {
      return json(400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    }
    const token = `A21AA${randomReference(40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`;
    tokens.set(token, Date.now() + lifetime * 1000);
    issued += 1;
    return json(200, {
      scope: 'https://uri.paypal.com/services/payments/payment',
      access_token: token,
      token_type: 'Bearer',
      app_id: 'APP-80W284485P519543T',
      expires_in: lifetime,
      nonce: `${now()}${randomReference(12)}`,
    });
  }

  /** Validates a JSON body against its operation; the refusal PayPal gives a malformed request. */
  function invalid(spec: SpecName, method: string, template: string, body: unknown): FakeAnswer | null {
    const first = recordViolations(
      violations,
      `${method} ${template}`,
      specOf(spec).validate(method, template, body),
    );
    return first ? problem(400, 'INVALID_REQUEST', 'INVALID_PARAMETER_SYNTAX', first) : null;
  }

  const link = (href: string, rel: string, method = 'GET') => ({ href, rel, method });

  function captureResource(capture: Capture): Json {
    return {
      id: capture.id,
      status: capture.status,
      amount: capture.amount,
      final_capture: true,
      ...(capture.customId ? { custom_id: capture.customId } : {}),
      ...(capture.status === 'DECLINED'
        ? { status_details: { reason: 'DECLINED_BY_RISK_FRAUD_FILTERS' } }
        : {}),
      seller_protection: {
        status: 'ELIGIBLE',
        dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
      },
      create_time: capture.createdAt,
      update_time: capture.createdAt,
      links: [
        link(`${baseUrl}/v2/payments/captures/${capture.id}`, 'self'),
        link(`${baseUrl}/v2/payments/captures/${capture.id}/refund`, 'refund', 'POST'),
        link(`${baseUrl}/v2/checkout/orders/${capture.orderId}`, 'up'),
      ],
    };
  }

  function authorizationResource(authorization: Authorization): Json {
    return {
      id: authorization.id,
      status: authorization.status,
      amount: authorization.amount,
      ...(authorization.customId ? { custom_id: authorization.customId } : {}),
      expiration_time: new Date(Date.parse(authorization.createdAt) + 29 * 86_400_000)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
      create_time: authorization.createdAt,
      update_time: authorization.createdAt,
      links: [
        link(`${baseUrl}/v2/payments/authorizations/${authorization.id}`, 'self'),
        link(`${baseUrl}/v2/payments/authorizations/${authorization.id}/capture`, 'capture', 'POST'),
        link(`${baseUrl}/v2/payments/authorizations/${authorization.id}/void`, 'void', 'POST'),
      ],
    };
  }

  function orderResource(order: Order): Json {
    const payments: Json = {};
    if (order.capture) payments.captures = [captureResource(order.capture)];
    if (order.authorization) payments.authorizations = [authorizationResource(order.authorization)];
    const approve = `${baseUrl}/checkoutnow?token=${order.id}`;
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      purchase_units: [{ ...order.purchaseUnit, ...(Object.keys(payments).length > 0 ? { payments } : {}) }],
      ...(order.status !== 'CREATED' && order.status !== 'PAYER_ACTION_REQUIRED'
        ? { payer: { payer_id: 'FAKEPAYER01', email_address: 'payer@example.com' } }
        : {}),
      create_time: order.createdAt,
      links: [
        link(`${baseUrl}/v2/checkout/orders/${order.id}`, 'self'),
        ...(order.status === 'CREATED' ? [link(approve, 'approve')] : []),
        ...(order.status === 'PAYER_ACTION_REQUIRED' ? [link(approve, 'payer-action')] : []),
        ...(order.status === 'APPROVED'
          ? [
              link(
                `${baseUrl}/v2/checkout/orders/${order.id}/${order.intent === 'CAPTURE' ? 'capture' : 'authorize'}`,
                order.intent === 'CAPTURE' ? 'capture' : 'authorize',
                'POST',
              ),
            ]
          : []),
      ],
    };
  }

  function createOrder(body: Json): FakeAnswer {
    const unit = (body.purchase_units as Json[])[0] as Json & { amount: Money };
    const context = ((body.payment_source as Json | undefined)?.paypal as Json | undefined)
      ?.experience_context as Json | undefined;
    const legacy = body.application_context as Json | undefined;
    const returnUrl = (context?.return_url ?? legacy?.return_url ?? null) as string | null;
    const order: Order = {
      id: randomReference(17, 'ABCDEFGHJKLMNPRSTUVWXY0123456789'),
      intent: body.intent as Order['intent'],
      status: context ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      purchaseUnit: unit,
      returnUrl,
      cancelUrl: (context?.cancel_url ?? legacy?.cancel_url ?? null) as string | null,
      declining: false,
      capture: null,
      authorization: null,
      createdAt: now(),
    };
    orders.set(order.id, order);
    return json(201, orderResource(order));
  }

  function approvalPage(id: string): FakeAnswer {
    const order = orders.get(id);
    if (!order) return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'No such order' };
    const amount = `${order.purchaseUnit.amount.value} ${order.purchaseUnit.amount.currency_code}`;
    const button = (id: string, label: string) =>
      `<button name="decision" value="${id}" id="${id}">${escapeHtml(label)}</button>`;
    return {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>PayPal test checkout</title></head><body>
<main><h1>PayPal test checkout</h1><p>Pay <strong>${escapeHtml(amount)}</strong></p>
<form method="post" action="/checkoutnow/${escapeHtml(order.id)}">
${button(PAYPAL_APPROVAL_CHOICES.approve, 'Pay now')}
${button(PAYPAL_APPROVAL_CHOICES.approveDeclining, 'Pay with a card that will be declined')}
${button(PAYPAL_APPROVAL_CHOICES.cancel, 'Cancel and return to the merchant')}
</form></main></body></html>`,
    };
  }

  function decide(id: string, rawBody: string): FakeAnswer {
    const order = orders.get(id);
    if (!order || (order.status !== 'CREATED' && order.status !== 'PAYER_ACTION_REQUIRED')) {
      return {
        status: 409,
        headers: { 'content-type': 'text/plain' },
        body: 'This order cannot be approved',
      };
    }
    const decision = new URLSearchParams(rawBody).get('decision');
    if (decision === PAYPAL_APPROVAL_CHOICES.cancel) {
      return redirectTo(withQuery(order.cancelUrl ?? order.returnUrl ?? '/', { token: order.id }));
    }
    order.status = 'APPROVED';
    order.declining = decision === PAYPAL_APPROVAL_CHOICES.approveDeclining;
    notify('CHECKOUT.ORDER.APPROVED', 'checkout-order', orderResource(order));
    return redirectTo(withQuery(order.returnUrl ?? '/', { token: order.id, PayerID: 'FAKEPAYER01' }));
  }

  function captureOrder(order: Order): FakeAnswer {
    if (order.status === 'COMPLETED') {
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'ORDER_ALREADY_CAPTURED',
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (order.intent !== 'CAPTURE')
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'ACTION_DOES_NOT_MATCH_INTENT',
        "Order was created with an intent to 'AUTHORIZE'.",
      );
    if (order.status !== 'APPROVED')
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'ORDER_NOT_APPROVED',
        'Payer has not yet approved the Order for payment.',
      );
    if (order.declining) {
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'INSTRUMENT_DECLINED',
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const capture: Capture = {
      id: randomReference(17, 'ABCDEFGHJKLMNPRSTUVWXY0123456789'),
      orderId: order.id,
      status: 'COMPLETED',
      amount: order.purchaseUnit.amount,
      customId: (order.purchaseUnit.custom_id as string | undefined) ?? null,
      createdAt: now(),
    };
    captures.set(capture.id, capture);
    order.capture = capture;
    order.status = 'COMPLETED';
    notify('PAYMENT.CAPTURE.COMPLETED', 'capture', captureResource(capture));
    return json(201, orderResource(order));
  }

  function authorizeOrder(order: Order): FakeAnswer {
    if (order.intent !== 'AUTHORIZE')
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'ACTION_DOES_NOT_MATCH_INTENT',
        "Order was created with an intent to 'CAPTURE'.",
      );
    if (order.status === 'COMPLETED')
      return problem(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_AUTHORIZED', 'Order already authorized.');
    if (order.status !== 'APPROVED')
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'ORDER_NOT_APPROVED',
        'Payer has not yet approved the Order for payment.',
      );
    if (order.declining) {
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'INSTRUMENT_DECLINED',
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    const authorization: Authorization = {
      id: randomReference(17, 'ABCDEFGHJKLMNPRSTUVWXY0123456789'),
      orderId: order.id,
      status: 'CREATED',
      amount: order.purchaseUnit.amount,
      customId: (order.purchaseUnit.custom_id as string | undefined) ?? null,
      captureId: null,
      createdAt: now(),
    };
    authorizations.set(authorization.id, authorization);
    order.authorization = authorization;
    order.status = 'COMPLETED';
    return json(201, orderResource(order));
  }

  function captureAuthorization(authorization: Authorization, body: Json): FakeAnswer {
    if (authorization.status === 'CAPTURED')
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'AUTHORIZATION_ALREADY_CAPTURED',
        'Authorization has been previously captured and hence cannot be captured again.',
      );
    if (authorization.status === 'VOIDED')
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'AUTHORIZATION_VOIDED',
        'A voided authorization cannot be captured or reauthorized.',
      );
    const amount = (body.amount as Money | undefined) ?? authorization.amount;
    if (amount.currency_code !== authorization.amount.currency_code)
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'CURRENCY_MISMATCH',
        'Currency of capture must be the same as currency of authorization.',
      );
    if (cents(amount) > cents(authorization.amount))
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'MAX_CAPTURE_AMOUNT_EXCEEDED',
        'Capture amount exceeds allowable limit.',
      );
    const capture: Capture = {
      id: randomReference(17, 'ABCDEFGHJKLMNPRSTUVWXY0123456789'),
      orderId: authorization.orderId,
      status: 'COMPLETED',
      amount,
      customId: authorization.customId,
      createdAt: now(),
    };
    captures.set(capture.id, capture);
    authorization.status = 'CAPTURED';
    authorization.captureId = capture.id;
    notify('PAYMENT.CAPTURE.COMPLETED', 'capture', captureResource(capture));
    return json(201, captureResource(capture));
  }

  function voidAuthorization(authorization: Authorization): FakeAnswer {
    if (authorization.status !== 'CREATED')
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'PREVIOUSLY_VOIDED',
        'Authorization has been previously voided or captured and hence cannot be voided again.',
      );
    authorization.status = 'VOIDED';
    notify('PAYMENT.AUTHORIZATION.VOIDED', 'authorization', authorizationResource(authorization));
    return { status: 204 };
  }

  function refundResource(refund: Refund): Json {
    return {
      id: refund.id,
      status: refund.status,
      amount: refund.amount,
      ...(refund.invoiceId ? { invoice_id: refund.invoiceId } : {}),
      create_time: refund.createdAt,
      update_time: refund.createdAt,
      links: [
        link(`${baseUrl}/v2/payments/refunds/${refund.id}`, 'self'),
        link(`${baseUrl}/v2/payments/captures/${refund.captureId}`, 'up'),
      ],
    };
  }

  function refundCapture(capture: Capture, body: Json): FakeAnswer {
    const taken = [...refunds.values()]
      .filter((r) => r.captureId === capture.id && r.status !== 'FAILED')
      .reduce((sum, r) => sum + cents(r.amount), 0);
    const amount = (body.amount as Money | undefined) ?? {
      currency_code: capture.amount.currency_code,
      value: asValue(cents(capture.amount) - taken, capture.amount.value.includes('.') ? 2 : 0),
    };
    if (capture.status === 'REFUNDED' || taken + cents(amount) > cents(capture.amount)) {
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
      );
    }
    if (amount.currency_code !== capture.amount.currency_code)
      return problem(
        422,
        'UNPROCESSABLE_ENTITY',
        'REFUND_CAPTURE_CURRENCY_MISMATCH',
        'Refund must be in the same currency as the capture.',
      );
    const refund: Refund = {
      id: randomReference(17, 'ABCDEFGHJKLMNPRSTUVWXY0123456789'),
      captureId: capture.id,
      status: 'COMPLETED',
      amount,
      invoiceId: (body.invoice_id as string | undefined) ?? null,
      createdAt: now(),
    };
    refunds.set(refund.id, refund);
    capture.status = taken + cents(amount) === cents(capture.amount) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    notify('PAYMENT.CAPTURE.REFUNDED', 'refund', refundResource(refund));
    return json(201, refundResource(refund));
  }

  /**
   * Sends a webhook event as PayPal does: the event JSON with its transmission headers. The
   * signature is the fake's own (a random token it remembers): PayPal's receivers verify through
   * POST /v1/notifications/verify-webhook-signature, which the fake answers for what it sent.
   */
  function notify(eventType: string, resourceType: string, resource: Json): void {
    const id = `WH-${randomReference(17, 'ABCDEFGHJKLMNPRSTUVWXY0123456789')}`;
    const body = JSON.stringify({
      id,
      event_version: '1.0',
      create_time: now(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary: eventType,
      resource,
      links: [link(`${baseUrl}/v1/notifications/webhooks-events/${id}`, 'self')],
    });
    const transmissionId = randomUUID();
    const signature = randomReference(64, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
    transmissions.set(transmissionId, { body, signature });
    notifier.send(body, {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': new Date().toISOString(),
      'paypal-transmission-sig': signature,
      'paypal-cert-url': `${baseUrl}/v1/notifications/certs/CERT-fake`,
      'paypal-auth-algo': 'SHA256withRSA',
    });
  }

  function verifySignature(body: Json): FakeAnswer {
    const sent = transmissions.get(String(body.transmission_id));
    const event = JSON.stringify(body.webhook_event);
    const matches =
      sent !== undefined &&
      body.webhook_id === options.webhookId &&
      body.transmission_sig === sent.signature &&
      event === JSON.stringify(JSON.parse(sent.body));
    return json(200, { verification_status: matches ? 'SUCCESS' : 'FAILURE' });
  }

  async function handle(request: FakeRequest): Promise<FakeAnswer> {
    const { method, path } = request;
    if (method === 'POST' && path === '/v1/oauth2/token') return issueToken(request);
    if (method === 'GET' && path === '/checkoutnow') return approvalPage(request.query.get('token') ?? '');
    const decision = /^\/checkoutnow\/([A-Z0-9]+)$/.exec(path);
    if (method === 'POST' && decision) return decide(decision[1] ?? '', request.rawBody);
    if (!authorized(request)) {
      return json(401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    }
    let body: Json = {};
    if (request.rawBody !== '') {
      try {
        body = JSON.parse(request.rawBody) as Json;
      } catch {
        return problem(
          400,
          'INVALID_REQUEST',
          'MALFORMED_REQUEST_JSON',
          'The request JSON is not well formed.',
        );
      }
    }
    // PayPal-Request-Id is PayPal's idempotency key: the first answer is replayed.
    const keyed: FakeRequest = {
      ...request,
      headers: { ...request.headers, 'idempotency-key': request.headers['paypal-request-id'] },
    };
    const once = (work: () => FakeAnswer | Promise<FakeAnswer>) =>
      idempotency.run(
        keyed,
        `${method} ${path}\n${request.rawBody}`,
        {
          conflict: problem(
            409,
            'RESOURCE_CONFLICT',
            'PREVIOUS_REQUEST_IN_PROGRESS',
            'A previous request with the same PayPal-Request-Id is in progress.',
          ),
          mismatch: problem(
            422,
            'UNPROCESSABLE_ENTITY',
            'DUPLICATE_REQUEST_ID',
            'The PayPal-Request-Id was used with another request.',
          ),
        },
        async () => work(),
      );
    const serverError = problem(
      500,
      'INTERNAL_SERVER_ERROR',
      'INTERNAL_SERVICE_ERROR',
      'An internal service error has occurred.',
    );

    if (path === '/v2/checkout/orders' && method === 'POST') {
      return invalid('paypal-orders', 'POST', '/v2/checkout/orders', body) ?? once(() => createOrder(body));
    }
    const order = /^\/v2\/checkout\/orders\/([^/]+)(?:\/(capture|authorize))?$/.exec(path);
    if (order) {
      const found = orders.get(order[1] ?? '');
      if (!found) return notFound(order[1] ?? '');
      if (method === 'GET' && !order[2]) return json(200, orderResource(found));
      if (method === 'POST' && order[2]) {
        const template = `/v2/checkout/orders/{id}/${order[2]}`;
        return (
          invalid('paypal-orders', 'POST', template, body) ??
          capturePlan.apply(keyed, serverError, () =>
            once(() => (order[2] === 'capture' ? captureOrder(found) : authorizeOrder(found))),
          )
        );
      }
    }
    const authorization = /^\/v2\/payments\/authorizations\/([^/]+)(?:\/(capture|void))?$/.exec(path);
    if (authorization) {
      const found = authorizations.get(authorization[1] ?? '');
      if (!found) return notFound(authorization[1] ?? '');
      if (method === 'GET' && !authorization[2]) return json(200, authorizationResource(found));
      if (method === 'POST' && authorization[2]) {
        const template = `/v2/payments/authorizations/{authorization_id}/${authorization[2]}`;
        return (
          invalid('paypal-payments', 'POST', template, body) ??
          capturePlan.apply(keyed, serverError, () =>
            once(() =>
              authorization[2] === 'capture' ? captureAuthorization(found, body) : voidAuthorization(found),
            ),
          )
        );
      }
    }
    const capture = /^\/v2\/payments\/captures\/([^/]+)(\/refund)?$/.exec(path);
    if (capture) {
      const found = captures.get(capture[1] ?? '');
      if (!found) return notFound(capture[1] ?? '');
      if (method === 'GET' && !capture[2]) return json(200, captureResource(found));
      if (method === 'POST' && capture[2]) {
        return (
          invalid('paypal-payments', 'POST', '/v2/payments/captures/{capture_id}/refund', body) ??
          refundPlan.apply(keyed, serverError, () => once(() => refundCapture(found, body)))
        );
      }
    }
    const refund = /^\/v2\/payments\/refunds\/([^/]+)$/.exec(path);
    if (refund && method === 'GET') {
      const found = refunds.get(refund[1] ?? '');
      return found ? json(200, refundResource(found)) : notFound(refund[1] ?? '');
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      return (
        invalid('paypal-webhooks', 'POST', '/v1/notifications/verify-webhook-signature', body) ??
        verifySignature(body)
      );
    }
    return problem(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', `No ${method} ${path} here.`);
  }

  const started = await startFakeServer(options.port ?? 0, notifier.answersAfter(handle));
  baseUrl = started.url;
  const fake = gatewayFake(
    started,
    notifier,
    violations,
    {
      // PayPal's refunds of this fake complete at once: nothing is left to settle.
      settle: () => 0,
      plan: refundPlan,
      count: () => refunds.size,
    },
    capturePlan,
  );
  return {
    ...fake,
    expireTokens: () => {
      for (const token of tokens.keys()) tokens.set(token, 0);
    },
    tokensIssued: () => issued,
    order: (id) => {
      const found = orders.get(id);
      return found ? orderResource(found) : null;
    },
  };
}

function withQuery(url: string, query: Record<string, string>): string {
  const target = new URL(url, 'http://fake.invalid');
  for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
  return target.origin === 'http://fake.invalid' ? `${target.pathname}${target.search}` : target.toString();
}
