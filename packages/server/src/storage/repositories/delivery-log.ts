// The back office's delivery log: one merchant's deliveries, filtered and read by keyset pages.
// Kept apart from webhook-deliveries.ts, which the delivery worker (and so the confirm path) loads.
import { type KeysetSide, keysetSql } from '../../domain/keyset.ts';
import type { ListPosition } from '../../domain/list-cursor.ts';
import type { Queryable } from '../db.ts';
import {
  type DeliveryRow,
  type DeliveryStatus,
  deliveryColumns,
  deliveryFromRow,
  type WebhookDeliveryRecord,
} from './webhook-deliveries.ts';

export interface DeliverySearch {
  merchantId: string;
  livemode: boolean;
  endpointId?: string | undefined;
  eventId?: string | undefined;
  eventType?: string | undefined;
  status?: DeliveryStatus | undefined;
  /** Where the page starts (keyset on (created_at, id), domain/keyset.ts); null: the newest. */
  side: KeysetSide<ListPosition>;
  limit: number;
}

/**
 * One merchant's deliveries in one mode, narrowed by whichever filters are given, read from
 * `search.side` (older rows newest first, newer rows oldest first), each with its position.
 */
export async function searchDeliveries(
  q: Queryable,
  search: DeliverySearch,
): Promise<{ delivery: WebhookDeliveryRecord; position: ListPosition }[]> {
  const position = search.side && ('older' in search.side ? search.side.older : search.side.newer);
  const keyset = keysetSql(
    search.side,
    { createdAt: 'd.created_at', id: 'd.id' },
    { createdAt: '$8', id: '$9' },
  );
  const { rows } = await q.query<DeliveryRow & { position_at: string }>(
    `SELECT ${deliveryColumns},
            to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
       FROM webhook_deliveries d
       JOIN events e ON e.id = d.event_id
       JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE w.merchant_id = $1 AND w.livemode = $2
        AND ($3::text IS NULL OR d.endpoint_id = $3)
        AND ($4::text IS NULL OR d.event_id = $4)
        AND ($5::text IS NULL OR e.type = $5)
        AND ($6::text IS NULL OR d.status = $6)
        AND ${keyset.where ?? '($8::text IS NULL AND $9::text IS NULL)'}
      ORDER BY ${keyset.order}
      LIMIT $7`,
    [
      search.merchantId,
      search.livemode,
      search.endpointId ?? null,
      search.eventId ?? null,
      search.eventType ?? null,
      search.status ?? null,
      search.limit,
      position?.createdAt ?? null,
      position?.id ?? null,
    ],
  );
  return rows.map((row) => {
    const delivery = deliveryFromRow(row);
    return { delivery, position: { createdAt: row.position_at, id: delivery.id } };
  });
}
