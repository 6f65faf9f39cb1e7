import { channel } from 'node:diagnostics_channel';
import type { EventEnvelope } from '../../domain/events.ts';
import { idPrefixes, randomBase62 } from '../../domain/ids.ts';
import type { Queryable } from '../db.ts';

/**
 * Delivery workers LISTEN on this channel. They are woken after the commit (`notifyAfterCommit`:
 * this process's at once, other processes by a NOTIFY sent outside the transaction), never
 * before, and only when deliveries were queued (an event of a merchant without endpoints wakes
 * nobody). No pg_notify runs inside a writing transaction: PostgreSQL serialises the commits of
 * notifying transactions (see `Wakeups` in storage/db.ts and docs/decisions/webhooks.md).
 */
export const EVENTS_CHANNEL = 'paygate_events';

/**
 * Told `{ type }` for every event written (the metrics subscribe, in observability/metrics.ts):
 * the outbox write stays free of instrumentation, and costs nothing when nobody listens.
 */
export const eventWritten = channel('paygate:event-written');

export interface EventRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  object_id: string;
  payload: string;
  created_at: Date;
}

/**
 * Writes an event into the outbox, inside the caller's transaction, in ONE statement: the event and
 * one PENDING delivery (due at once) for every endpoint of the merchant and mode that subscribes to
 * its type and is not disabled. Event and deliveries commit together or not at all; when at least
 * one delivery was queued, the delivery workers are woken after the commit ({@link wakeDeliveryWorkers}).
 * (A data-modifying WITH runs to completion whatever the outer query reads of it.)
 *
 * A delivery id has the shape of every id (`wd_` and 24 base62 characters): 20 random characters
 * drawn once per event in JS, then the endpoint's rank among the event's endpoints in 4 base62
 * digits (`base62_digits`, migration 040; room for 62^4 endpoints, beyond that the primary key
 * refuses and nothing is overwritten). The endpoints are only known inside the statement, so
 * their ids cannot all be drawn before it.
 */
export async function insertEvent(
  q: Queryable,
  merchantId: string,
  objectId: string,
  event: { envelope: EventEnvelope; payload: string },
): Promise<void> {
  const { rows } = await q.query<{ queued: boolean }>(
    `WITH event AS (
       INSERT INTO events (id, merchant_id, livemode, type, object_id, payload, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING id
     ),
     subscribed AS (
       SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS rank FROM webhook_endpoints
        WHERE merchant_id = $2 AND livemode = $3 AND status <> 'disabled'
          AND ($4 = ANY (enabled_events) OR '*' = ANY (enabled_events))
     ),
     queued AS (
       INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
       SELECT $9::text || $8::text || base62_digits(subscribed.rank, 4), event.id, subscribed.id, 'PENDING', $7, $7, $7
         FROM event, subscribed
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM queued) AS queued`,
    [
      event.envelope.id,
      merchantId,
      event.envelope.livemode,
      event.envelope.type,
      objectId,
      event.payload,
      new Date(event.envelope.created),
      randomBase62(20),
      `${idPrefixes.webhookDelivery}_`,
    ],
  );
  if (rows[0]?.queued) wakeDeliveryWorkers(q);
  if (eventWritten.hasSubscribers) eventWritten.publish({ type: event.envelope.type });
}

/**
 * Wakes the delivery workers (and the test-event streams) once the transaction of `q` has
 * committed. Whatever queues deliveries calls it in the same transaction.
 */
export function wakeDeliveryWorkers(q: Queryable): void {
  q.notifyAfterCommit(EVENTS_CHANNEL);
}

export async function listEventsForObject(q: Queryable, objectId: string): Promise<EventRow[]> {
  const { rows } = await q.query<EventRow>(
    `SELECT id, merchant_id, livemode, type, object_id, payload, created_at
       FROM events WHERE object_id = $1 ORDER BY created_at, id`,
    [objectId],
  );
  return rows;
}
