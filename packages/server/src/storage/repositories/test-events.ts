import type { EventEnvelope } from '../../domain/events.ts';
import type { Queryable } from '../db.ts';
import { wakeDeliveryWorkers } from './events.ts';

/**
 * Writes a sample event and ONE pending delivery of it to one endpoint (not to every subscriber,
 * as `insertEvent` does), and wakes the delivery workers at commit. From there it is delivered,
 * signed, retried and listed exactly like any other event.
 */
export async function insertTestEventForEndpoint(
  q: Queryable,
  input: {
    merchantId: string;
    endpointId: string;
    deliveryId: string;
    objectId: string;
    event: { envelope: EventEnvelope; payload: string };
    now: Date;
  },
): Promise<void> {
  const { envelope, payload } = input.event;
  await q.query(
    `INSERT INTO events (id, merchant_id, livemode, type, object_id, payload, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [envelope.id, input.merchantId, envelope.livemode, envelope.type, input.objectId, payload, input.now],
  );
  await q.query(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, 'PENDING', $4, $4, $4)`,
    [input.deliveryId, envelope.id, input.endpointId, input.now],
  );
  wakeDeliveryWorkers(q);
}
