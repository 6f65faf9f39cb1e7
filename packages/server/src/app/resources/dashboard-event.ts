import type { EventLogRecord } from '../../storage/repositories/event-log.ts';
import type { DeliverySummary } from '../../storage/repositories/payment-detail.ts';

// The back office's events: a row of the list, and one event with its payload and deliveries.

function eventFields(event: EventLogRecord) {
  return {
    id: event.id,
    object: 'event' as const,
    type: event.type,
    livemode: event.livemode,
    object_id: event.objectId,
    payment_intent_id: event.paymentIntentId,
    created_at: event.createdAt.toISOString(),
  };
}

export function dashboardEventResource(event: EventLogRecord) {
  return { ...eventFields(event), deliveries: event.deliveries };
}

export function dashboardEventDetailResource({
  event,
  deliveries,
}: {
  event: EventLogRecord & { payload: string };
  deliveries: DeliverySummary[];
}) {
  return {
    ...eventFields(event),
    payload: event.payload,
    deliveries: deliveries.map((d) => ({
      id: d.id,
      endpoint_id: d.endpoint_id,
      endpoint_url: d.endpoint_url,
      status: d.status as 'PENDING' | 'DELIVERED' | 'FAILED',
      attempt_count: d.attempt_count,
      delivered_at: d.delivered_at ? d.delivered_at.toISOString() : null,
    })),
  };
}
