import type { EventEnvelope } from '../../domain/events.ts';
import type { Queryable } from '../db.ts';
import { fanOutEvent } from './webhook-deliveries.ts';

/**
 * Delivery workers LISTEN on this channel; the NOTIFY is sent at commit, never before, and only
 * when deliveries were queued (an event of a merchant without endpoints wakes nobody).
 */
export const EVENTS_CHANNEL = 'paygate_events';

export interface EventRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  object_id: string;
  payload: string;
  created_at: Date;
}

/** Writes an event into the outbox, inside the caller's transaction. */
export async function insertEvent(
  q: Queryable,
  merchantId: string,
  objectId: string,
  event: { envelope: EventEnvelope; payload: string },
): Promise<void> {
  await q.query(
    `INSERT INTO events (id, merchant_id, livemode, type, object_id, payload, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      event.envelope.id,
      merchantId,
      event.envelope.livemode,
      event.envelope.type,
      objectId,
      event.payload,
      new Date(event.envelope.created),
    ],
  );
  // One delivery per subscribed endpoint, in this same transaction: nothing committed is lost.
  const queued = await fanOutEvent(q, {
    id: event.envelope.id,
    merchantId,
    livemode: event.envelope.livemode,
    type: event.envelope.type,
    createdAt: new Date(event.envelope.created),
  });
  if (queued > 0) await q.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, event.envelope.id]);
}

export async function listEventsForObject(q: Queryable, objectId: string): Promise<EventRow[]> {
  const { rows } = await q.query<EventRow>(
    `SELECT id, merchant_id, livemode, type, object_id, payload, created_at
       FROM events WHERE object_id = $1 ORDER BY created_at, id`,
    [objectId],
  );
  return rows;
}
