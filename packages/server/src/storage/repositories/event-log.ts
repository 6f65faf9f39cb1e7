// The back office's events list: one merchant's events in one mode, filtered and read by keyset
// pages, each with how its deliveries stand. Kept apart from events.ts, which every state change
// (and so the confirm path) loads.
import { type KeysetSide, keysetSql } from '../../domain/keyset.ts';
import type { ListPosition } from '../../domain/list-cursor.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../db.ts';

export interface EventLogFilter {
  type?: string | undefined;
  /** The resource; a payment intent's id also finds the events of its refunds and disputes. */
  objectId?: string | undefined;
  /** Created at or after. */
  from?: Date | undefined;
  /** Created before. */
  to?: Date | undefined;
}

export interface EventDeliveryCounts {
  total: number;
  delivered: number;
  pending: number;
  failed: number;
}

export interface EventLogRecord {
  id: string;
  livemode: boolean;
  type: string;
  objectId: string;
  /** The payment the resource belongs to: the intent itself, or the payload's payment_intent_id. */
  paymentIntentId: string | null;
  createdAt: Date;
  deliveries: EventDeliveryCounts;
}

interface EventLogRow {
  id: string;
  livemode: boolean;
  type: string;
  object_id: string;
  payment_intent_id: string | null;
  created_at: Date;
  position_at: string;
  total: number;
  delivered: number;
  pending: number;
  failed: number;
}

// The payment an event's resource belongs to (the intent itself, or the payload's
// payment_intent_id), when the tenant has it: a test event's made-up resource leads nowhere. The
// payload is read only for the rows returned.
const EVENT_COLUMNS = 'e.id, e.livemode, e.type, e.object_id, e.created_at, p.id AS payment_intent_id';
const PAYMENT_OF_EVENT = `LEFT JOIN payment_intents p
         ON p.id = CASE WHEN e.object_id LIKE 'pi\\_%' THEN e.object_id
                        ELSE e.payload::jsonb #>> '{data,object,payment_intent_id}' END
        AND p.merchant_id = e.merchant_id AND p.livemode = e.livemode`;

// The delivery counts of one event: its deliveries are found by the (event_id, endpoint_id) key.
const DELIVERY_COUNTS = `LEFT JOIN LATERAL (
         SELECT count(*)::int AS total,
                (count(*) FILTER (WHERE d.status = 'DELIVERED'))::int AS delivered,
                (count(*) FILTER (WHERE d.status = 'PENDING'))::int AS pending,
                (count(*) FILTER (WHERE d.status = 'FAILED'))::int AS failed
           FROM webhook_deliveries d WHERE d.event_id = e.id) c ON true`;

function recordOf(row: Omit<EventLogRow, 'position_at'>): EventLogRecord {
  return {
    id: row.id,
    livemode: row.livemode,
    type: row.type,
    objectId: row.object_id,
    paymentIntentId: row.payment_intent_id,
    createdAt: row.created_at,
    deliveries: { total: row.total, delivered: row.delivered, pending: row.pending, failed: row.failed },
  };
}

/**
 * The tenant's events that pass every filter, by (created_at, id) from `side` (keyset: older rows
 * newest first, or newer rows oldest first; domain/keyset.ts), `limit` rows at most, each with
 * its position. Only the filters given are in the statement, so each combination has its plan:
 * a page reads events_merchant (migration 001; PostgreSQL sorts the few rows of one created_at by
 * id), a type filter events_merchant_type (331), a resource filter events_object.
 */
export async function searchEventLog(
  q: Queryable,
  scope: TenantScope,
  filter: EventLogFilter,
  side: KeysetSide<ListPosition>,
  limit: number,
): Promise<{ event: EventLogRecord; position: ListPosition }[]> {
  const params: unknown[] = [scope.merchantId, scope.livemode];
  const where = ['e.merchant_id = $1', 'e.livemode = $2'];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.type !== undefined) add((n) => `e.type = ${n}`, filter.type);
  if (filter.objectId !== undefined)
    // One array, computed once: the resource and (for an intent) its refunds and disputes, so the
    // rows are found through events_object whichever it is.
    add(
      (n) => `e.object_id = ANY (ARRAY(
        SELECT ${n}::text
        UNION ALL SELECT id FROM refunds WHERE payment_intent_id = ${n}
        UNION ALL SELECT id FROM disputes WHERE payment_intent_id = ${n}))`,
      filter.objectId,
    );
  if (filter.from !== undefined) add((n) => `e.created_at >= ${n}`, filter.from);
  if (filter.to !== undefined) add((n) => `e.created_at < ${n}`, filter.to);
  const position = side && ('older' in side ? side.older : side.newer);
  if (position) params.push(position.createdAt, position.id);
  const keyset = keysetSql(
    side,
    { createdAt: 'e.created_at', id: 'e.id' },
    { createdAt: `$${params.length - 1}`, id: `$${params.length}` },
  );
  if (keyset.where) where.push(keyset.where);
  params.push(limit);
  const { rows } = await q.query<EventLogRow>(
    `SELECT ${EVENT_COLUMNS},
            to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at,
            c.total, c.delivered, c.pending, c.failed
       FROM (SELECT * FROM events e
              WHERE ${where.join(' AND ')}
              ORDER BY ${keyset.order}
              LIMIT $${params.length}) e
       ${PAYMENT_OF_EVENT}
       ${DELIVERY_COUNTS}
      ORDER BY ${keyset.order}`,
    params,
  );
  return rows.map((row) => ({ event: recordOf(row), position: { createdAt: row.position_at, id: row.id } }));
}

/** One event of the tenant with its exact payload; null for an unknown id or another tenant's. */
export async function findTenantEvent(
  q: Queryable,
  scope: TenantScope,
  id: string,
): Promise<(EventLogRecord & { payload: string }) | null> {
  const { rows } = await q.query<Omit<EventLogRow, 'position_at'> & { payload: string }>(
    `SELECT ${EVENT_COLUMNS}, e.payload, c.total, c.delivered, c.pending, c.failed
       FROM events e
       ${PAYMENT_OF_EVENT}
       ${DELIVERY_COUNTS}
      WHERE e.id = $1 AND e.merchant_id = $2 AND e.livemode = $3`,
    [id, scope.merchantId, scope.livemode],
  );
  const row = rows[0];
  return row ? { ...recordOf(row), payload: row.payload } : null;
}
