import type { Clock } from '../../clock.ts';
import {
  type GatewayNotification,
  type GatewayNotificationBatch,
  GatewayNotificationError,
} from '../connector.ts';
import { stringOf } from '../reply-meaning.ts';
import { verifyTimestampedSignature } from '../timestamped-signature.ts';
import { DISPUTE_EVENTS, stripeDisputeNotification } from './disputes.ts';
import { KEY_METADATA, paymentIntentOutcome, refundObjectOutcome } from './wire.ts';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The settled states a PaymentIntent event reports; `processing` and others change nothing.
 * `amount_capturable_updated`: a manual intent's payment is authorised (`requires_capture`).
 */
const CHARGE_EVENTS = new Set([
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
]);
/** Events whose object is a Refund (`charge.refund.updated` is the older name of `refund.updated`). */
const REFUND_EVENTS = new Set(['charge.refund.updated', 'refund.updated', 'refund.failed']);

/**
 * `charge.refunded`: a Charge whose refunds list holds the refunds made so far (a card refund that
 * succeeds at once is reported only this way). One notification per refund Paygate made; each
 * refund's own id makes the notification id, so replays of the event are recognised.
 */
function refundsOfCharge(eventId: string, charge: Json): GatewayNotification[] {
  const list = isObject(charge.refunds) && Array.isArray(charge.refunds.data) ? charge.refunds.data : [];
  const notifications: GatewayNotification[] = [];
  for (const refund of list) {
    if (!isObject(refund)) continue;
    const idempotencyKey = isObject(refund.metadata) ? stringOf(refund.metadata[KEY_METADATA]) : null;
    const outcome = refundObjectOutcome(refund);
    if (!idempotencyKey || outcome.kind === 'indeterminate') continue;
    const refundId = stringOf(refund.id) ?? idempotencyKey;
    notifications.push({
      notificationId: `${eventId}:${refundId}`,
      subject: 'refund',
      idempotencyKey,
      outcome,
    });
  }
  return notifications;
}

/**
 * Every event type this connector reads, and the list docs/gateways.md tells merchants to
 * subscribe their endpoint to (generated from here: gateways/events-docs.ts). An event of any
 * other type is verified and acknowledged, and changes nothing, so nothing can be read that the
 * docs do not ask for.
 */
export const STRIPE_EVENTS_READ: readonly string[] = [
  ...CHARGE_EVENTS,
  'charge.refunded',
  ...REFUND_EVENTS,
  ...DISPUTE_EVENTS,
];

/** One event as notifications of ours; none when Paygate has nothing to do with it. */
function notificationsOf(event: Json, livemode: boolean): GatewayNotification[] {
  const id = stringOf(event.id);
  const type = stringOf(event.type);
  const object = isObject(event.data) && isObject(event.data.object) ? event.data.object : null;
  if (!id || !type || !object) throw new GatewayNotificationError('event has no id, type or data.object');
  if (event.livemode !== livemode) throw new GatewayNotificationError(`event livemode is not ${livemode}`);
  if (!STRIPE_EVENTS_READ.includes(type)) return [];
  // The Charge carries the payment's metadata; its refunds carry their own keys.
  if (type === 'charge.refunded') return refundsOfCharge(id, object);
  if (DISPUTE_EVENTS.has(type)) return [stripeDisputeNotification(id, type, object)];
  const notification = notificationOf(id, type, object);
  return notification ? [notification] : [];
}

function notificationOf(id: string, type: string, object: Json): GatewayNotification | null {
  const idempotencyKey = isObject(object.metadata) ? stringOf(object.metadata[KEY_METADATA]) : null;
  // A PaymentIntent is found by its id, the reference Paygate stored for the attempt; the key in
  // its metadata only cross-checks it (app/gateways/notifications.ts).
  if (CHARGE_EVENTS.has(type)) {
    const outcome = paymentIntentOutcome(object);
    if (outcome.kind === 'indeterminate') throw new GatewayNotificationError(outcome.detail);
    return { notificationId: id, subject: 'charge', idempotencyKey, outcome };
  }
  // Objects Paygate did not create (made in Stripe's dashboard, say) carry no key of ours.
  if (!idempotencyKey) return null;
  if (REFUND_EVENTS.has(type)) {
    const outcome = refundObjectOutcome(object);
    if (outcome.kind === 'indeterminate') throw new GatewayNotificationError(outcome.detail);
    return { notificationId: id, subject: 'refund', idempotencyKey, outcome };
  }
  return null;
}

/** Verifies `Stripe-Signature` on the exact bytes and reads the one event a request carries. */
export function parseStripeEvent(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  webhookSecret: string,
  livemode: boolean,
  clock: Clock,
): GatewayNotificationBatch {
  verifyTimestampedSignature('Stripe-Signature', signatureHeader, rawBody, webhookSecret, clock);
  let event: unknown;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new GatewayNotificationError('event body is not JSON');
  }
  if (!isObject(event) || event.object !== 'event')
    throw new GatewayNotificationError('body is not a Stripe event');
  return { items: notificationsOf(event, livemode), acknowledgement: null };
}
