// A stateful fake of Stripe's PaymentIntents and Refunds API, validating every request against
// Stripe's own OpenAPI description (400 to any request a connector builds wrongly).
import { createHmac } from 'node:crypto';
import {
  challengePage,
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
import { decodeStripeForm, SpecValidator, stripeFixture } from './spec-validator.ts';
import { stripeBrowserRoutes } from './stand-in-routes.ts';

/** Stripe's own test payment methods, plus `pm_card_slow` (answers after `slowMs`). */
export const STRIPE_TEST_PAYMENT_METHODS = {
  approve: 'pm_card_visa',
  decline: 'pm_card_chargeDeclined',
  challenge: 'pm_card_authenticationRequired',
  slow: 'pm_card_slow',
} as const;

/**
 * Stripe's documented test payment methods that decline for a given reason
 * (https://stripe.com/docs/testing#declined-payments): the error `code` and, for issuer declines,
 * the `decline_code` Stripe answers with. Keyed by payment method.
 */
export const STRIPE_DECLINING_PAYMENT_METHODS: Readonly<
  Record<string, { code: string; decline_code?: string; message: string }>
> = {
  pm_card_chargeDeclined: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedLostCard: {
    code: 'card_declined',
    decline_code: 'lost_card',
    message: 'Your card was declined.',
  },
  pm_card_chargeDeclinedStolenCard: {
    code: 'card_declined',
    decline_code: 'stolen_card',
    message: 'Your card was declined.',
  },
  pm_card_chargeDeclinedVelocityLimitExceeded: {
    code: 'card_declined',
    decline_code: 'card_velocity_exceeded',
    message:
      'Your card was declined for making repeated attempts too frequently or exceeding its amount limit.',
  },
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', message: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: {
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  pm_card_chargeDeclinedProcessingError: {
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

export interface StripeFakeOptions {
  port?: number;
  secretKey: string;
  webhookSecret: string;
  /** Where events are posted (the service's `/gateway-notifications/<id>`); null: none sent. */
  webhookUrl: string | null;
  /** How long `pm_card_slow` takes to answer (default 30 000). */
  slowMs?: number;
  /** How long a refund failed as `timeout` holds its answer back (default 30 000). */
  hangMs?: number;
  /** Unix seconds for event signatures (default: the system clock). */
  nowSeconds?: () => number;
}

type Json = Record<string, unknown>;

export interface StripeFake extends GatewayFake {
  /** From now on refunds succeed at once (card refunds do), reported by `charge.refunded`. */
  refundsSucceedAtOnce(yes: boolean): void;
  /**
   * The payer's bank disputes a succeeded PaymentIntent: a Dispute in `needs_response` whose
   * amount Stripe withdraws at once, reported by `charge.dispute.created` and
   * `charge.dispute.funds_withdrawn`. Returns the Dispute's id (null: no such succeeded intent).
   */
  openDispute(paymentIntentId: string, reason?: string): string | null;
  /** The merchant submitted evidence: `under_review`, reported by `charge.dispute.updated`. */
  submitDisputeEvidence(disputeId: string): boolean;
  /**
   * The issuer decided: `won` reinstates the amount (`charge.dispute.funds_reinstated`), then
   * `charge.dispute.closed` either way.
   */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): boolean;
}

export async function startStripeFake(options: StripeFakeOptions): Promise<StripeFake> {
  const spec = new SpecValidator('stripe');
  const intents = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const idempotency = new IdempotencyStore();
  const failures = new RefundFailurePlan(options.hangMs ?? 30_000);
  const captureFailures = new RefundFailurePlan(options.hangMs ?? 30_000);
  /** Whether a refund succeeds at once (a card refund, reported by `charge.refunded`). */
  let refundsSucceedAtOnce = false;
  const notifier = new Notifier(options.webhookUrl);
  const violations: GatewayFake['violations'] = [];
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  let baseUrl = '';
  const browser = stripeBrowserRoutes(() => baseUrl);

  const error = (status: number, type: string, message: string, extra: Json = {}) =>
    json(status, { error: { type, message, ...extra } });

  function sendEvent(type: string, object: Json): void {
    const payload = JSON.stringify({
      id: `evt_${randomReference(24)}`,
      object: 'event',
      api_version: '2020-08-27',
      created: nowSeconds(),
      livemode: false,
      type,
      data: { object },
    });
    const t = nowSeconds();
    const v1 = createHmac('sha256', options.webhookSecret).update(`${t}.${payload}`).digest('hex');
    notifier.send(payload, { 'stripe-signature': `t=${t},v1=${v1}` });
  }

  function createIntent(form: Json): FakeAnswer {
    const id = `pi_${randomReference(24)}`;
    // A payment method the stand-in card element created behaves like the test one it stands for.
    const given = String(form.payment_method ?? '');
    const behaviour = browser.behaviourOf(given);
    const paymentMethod = behaviour ? STRIPE_TEST_PAYMENT_METHODS[behaviour] : given;
    const intent: Json = {
      ...stripeFixture('payment_intent'),
      id,
      client_secret: `${id}_secret_${randomReference(24)}`,
      amount: Number(form.amount),
      currency: String(form.currency),
      metadata: (form.metadata as Json | undefined) ?? {},
      payment_method: given || null,
      capture_method: form.capture_method === 'manual' ? 'manual' : 'automatic',
      created: nowSeconds(),
      canceled_at: null,
    };
    intents.set(id, intent);
    if (form.confirm !== 'true') return json(200, intent);
    const decline = STRIPE_DECLINING_PAYMENT_METHODS[paymentMethod];
    if (decline) {
      // As Stripe: the intent goes back to requires_payment_method with the decline in
      // last_payment_error, and the 402 card_error carries the same code, decline_code and intent.
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', ...decline };
      sendEvent('payment_intent.payment_failed', intent);
      return error(402, 'card_error', decline.message, {
        code: decline.code,
        ...(decline.decline_code ? { decline_code: decline.decline_code } : {}),
        payment_intent: intent,
      });
    }
    if (paymentMethod === STRIPE_TEST_PAYMENT_METHODS.challenge) {
      intent.status = 'requires_action';
      intent.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: { url: `${baseUrl}/redirect/3ds/${id}`, return_url: form.return_url ?? null },
      };
      return json(200, intent);
    }
    if (
      paymentMethod === STRIPE_TEST_PAYMENT_METHODS.approve ||
      paymentMethod === STRIPE_TEST_PAYMENT_METHODS.slow
    ) {
      approve(intent, form.capture_method === 'manual');
      return json(200, intent);
    }
    return error(400, 'invalid_request_error', `No such PaymentMethod: '${given}'`, {
      param: 'payment_method',
    });
  }

  /**
   * An approved payment: captured (`succeeded`), or with `capture_method: manual` authorised only
   * (`requires_capture`, `amount_capturable`), as Stripe reports each with its event.
   */
  function approve(intent: Json, manual: boolean): void {
    if (manual) {
      intent.capture_method = 'manual';
      intent.status = 'requires_capture';
      intent.amount_capturable = intent.amount;
      intent.amount_received = 0;
      sendEvent('payment_intent.amount_capturable_updated', intent);
      return;
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    sendEvent('payment_intent.succeeded', intent);
  }

  /**
   * `POST /v1/payment_intents/{id}/capture` (`amount_to_capture`, at most `amount_capturable`; the
   * rest is released) and `/cancel` of a `requires_capture` intent, as Stripe answers them.
   */
  function callOnAuthorization(id: string, capture: boolean, form: Json): FakeAnswer {
    const intent = intents.get(id);
    if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${id}'`);
    if (capture && intent.status !== 'requires_capture') {
      return error(
        400,
        'invalid_request_error',
        `This PaymentIntent could not be captured because it has a status of ${String(intent.status)}.`,
        {
          code: 'payment_intent_unexpected_state',
        },
      );
    }
    if (
      !capture &&
      !['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'].includes(
        String(intent.status),
      )
    ) {
      return error(
        400,
        'invalid_request_error',
        `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`,
        {
          code: 'payment_intent_unexpected_state',
        },
      );
    }
    if (!capture) {
      intent.status = 'canceled';
      intent.amount_capturable = 0;
      intent.canceled_at = nowSeconds();
      intent.cancellation_reason = 'requested_by_customer';
      sendEvent('payment_intent.canceled', intent);
      return json(200, intent);
    }
    const amount =
      form.amount_to_capture === undefined
        ? Number(intent.amount_capturable)
        : Number(form.amount_to_capture);
    if (amount > Number(intent.amount_capturable)) {
      return error(
        400,
        'invalid_request_error',
        'The amount to capture is greater than the amount capturable.',
        {
          code: 'amount_too_large',
          param: 'amount_to_capture',
        },
      );
    }
    intent.status = 'succeeded';
    intent.amount_capturable = 0;
    intent.amount_received = amount;
    sendEvent('payment_intent.succeeded', intent);
    return json(200, intent);
  }

  function createRefund(form: Json): FakeAnswer {
    const intent = intents.get(String(form.payment_intent));
    if (intent?.status !== 'succeeded') {
      return error(400, 'invalid_request_error', 'This PaymentIntent has no successful charge to refund.');
    }
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === intent.id && r.status !== 'failed')
      .reduce((sum, r) => sum + Number(r.amount), 0);
    const received = Number(intent.amount_received ?? intent.amount);
    const amount = form.amount === undefined ? received - refunded : Number(form.amount);
    if (refunded + amount > received) {
      return error(
        400,
        'invalid_request_error',
        'Refund amount is greater than unrefunded amount on charge.',
      );
    }
    const refund: Json = {
      ...stripeFixture('refund'),
      id: `re_${randomReference(24)}`,
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: `ch_${randomReference(24)}`,
      metadata: (form.metadata as Json | undefined) ?? {},
      status: refundsSucceedAtOnce ? 'succeeded' : 'pending',
      created: nowSeconds(),
    };
    refunds.set(String(refund.id), refund);
    if (refundsSucceedAtOnce) sendEvent('charge.refunded', chargeOf(intent));
    return json(200, refund);
  }

  /** The intent's Charge as `charge.refunded` carries it: its refunds, newest first. */
  function chargeOf(intent: Json): Json {
    const made = [...refunds.values()].filter((r) => r.payment_intent === intent.id).reverse();
    const refunded = made
      .filter((r) => r.status === 'succeeded')
      .reduce((sum, r) => sum + Number(r.amount), 0);
    return {
      id: `ch_${String(intent.id).slice(3)}`,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: refunded,
      currency: intent.currency,
      payment_intent: intent.id,
      metadata: intent.metadata,
      refunded: refunded === Number(intent.amount),
      refunds: {
        object: 'list',
        data: made,
        has_more: false,
        url: `/v1/charges/ch_${String(intent.id).slice(3)}/refunds`,
      },
    };
  }

  /**
   * A list as Stripe pages it: newest first, `created[gte]`/`created[gt]`/`created[lte]`/`created[lt]`
   * (Unix seconds) and `limit` (1 to 100, default 10), `starting_after` the last id of the previous
   * page (an unknown id is 400, as Stripe answers it), `has_more` whether more follow.
   */
  function listPage(objects: Json[], query: URLSearchParams, url: string): FakeAnswer {
    const limit = Number(query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return error(400, 'invalid_request_error', 'This value must be between 1 and 100.', { param: 'limit' });
    }
    const bound = (name: string) => {
      const value = query.get(`created[${name}]`);
      return value === null ? null : Number(value);
    };
    const [gte, gt, lte, lt] = [bound('gte'), bound('gt'), bound('lte'), bound('lt')];
    const inRange = (created: number) =>
      (gte === null || created >= gte) &&
      (gt === null || created > gt) &&
      (lte === null || created <= lte) &&
      (lt === null || created < lt);
    const all = objects.filter((o) => inRange(Number(o.created))).reverse();
    const after = query.get('starting_after');
    let start = 0;
    if (after !== null) {
      const index = all.findIndex((o) => o.id === after);
      if (index < 0) {
        return error(400, 'invalid_request_error', `No such object: '${after}'`, { param: 'starting_after' });
      }
      start = index + 1;
    }
    return json(200, {
      object: 'list',
      data: all.slice(start, start + limit),
      has_more: all.length > start + limit,
      url,
    });
  }

  /** `GET /v1/refunds[?payment_intent=]`: refunds (of one intent), as Stripe lists them. */
  function listRefunds(query: URLSearchParams): FakeAnswer {
    const intent = query.get('payment_intent');
    const made = [...refunds.values()].filter((r) => intent === null || r.payment_intent === intent);
    return listPage(made, query, '/v1/refunds');
  }

  async function api(request: FakeRequest, operation: string, body: Json): Promise<FakeAnswer> {
    const [method, template] = operation.split(' ') as [string, string];
    if (method === 'POST' && template === '/v1/payment_intents') {
      if (body.payment_method === STRIPE_TEST_PAYMENT_METHODS.slow) {
        await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 30_000));
      }
      return createIntent(body);
    }
    if (method === 'POST' && template === '/v1/refunds') return createRefund(body);
    if (method === 'POST' && template === '/v1/payment_intents/{intent}/capture') {
      return callOnAuthorization(decodeURIComponent(request.path.split('/')[3] ?? ''), true, body);
    }
    if (method === 'POST' && template === '/v1/payment_intents/{intent}/cancel') {
      return callOnAuthorization(decodeURIComponent(request.path.split('/')[3] ?? ''), false, body);
    }
    if (template === '/v1/payment_intents/search') {
      const match = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(request.query.get('query') ?? '');
      if (!match) return error(400, 'invalid_request_error', 'Unsupported search query.');
      const data = [...intents.values()].filter((i) => (i.metadata as Json)[match[1]!] === match[2]);
      return json(200, { object: 'search_result', data, has_more: false, url: '/v1/payment_intents/search' });
    }
    const id = decodeURIComponent(request.path.split('/')[3] ?? '');
    const found = template === '/v1/refunds/{refund}' ? refunds.get(id) : intents.get(id);
    return found ? json(200, found) : error(404, 'invalid_request_error', `No such object: '${id}'`);
  }

  /** The operation of the description a request is for, or null. */
  function operationOf(method: string, path: string): string | null {
    if (path === '/v1/payment_intents' && method === 'POST') return 'POST /v1/payment_intents';
    if (path === '/v1/payment_intents/search' && method === 'GET') return 'GET /v1/payment_intents/search';
    if (/^\/v1\/payment_intents\/[^/]+$/.test(path) && method === 'GET')
      return 'GET /v1/payment_intents/{intent}';
    if (/^\/v1\/payment_intents\/[^/]+\/capture$/.test(path) && method === 'POST')
      return 'POST /v1/payment_intents/{intent}/capture';
    if (/^\/v1\/payment_intents\/[^/]+\/cancel$/.test(path) && method === 'POST')
      return 'POST /v1/payment_intents/{intent}/cancel';
    if (path === '/v1/refunds' && method === 'POST') return 'POST /v1/refunds';
    if (/^\/v1\/refunds\/[^/]+$/.test(path) && method === 'GET') return 'GET /v1/refunds/{refund}';
    return null;
  }

  async function challenge(request: FakeRequest): Promise<FakeAnswer> {
    const intent = intents.get(request.path.split('/')[3] ?? '');
    if (intent?.status !== 'requires_action') return { status: 404, body: 'no such challenge' };
    if (request.method === 'GET') {
      return challengePage(
        'Stripe',
        request.path,
        `${intent.amount} ${String(intent.currency).toUpperCase()}`,
      );
    }
    const approved = new URLSearchParams(request.rawBody).get('decision') === 'approve';
    const redirect = ((intent.next_action as Json).redirect_to_url as Json).return_url;
    intent.next_action = null;
    if (approved) {
      approve(intent, intent.capture_method === 'manual');
    } else {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        type: 'card_error',
        code: 'authentication_required',
        message: 'The payer failed authentication.',
      };
      sendEvent('payment_intent.payment_failed', intent);
    }
    const back = new URL(String(redirect ?? `${baseUrl}/`));
    back.searchParams.set('payment_intent', String(intent.id));
    return redirectTo(back.toString());
  }

  const started = await startFakeServer(
    options.port ?? 0,
    notifier.answersAfter(async (request) => {
      if (request.path.startsWith('/redirect/3ds/')) return challenge(request);
      const browserAnswer = await browser.handle(request);
      if (browserAnswer) return browserAnswer;
      if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
        return error(401, 'invalid_request_error', 'Invalid API Key provided.');
      }
      // The lists are reads without a body; the trimmed description holds only the POSTs of both.
      if (request.method === 'GET' && request.path === '/v1/refunds') return listRefunds(request.query);
      if (request.method === 'GET' && request.path === '/v1/payment_intents') {
        return listPage([...intents.values()], request.query, '/v1/payment_intents');
      }
      const operation = operationOf(request.method, request.path);
      if (!operation)
        return error(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${request.method}: ${request.path}).`,
        );
      const body = decodeStripeForm(request.rawBody);
      const problems = spec.validate(request.method, operation.split(' ')[1]!, structuredClone(body));
      const refused = recordViolations(violations, operation, problems);
      if (refused !== null) {
        return error(400, 'invalid_request_error', `Request does not match Stripe's description: ${refused}`);
      }
      const run = () =>
        idempotency.run(
          request,
          `${operation} ${request.rawBody}`,
          {
            conflict: error(
              409,
              'idempotency_error',
              'There is currently another in-progress request using this Idempotent Key.',
              { code: 'idempotency_key_in_use' },
            ),
            mismatch: error(
              400,
              'idempotency_error',
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            ),
          },
          () => api(request, operation, body),
        );
      const serverError = error(500, 'api_error', 'An unknown error occurred.');
      if (operation === 'POST /v1/refunds') return failures.apply(request, serverError, run);
      if (/^POST \/v1\/payment_intents\/\{intent\}\/(capture|cancel)$/.test(operation)) {
        return captureFailures.apply(request, serverError, run);
      }
      return run();
    }),
  );
  baseUrl = started.url;

  // Settles pending refunds with one event each, as Stripe reports them.
  const settle = () => {
    let settled = 0;
    for (const refund of refunds.values()) {
      if (refund.status !== 'pending') continue;
      const fails = Number(refund.amount) % 100 === 99;
      refund.status = fails ? 'failed' : 'succeeded';
      if (fails) refund.failure_reason = 'expired_or_canceled_card';
      sendEvent(fails ? 'refund.failed' : 'charge.refund.updated', refund);
      settled += 1;
    }
    return settled;
  };
  const fake = gatewayFake(
    started,
    notifier,
    violations,
    { settle, plan: failures, count: () => refunds.size },
    captureFailures,
  );
  const disputes = new Map<string, Json>();
  const balanceTransaction = (dispute: Json, sign: 1 | -1): Json => ({
    id: `txn_${randomReference(24)}`,
    object: 'balance_transaction',
    amount: sign * Number(dispute.amount),
    currency: dispute.currency,
    type: 'adjustment',
    reporting_category: sign < 0 ? 'dispute' : 'dispute_reversal',
    created: nowSeconds(),
  });
  return {
    ...fake,
    refundsSucceedAtOnce(yes: boolean) {
      refundsSucceedAtOnce = yes;
    },
    openDispute(paymentIntentId, reason = 'fraudulent') {
      const intent = intents.get(paymentIntentId);
      if (intent?.status !== 'succeeded') return null;
      const dispute: Json = {
        ...stripeFixture('dispute'),
        id: `dp_${randomReference(24)}`,
        amount: intent.amount,
        currency: intent.currency,
        charge: `ch_${String(intent.id).slice(3)}`,
        payment_intent: intent.id,
        reason,
        status: 'needs_response',
        created: nowSeconds(),
        evidence_details: {
          due_by: nowSeconds() + 7 * 86_400,
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
      };
      dispute.balance_transactions = [balanceTransaction(dispute, -1)];
      disputes.set(String(dispute.id), dispute);
      sendEvent('charge.dispute.created', dispute);
      sendEvent('charge.dispute.funds_withdrawn', dispute);
      return String(dispute.id);
    },
    submitDisputeEvidence(disputeId) {
      const dispute = disputes.get(disputeId);
      if (dispute?.status !== 'needs_response') return false;
      dispute.status = 'under_review';
      (dispute.evidence_details as Json).has_evidence = true;
      (dispute.evidence_details as Json).submission_count = 1;
      sendEvent('charge.dispute.updated', dispute);
      return true;
    },
    closeDispute(disputeId, outcome) {
      const dispute = disputes.get(disputeId);
      if (!dispute || dispute.status === 'won' || dispute.status === 'lost') return false;
      dispute.status = outcome;
      if (outcome === 'won') {
        dispute.balance_transactions = [
          ...(dispute.balance_transactions as Json[]),
          balanceTransaction(dispute, 1),
        ];
        sendEvent('charge.dispute.funds_reinstated', dispute);
      }
      sendEvent('charge.dispute.closed', dispute);
      return true;
    },
  };
}
