import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeStripeForm, SpecValidator, stripeFixture } from '@paygate/gateway-fakes';
import type { ChargeRequest } from '../connector.ts';
import type { GatewayHttpReply, GatewayHttpRequest } from '../http-executor.ts';
import { encodeStripeForm } from './form.ts';
import {
  buildCreatePaymentIntent,
  buildCreateRefund,
  buildListRefunds,
  buildRetrievePaymentIntent,
  buildSearchPaymentIntent,
  KEY_METADATA,
  parsePaymentIntentReply,
  parseRefundListReply,
  parseRefundReply,
} from './wire.ts';

const ACCOUNT = {
  baseUrl: 'https://api.stripe.com',
  secretKey: 'sk_test_123',
  defaultReturnUrl: 'https://pay.example/return',
};
const KEY = 'pi_000000000000000000000001:attempt:1';
const charge: ChargeRequest = {
  idempotencyKey: KEY,
  paymentIntentId: 'pi_000000000000000000000001',
  amountMinor: 1099,
  currency: 'USD',
  paymentMethodToken: 'pm_card_visa',
  livemode: false,
  returnUrl: 'https://shop.example/done',
};
const stripe = new SpecValidator('stripe');

function validate(request: GatewayHttpRequest, pathTemplate: string): void {
  assert.deepEqual(stripe.validate(request.method, pathTemplate, decodeStripeForm(request.body ?? '')), []);
}

function answer(status: number, body: unknown, retryAfterSeconds: number | null = null): GatewayHttpReply {
  return {
    kind: 'answer',
    status,
    headers: new Headers(),
    text: JSON.stringify(body),
    retryAfterSeconds,
    durationMs: 1,
  };
}

/** Stripe's own payment_intent fixture in another status. */
function intent(fields: Record<string, unknown>) {
  return { ...stripeFixture('payment_intent'), ...fields };
}

