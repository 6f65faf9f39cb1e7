import type { Clock } from '../../clock.ts';
import {
  type GatewayNotification,
  type GatewayNotificationBatch,
  GatewayNotificationError,
} from '../connector.ts';
import { stringOf } from '../reply-meaning.ts';
import { verifyTimestampedSignature } from '../timestamped-signature.ts';
import { KEY_METADATA, paymentIntentOutcome, refundObjectOutcome } from './wire.ts';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The settled states a PaymentIntent event reports; `processing` and others change nothing. */
const CHARGE_EVENTS = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
]);
/** Events whose object is a Refund (`charge.refund.updated` is the older name of `refund.updated`). */
const REFUND_EVENTS = new Set(['charge.refund.updated', 'refund.updated', 'refund.failed']);

/** One event as a notification of ours; null when Paygate has nothing to do with it. */
function notificationOf(event: Json, livemode: boolean): GatewayNotification | null {
  const id = stringOf(event.id);
  const type = stringOf(event.type);
  const object = isObject(event.data) && isObject(event.data.object) ? event.data.object : null;
  if (!id || !type || !object) throw new GatewayNotificationError('event has no id, type or data.object');
  if (event.livemode !== livemode) throw new GatewayNotificationError(`event livemode is not ${livemode}`);
  // Objects Paygate did not create (made in Stripe's dashboard, say) carry no key of ours.
  const idempotencyKey = isObject(object.metadata) ? stringOf(object.metadata[KEY_METADATA]) : null;
  if (!idempotencyKey) return null;
  if (CHARGE_EVENTS.has(type)) {
    const outcome = paymentIntentOutcome(object);
    if (outcome.kind === 'indeterminate') throw new GatewayNotificationError(outcome.detail);
    return { notificationId: id, subject: 'charge', idempotencyKey, outcome };
  }
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
  const notification = notificationOf(event, livemode);
  return { items: notification ? [notification] : [], acknowledgement: null };
}
