import { newId } from './ids.ts';

export const eventTypes = [
  'payment_intent.requires_action',
  'payment_intent.succeeded',
  'payment_intent.failed',
  'payment_intent.canceled',
  'payment_intent.expired',
  'payment_intent.late_capture_refunded',
  'refund.succeeded',
  'refund.failed',
] as const;
export type EventType = (typeof eventTypes)[number];

export interface EventEnvelope {
  id: string;
  object: 'event';
  type: EventType;
  created: string;
  livemode: boolean;
  data: { object: Record<string, unknown> };
}

/**
 * Builds an event and the exact bytes that will be signed and sent for it. The payload text is
 * fixed here, once, so every redelivery carries the same bytes and the same id.
 */
export function buildEvent(
  type: EventType,
  object: Record<string, unknown>,
  livemode: boolean,
  createdAt: Date,
): { envelope: EventEnvelope; payload: string } {
  const envelope: EventEnvelope = {
    id: newId('evt'),
    object: 'event',
    type,
    created: createdAt.toISOString(),
    livemode,
    data: { object },
  };
  return { envelope, payload: JSON.stringify(envelope) };
}
