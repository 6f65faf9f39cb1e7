import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripeFixture } from '@paygate/gateway-fakes';
import { ManualClock } from '../../clock.ts';
import { GatewayNotificationError } from '../connector.ts';
import { timestampedSignatureHeader } from '../timestamped-signature.ts';
import { parseStripeEvent } from './events.ts';
import { KEY_METADATA } from './wire.ts';

const SECRET = 'whsec_test_secret';
const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
const nowSeconds = clock.now().getTime() / 1000;

function event(type: string, object: Record<string, unknown>, livemode = false): Buffer {
  return Buffer.from(
    JSON.stringify({ id: `evt_${type}`, object: 'event', type, livemode, data: { object } }),
  );
}
const metadata = { [KEY_METADATA]: 'pi_1:attempt:1' };
// A succeeded PaymentIntent received what it asked for (the fixture is a fresh one: 0 received).
const fixture = stripeFixture('payment_intent');
const succeeded = { ...fixture, status: 'succeeded', amount_received: fixture.amount, metadata };

function parse(body: Buffer, header = timestampedSignatureHeader(body, SECRET, nowSeconds)) {
  return parseStripeEvent(body, header, SECRET, false, clock);
}

describe('Stripe webhook events', () => {
  it('reads payment_intent.succeeded as the charge of our key', () => {
    const batch = parse(event('payment_intent.succeeded', succeeded));
    assert.equal(batch.acknowledgement, null);
    assert.deepEqual(batch.items, [
      {
        notificationId: 'evt_payment_intent.succeeded',
        subject: 'charge',
        idempotencyKey: 'pi_1:attempt:1',
        outcome: {
          kind: 'succeeded',
          gatewayReference: 'pi_1KmRa3ARuRTs9TwLhA84P9aj',
          captured: { amountMinor: fixture.amount, currency: 'USD' },
        },
      },
    ]);
  });

  it('reads payment_failed as declined and refund events as the refund of our key', () => {
    const failed = {
      ...succeeded,
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', message: 'Your card was declined.' },
    };
    assert.equal(parse(event('payment_intent.payment_failed', failed)).items[0]?.outcome.kind, 'failed');
    const refund = { ...stripeFixture('refund'), metadata: { [KEY_METADATA]: 'pi_1:refund:abc' } };
    for (const type of ['charge.refund.updated', 'refund.updated']) {
      const [item] = parse(event(type, refund)).items;
      assert.equal(item?.subject, 'refund', type);
      assert.equal(item?.idempotencyKey, 'pi_1:refund:abc');
      assert.equal(item?.outcome.kind, 'succeeded');
    }
    assert.equal(
      parse(event('refund.failed', { ...refund, status: 'failed' })).items[0]?.outcome.kind,
      'failed',
    );
  });

  it('reads charge.refunded as one notification per refund of ours in the charge refund list', () => {
    const refund = stripeFixture('refund');
    const charge = {
      id: 'ch_1',
      object: 'charge',
      metadata, // the payment's key: not a refund's
      refunds: {
        object: 'list',
        has_more: false,
        data: [
          { ...refund, id: 're_b', metadata: { [KEY_METADATA]: 'pi_1:refund:b' } },
          { ...refund, id: 're_a', status: 'pending', metadata: { [KEY_METADATA]: 'pi_1:refund:a' } },
          { ...refund, id: 're_dashboard', metadata: {} },
        ],
      },
    };
    const items = parse(event('charge.refunded', charge)).items;
    assert.deepEqual(
      items.map((i) => [i.notificationId, i.subject, i.idempotencyKey, i.outcome.kind]),
      [
        ['evt_charge.refunded:re_b', 'refund', 'pi_1:refund:b', 'succeeded'],
        ['evt_charge.refunded:re_a', 'refund', 'pi_1:refund:a', 'pending'],
      ],
    );
    assert.deepEqual(parse(event('charge.refunded', { ...charge, refunds: undefined })).items, []);
  });

  it('reads a PaymentIntent event without our key (its id finds the charge) and skips events it does not act on', () => {
    const [unkeyed] = parse(event('payment_intent.succeeded', { ...succeeded, metadata: {} })).items;
    assert.equal(unkeyed?.subject, 'charge');
    assert.equal(unkeyed?.idempotencyKey, null);
    assert.equal(unkeyed?.outcome.kind === 'succeeded' && unkeyed.outcome.gatewayReference, fixture.id);
    assert.deepEqual(parse(event('payment_intent.created', succeeded)).items, []);
  });

  it('refuses a bad signature, another secret, a stale or future timestamp, the other mode', () => {
    const body = event('payment_intent.succeeded', succeeded);
    const tampered = Buffer.from(body.toString('utf8').replace('succeeded"', 'canceled"'));
    assert.throws(
      () => parse(tampered, timestampedSignatureHeader(body, SECRET, nowSeconds)),
      GatewayNotificationError,
    );
    assert.throws(
      () => parse(body, timestampedSignatureHeader(body, 'whsec_other', nowSeconds)),
      GatewayNotificationError,
    );
    assert.throws(() => parse(body, timestampedSignatureHeader(body, SECRET, nowSeconds - 301)), /tolerance/);
    assert.throws(() => parse(body, timestampedSignatureHeader(body, SECRET, nowSeconds + 301)), /tolerance/);
    assert.doesNotThrow(() => parse(body, timestampedSignatureHeader(body, SECRET, nowSeconds - 299)));
    assert.throws(() => parse(body, ''), /missing/);
    assert.throws(() => parse(body, 't=1,v0=abc'), /malformed/);
    const live = event('payment_intent.succeeded', succeeded, true);
    assert.throws(() => parse(live), /livemode/);
  });

  it('accepts any of several v1 signatures, as while a secret is rolled', () => {
    const body = event('payment_intent.succeeded', succeeded);
    const old = timestampedSignatureHeader(body, 'whsec_old', nowSeconds).split(',')[1];
    const header = `${timestampedSignatureHeader(body, SECRET, nowSeconds)},${old}`;
    assert.equal(parse(body, header).items.length, 1);
  });
});