describe('Stripe wire format', () => {
  it('encodes nested objects and lists in bracket notation and leaves out absent fields', () => {
    assert.equal(
      decodeURIComponent(encodeStripeForm({ a: 1, b: { c: 'x' }, d: ['e'], f: null, g: undefined, h: true })),
      'a=1&b[c]=x&d[0]=e&h=true',
    );
  });

  it('creates a confirmed PaymentIntent as the description requires, key as header and metadata', () => {
    const request = buildCreatePaymentIntent(ACCOUNT, charge);
    validate(request, '/v1/payment_intents');
    assert.equal(request.url, 'https://api.stripe.com/v1/payment_intents');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(request.headers.authorization, 'Bearer sk_test_123');
    assert.equal(request.headers['idempotency-key'], KEY);
    const form = decodeStripeForm(request.body ?? '');
    assert.equal(form.amount, '1099');
    assert.equal(form.currency, 'usd');
    assert.equal(form.confirm, 'true');
    assert.equal(form.return_url, 'https://shop.example/done');
    assert.deepEqual(form.metadata, { [KEY_METADATA]: KEY, paygate_payment_intent: charge.paymentIntentId });
  });

  it('creates refunds as the description requires; reads and searches without a body or key', () => {
    const refund = buildCreateRefund(ACCOUNT, {
      idempotencyKey: 'pi_1:refund:abc',
      refundId: 're_1',
      paymentIntentId: 'pi_1',
      chargeReference: 'pi_1KmRa3ARuRTs9TwLhA84P9aj',
      amountMinor: 100,
      currency: 'USD',
      livemode: false,
    });
    validate(refund, '/v1/refunds');
    assert.equal(decodeStripeForm(refund.body ?? '').payment_intent, 'pi_1KmRa3ARuRTs9TwLhA84P9aj');
    const read = buildRetrievePaymentIntent(ACCOUNT, 'pi_1KmRa3ARuRTs9TwLhA84P9aj');
    assert.equal(read.body, undefined);
    assert.equal(read.headers['idempotency-key'], undefined);
    const search = new URL(buildSearchPaymentIntent(ACCOUNT, "k'ey").url);
    assert.equal(search.pathname, '/v1/payment_intents/search');
    assert.equal(search.searchParams.get('query'), `metadata['${KEY_METADATA}']:'key'`);
  });

  it("maps Stripe's payment_intent fixture in each status", () => {
    const id = 'pi_1KmRa3ARuRTs9TwLhA84P9aj';
    assert.deepEqual(
      parsePaymentIntentReply(answer(200, intent({ status: 'succeeded', amount_received: 1099 }))),
      {
        kind: 'succeeded',
        gatewayReference: id,
        captured: { amountMinor: 1099, currency: 'USD' },
      },
    );
    assert.deepEqual(parsePaymentIntentReply(answer(200, intent({ status: 'processing' }))), {
      kind: 'pending',
      gatewayReference: id,
    });
    const challenge = intent({
      status: 'requires_action',
      next_action: {
        type: 'redirect_to_url',
        redirect_to_url: { url: 'https://hooks.stripe.com/3d', return_url: 'x' },
      },
    });
    assert.deepEqual(parsePaymentIntentReply(answer(200, challenge)), {
      kind: 'requires_action',
      gatewayReference: id,
      redirectUrl: 'https://hooks.stripe.com/3d',
    });
    const sdkOnly = intent({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
    assert.equal(parsePaymentIntentReply(answer(200, sdkOnly)).kind, 'indeterminate');
    // The fixture as Stripe shows it: awaiting a payment method, no error yet: not an outcome.
    assert.equal(parsePaymentIntentReply(answer(200, stripeFixture('payment_intent'))).kind, 'indeterminate');
    const canceled = parsePaymentIntentReply(answer(200, intent({ status: 'canceled' })));
    assert.equal(canceled.kind === 'failed' && canceled.failureCode, 'gateway_rejected');
    // A manual intent's authorisation: what Stripe holds, until 7 days after its creation.
    const held = parsePaymentIntentReply(
      answer(200, intent({ status: 'requires_capture', amount_capturable: 1099, created: 1_700_000_000 })),
    );
    assert.deepEqual(held, {
      kind: 'authorized',
      gatewayReference: id,
      captureBefore: new Date((1_700_000_000 + 7 * 86_400) * 1000),
      authorized: { amountMinor: 1099, currency: 'USD' },
    });
    assert.equal(
      parsePaymentIntentReply(answer(200, intent({ status: 'requires_capture', amount_capturable: null })))
        .kind,
      'indeterminate',
      'an authorisation whose amount cannot be read is not one',
    );
  });

  it('reads a 402 decline with its PaymentIntent as card_declined, with the reference', () => {
    const declined = intent({
      status: 'requires_payment_method',
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    const outcome = parsePaymentIntentReply(
      answer(402, {
        error: {
          type: 'card_error',
          code: 'card_declined',
          message: 'Your card was declined.',
          payment_intent: declined,
        },
      }),
    );
    assert.deepEqual(outcome, {
      kind: 'failed',
      gatewayReference: 'pi_1KmRa3ARuRTs9TwLhA84P9aj',
      failureCode: 'card_declined',
      declineCode: 'generic_decline',
      gatewayCode: 'generic_decline',
      message: 'Your card was declined.',
    });
  });

  it("reads Stripe's decline_code, else its error code, into the vocabulary, keeping Stripe's own", () => {
    const declinedWith = (error: Record<string, unknown>) =>
      parsePaymentIntentReply(
        answer(402, {
          error: {
            type: 'card_error',
            ...error,
            payment_intent: intent({
              status: 'requires_payment_method',
              last_payment_error: { type: 'card_error', message: 'Declined.', ...error },
            }),
          },
        }),
      );
    const reasonOf = (outcome: ReturnType<typeof declinedWith>) =>
      outcome.kind === 'failed' ? [outcome.declineCode, outcome.gatewayCode] : null;
    assert.deepEqual(reasonOf(declinedWith({ code: 'card_declined', decline_code: 'insufficient_funds' })), [
      'insufficient_funds',
      'insufficient_funds',
    ]);
    assert.deepEqual(reasonOf(declinedWith({ code: 'card_declined', decline_code: 'stolen_card' })), [
      'lost_or_stolen',
      'stolen_card',
    ]);
    assert.deepEqual(reasonOf(declinedWith({ code: 'incorrect_number' })), [
      'incorrect_number',
      'incorrect_number',
    ]);
    assert.deepEqual(reasonOf(declinedWith({ code: 'card_declined', decline_code: 'brand_new_reason' })), [
      'generic_decline',
      'brand_new_reason',
    ]);
    // A 402 without its PaymentIntent still says why, from the error itself.
    const bare = parsePaymentIntentReply(
      answer(402, { error: { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' } }),
    );
    assert.deepEqual(reasonOf(bare), ['expired_card', 'expired_card']);
  });

  it('reads refusals: 400 rejected, 409 in progress unknown, 401 and 429 unavailable, 500 unknown', () => {
    const rejected = parsePaymentIntentReply(
      answer(400, { error: { type: 'invalid_request_error', message: 'No such PaymentMethod' } }),
    );
    assert.equal(rejected.kind === 'failed' && rejected.failureCode, 'gateway_rejected');
    assert.equal(
      parsePaymentIntentReply(answer(409, { error: { code: 'idempotency_key_in_use' } })).kind,
      'indeterminate',
    );
    assert.equal(parsePaymentIntentReply(answer(401, {})).kind, 'unavailable');
    const busy = parsePaymentIntentReply(answer(429, { error: { type: 'rate_limit_error' } }, 4));
    assert.equal(busy.kind === 'unavailable' && busy.retryAfterSeconds, 4);
    assert.equal(parsePaymentIntentReply(answer(500, {})).kind, 'indeterminate');
    assert.equal(
      parsePaymentIntentReply({ kind: 'none', detail: 'reset', durationMs: 1 }).kind,
      'indeterminate',
    );
  });

  it('reads a search: the match, or unknown while the index may lag', () => {
    const found = answer(200, {
      object: 'search_result',
      data: [intent({ status: 'succeeded' })],
      has_more: false,
    });
    assert.equal(parsePaymentIntentReply(found).kind, 'succeeded');
    assert.equal(
      parsePaymentIntentReply(answer(200, { object: 'search_result', data: [] })).kind,
      'indeterminate',
    );
  });

  it('builds a refund only from what is stable for it: another row id under the same key is the same bytes', () => {
    const request = {
      idempotencyKey: 'pi_1:refund:abc',
      refundId: 're_first_row',
      paymentIntentId: 'pi_1',
      chargeReference: 'pi_1KmRa3ARuRTs9TwLhA84P9aj',
      amountMinor: 100,
      currency: 'USD',
      livemode: false,
    };
    const first = buildCreateRefund(ACCOUNT, request);
    const again = buildCreateRefund(ACCOUNT, { ...request, refundId: 're_second_row' });
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotency-key'], first.headers['idempotency-key']);
  });

  it('finds a refund made with our key in the payment intent refund list, or knows none was made', () => {
    const list = new URL(buildListRefunds(ACCOUNT, 'pi_1KmRa3ARuRTs9TwLhA84P9aj').url);
    assert.equal(list.pathname, '/v1/refunds');
    assert.equal(list.searchParams.get('payment_intent'), 'pi_1KmRa3ARuRTs9TwLhA84P9aj');
    const ours = { ...stripeFixture('refund'), metadata: { [KEY_METADATA]: 'pi_1:refund:abc' } };
    const other = { ...stripeFixture('refund'), id: 're_other', metadata: {} };
    const page = (data: unknown[], hasMore = false) =>
      answer(200, { object: 'list', data, has_more: hasMore, url: '/v1/refunds' });
    assert.equal(parseRefundListReply(page([other, ours]), 'pi_1:refund:abc').kind, 'succeeded');
    assert.equal(parseRefundListReply(page([other]), 'pi_1:refund:abc').kind, 'unavailable');
    assert.equal(
      parseRefundListReply(page([other], true), 'pi_1:refund:abc').kind,
      'indeterminate',
      'a longer list may hold it',
    );
    assert.equal(parseRefundListReply(answer(500, {}), 'pi_1:refund:abc').kind, 'indeterminate');
    assert.equal(parseRefundListReply(answer(404, {}), 'pi_1:refund:abc').kind, 'indeterminate');
  });

  it("maps Stripe's refund fixture in each status", () => {
    const refund = stripeFixture('refund');
    assert.deepEqual(parseRefundReply(answer(200, refund)), {
      kind: 'succeeded',
      gatewayReference: 're_1KnYOVARuRTs9TwL4WnZApSp',
      refunded: { amountMinor: 100, currency: 'USD' },
    });
    assert.equal(parseRefundReply(answer(200, { ...refund, status: 'pending' })).kind, 'pending');
    assert.equal(
      parseRefundReply(
        answer(200, { ...refund, status: 'failed', failure_reason: 'expired_or_canceled_card' }),
      ).kind,
      'failed',
    );
    assert.equal(parseRefundReply(answer(200, { ...refund, status: 'mystery' })).kind, 'indeterminate');
    assert.equal(
      parseRefundReply(answer(400, { error: { message: 'Refund amount is greater than unrefunded amount' } }))
        .kind,
      'failed',
    );
  });
});
