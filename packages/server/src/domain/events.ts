// The event list lives in the contract, once: the server emits exactly the types it describes.
import { type EventType, eventTypes } from '@paygate/contract';
import { newId } from './ids.ts';

export { type EventType, eventTypes };

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
