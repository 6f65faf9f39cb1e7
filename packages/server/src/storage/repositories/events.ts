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

/** An event to write into the outbox: its envelope, its exact payload, whose it is and what about. */
export interface EventToWrite {
  merchantId: string;
  objectId: string;
  envelope: EventEnvelope;
  payload: string;
}

/**
 * The arguments of `paygate_insert_event` (migration 261), in its order: the one definition of an
 * event's outbox write, which `paygate_apply_payment_change` calls too.
 *
 * A delivery id has the shape of every id (`wd_` and 24 base62 characters): 20 random characters
 * drawn once per event in JS, then the endpoint's rank among the event's endpoints in 4 base62
 * digits (`base62_digits`, migration 040; room for 62^4 endpoints, beyond that the primary key
 * refuses and nothing is overwritten). The endpoints are only known inside the statement, so
 * their ids cannot all be drawn before it.
 */
export function eventArguments(event: EventToWrite): unknown[] {
  return [
    event.envelope.id,
    event.merchantId,
    event.envelope.livemode,
    event.envelope.type,
    event.objectId,
    event.payload,
    new Date(event.envelope.created),
    randomBase62(20),
    `${idPrefixes.webhookDelivery}_`,
  ];
}

/**
 * What follows an event's write, wherever it was written: the delivery workers are woken after the
 * commit when deliveries were queued, and the metrics hear of it.
 */
export function eventRecorded(q: Queryable, event: EventToWrite, queued: boolean): void {
  if (queued) wakeDeliveryWorkers(q);
  if (eventWritten.hasSubscribers) eventWritten.publish({ type: event.envelope.type });
}

/**
 * Writes an event into the outbox, inside the caller's transaction, in ONE statement
 * (`paygate_insert_event`, migration 261): the event and one PENDING delivery (due at once) for
 * every endpoint of the merchant and mode that subscribes to its type and is not disabled. Event
 * and deliveries commit together or not at all; when at least one delivery was queued, the
 * delivery workers are woken after the commit ({@link wakeDeliveryWorkers}).
 */
export async function insertEvent(
  q: Queryable,
  merchantId: string,
  objectId: string,
  event: { envelope: EventEnvelope; payload: string },
): Promise<void> {
  const written = { merchantId, objectId, ...event };
  const { rows } = await q.query<{ queued: boolean }>(INSERT_EVENT, eventArguments(written));
  eventRecorded(q, written, rows[0]?.queued === true);
}

const INSERT_EVENT = 'SELECT paygate_insert_event($1, $2, $3, $4, $5, $6, $7, $8, $9) AS queued';

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
