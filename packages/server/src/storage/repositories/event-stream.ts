import type { Queryable } from '../db.ts';

export interface StreamedEvent {
  id: string;
  type: string;
  payload: string;
  createdAt: Date;
}

/**
 * The merchant's events (one mode) written at or after `since`, oldest first, at most `limit`:
 * what `paygate listen` has not been sent yet. Served by the `events_merchant` index.
 */
export async function eventsSince(
  q: Queryable,
  scope: { merchantId: string; livemode: boolean },
  since: Date,
  limit: number,
): Promise<StreamedEvent[]> {
  const { rows } = await q.query<{ id: string; type: string; payload: string; created_at: Date }>(
    `SELECT id, type, payload, created_at FROM events
      WHERE merchant_id = $1 AND livemode = $2 AND created_at >= $3
      ORDER BY created_at, id LIMIT $4`,
    [scope.merchantId, scope.livemode, since, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    payload: row.payload,
    createdAt: new Date(row.created_at),
  }));
}
