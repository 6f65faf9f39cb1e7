import { type Static, type TSchema, Type } from 'typebox';
import { IdOf, Livemode, Timestamp } from './common.ts';
import { Customer } from './customer.ts';
import { Dispute } from './dispute.ts';
import { PaymentIntent } from './payment-intent.ts';
import { Refund } from './refund.ts';
import { SavedPaymentMethod } from './saved-payment-method.ts';

/**
 * Every event type, with the resource its `data.object` carries: the one list the server emits
 * from, the OpenAPI `webhooks:` section describes, and the TypeScript client is checked against.
 * A new type is added here, once.
 */
export const eventObjectByType = {
  'payment_intent.requires_action': 'payment_intent',
  /** A manual intent's payment is authorised: capture it (or cancel to void it) before capture_before. */
  'payment_intent.requires_capture': 'payment_intent',
  'payment_intent.succeeded': 'payment_intent',
  'payment_intent.failed': 'payment_intent',
  'payment_intent.canceled': 'payment_intent',
  'payment_intent.expired': 'payment_intent',
  /** A capture that arrived after the intent was canceled, expired or failed was refunded in full. */
  'payment_intent.late_capture_refunded': 'payment_intent',
  /** The gateway captured the payer's money after the intent was canceled, expired or failed: it is in the books, and refunded. */
  'payment_intent.late_captured': 'payment_intent',
  /** The gateway reversed the capture of a SUCCEEDED intent (Adyen CAPTURE_FAILED): the money is not the merchant's. */
  'payment_intent.capture_reversed': 'payment_intent',
  'refund.succeeded': 'refund',
  'refund.failed': 'refund',
  'dispute.created': 'dispute',
  'dispute.updated': 'dispute',
  'dispute.closed': 'dispute',
  'customer.created': 'customer',
  'customer.updated': 'customer',
  'customer.deleted': 'customer',
  'saved_payment_method.attached': 'saved_payment_method',
  'saved_payment_method.detached': 'saved_payment_method',
} as const;

export type EventType = keyof typeof eventObjectByType;
export const eventTypes = Object.keys(eventObjectByType) as EventType[];

const eventSummaries: Record<EventType, string> = {
  'payment_intent.requires_action': 'The payer must complete a challenge at redirect_url.',
  'payment_intent.requires_capture':
    'The payment is authorised and waits for its capture (capture_method manual): capture it, or cancel it to release the authorisation, before capture_before.',
  'payment_intent.succeeded': 'The payment succeeded.',
  'payment_intent.failed': 'The payment failed (declined or rejected by the gateway).',
  'payment_intent.canceled':
    'The intent was canceled: by the merchant, or (a manual intent) its authorisation was voided or lapsed; cancellation_reason says which.',
  'payment_intent.expired': 'The intent expired before it was paid.',
  'payment_intent.late_captured':
    "The gateway captured the payer's money after the intent was canceled, expired or failed: the PAYMENT transaction is APPROVED and an automatic refund of the same amount is under way. The intent keeps its status.",
  'payment_intent.late_capture_refunded':
    'A capture that arrived after the intent was canceled, expired or failed was refunded in full.',
  'payment_intent.capture_reversed':
    'The gateway reports that the capture of this succeeded payment failed or was reversed: the money did not reach the merchant. The intent stays SUCCEEDED; the operator settles it with the gateway.',
  'refund.succeeded': 'The refund succeeded.',
  'refund.failed': 'The refund failed.',
  'dispute.created':
    'The payer’s bank disputed a payment (a chargeback); when the gateway took the amount back, a DISPUTE transaction records it.',
  'dispute.updated': 'An open dispute changed: its status, reason or evidence due date.',
  'dispute.closed':
    'The dispute was decided: WON (a DISPUTE_REVERSAL transaction returns the amount) or LOST.',
  'customer.created': 'A customer was created.',
  'customer.updated': "A customer's e-mail, name or metadata changed.",
  'customer.deleted':
    'A customer was deleted (data.object carries deleted: true); its saved payment methods are detached.',
  'saved_payment_method.attached':
    'A payment method was saved for a customer: a payment made with setup_future_usage succeeded, and the method can now be charged without the payer.',
  'saved_payment_method.detached':
    'A saved payment method was detached (by the merchant, with its customer, or at the gateway): it can no longer be charged.',
};

const objectSchemas = {
  payment_intent: PaymentIntent,
  refund: Refund,
  dispute: Dispute,
  customer: Customer,
  saved_payment_method: SavedPaymentMethod,
} as const;

/** The envelope every delivery carries, for one event type. */
export function eventEnvelope<Type extends EventType>(type: Type): TSchema {
  return Type.Object({
    id: IdOf('evt'),
    object: Type.Literal('event'),
    type: Type.Literal(type),
    created: Timestamp,
    livemode: Livemode,
    data: Type.Object({ object: objectSchemas[eventObjectByType[type]] }),
  });
}

export const EventEnvelope = Type.Object({
  id: IdOf('evt'),
  object: Type.Literal('event'),
  type: Type.String({ description: 'One of the event types; a client ignores types it does not know' }),
  created: Timestamp,
  livemode: Livemode,
  data: Type.Object({ object: Type.Union([PaymentIntent, Refund, Dispute, Customer, SavedPaymentMethod]) }),
});
export type EventEnvelope = Static<typeof EventEnvelope>;

export function eventSummary(type: EventType): string {
  return eventSummaries[type];
}
