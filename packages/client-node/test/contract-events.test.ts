import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type EventType as ContractEventType, type eventObjectByType, eventTypes } from '@paygate/contract';
import { type EventType, isKnownEvent, type KnownWebhookEvent } from '../src/webhooks.ts';

// Checked by `npm run typecheck`: the client's event types are exactly the contract's, and each
// known event's data.object is the resource the contract names for its type. A type added to the
// contract and not to the client (or the reverse) fails to compile here.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const sameTypes: Equal<EventType, ContractEventType> = true;
type ObjectOf<T extends EventType> = Extract<KnownWebhookEvent, { type: T }>['data']['object']['object'];
const sameObjects: Equal<{ readonly [T in EventType]: ObjectOf<T> }, typeof eventObjectByType> = true;

describe('@paygate/node and the contract’s event list', () => {
  it('knows every event type of the contract at run time too', () => {
    assert.ok(sameTypes && sameObjects);
    for (const type of eventTypes) {
      const event = {
        id: 'evt_x',
        object: 'event' as const,
        type,
        created: '',
        livemode: false,
        data: { object: {} },
      };
      assert.equal(isKnownEvent(event), true, type);
    }
    assert.equal(
      isKnownEvent({
        id: 'evt_x',
        object: 'event',
        type: 'payment_intent.teleported',
        created: '',
        livemode: false,
        data: { object: {} },
      }),
      false,
    );
  });
});
