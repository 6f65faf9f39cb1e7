import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../db.ts';

export interface AttemptSummary {
  attempt_number: number;
  gateway_id: string;
  status: string;
  gateway_reference: string | null;
  failure_code: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The charge attempts of one intent, first to last (never the payment-method token). */
export async function listAttemptsOfIntent(q: Queryable, scope: TenantScope, paymentIntentId: string) {
  const { rows } = await q.query<AttemptSummary>(
    `SELECT attempt_number, gateway_id, status, gateway_reference, failure_code, created_at, updated_at
       FROM charge_attempts
      WHERE payment_intent_id = $1 AND merchant_id = $2 AND livemode = $3
      ORDER BY attempt_number`,
    [paymentIntentId, scope.merchantId, scope.livemode],
  );
  return rows;
}

export interface EventSummary {
  id: string;
  type: string;
  object_id: string;
  payload: string;
  created_at: Date;
}

/** The tenant's events about these objects (an intent and its refunds), oldest first. */
export async function listEventsOfObjects(q: Queryable, scope: TenantScope, objectIds: string[]) {
  const { rows } = await q.query<EventSummary>(
    `SELECT id, type, object_id, payload, created_at FROM events
      WHERE object_id = ANY($1::text[]) AND merchant_id = $2 AND livemode = $3
      ORDER BY created_at, id`,
    [objectIds, scope.merchantId, scope.livemode],
  );
  return rows;
}

export interface DeliverySummary {
  id: string;
  event_id: string;
  endpoint_id: string;
  endpoint_url: string;
  status: string;
  attempt_count: number;
  delivered_at: Date | null;
}

/** The deliveries of these events, with the address each went to. */
export async function listDeliveriesOfEvents(q: Queryable, eventIds: string[]) {
  const { rows } = await q.query<DeliverySummary>(
    `SELECT d.id, d.event_id, d.endpoint_id, e.url AS endpoint_url, d.status, d.attempt_count, d.delivered_at
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.event_id = ANY($1::text[])
      ORDER BY d.created_at, d.id`,
    [eventIds],
  );
  return rows;
}
