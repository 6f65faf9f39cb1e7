import type { Queryable } from '../db.ts';

export interface ClientUsageRow {
  merchant_id: string;
  livemode: boolean;
  client: string;
  version: string;
  request_count: number;
  first_seen_at: Date;
  last_seen_at: Date;
}

/** Adds counts gathered in memory: one statement per (merchant, mode, client, version) group. */
export async function addClientUsage(q: Queryable, row: ClientUsageRow): Promise<void> {
  await q.query(
    `INSERT INTO client_usage (merchant_id, livemode, client, version, request_count, first_seen_at, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (merchant_id, livemode, client, version) DO UPDATE
       SET request_count = client_usage.request_count + EXCLUDED.request_count,
           first_seen_at = LEAST(client_usage.first_seen_at, EXCLUDED.first_seen_at),
           last_seen_at = GREATEST(client_usage.last_seen_at, EXCLUDED.last_seen_at)`,
    [
      row.merchant_id,
      row.livemode,
      row.client,
      row.version,
      row.request_count,
      row.first_seen_at,
      row.last_seen_at,
    ],
  );
}

/** The tenant's clients, most recently seen first. */
export async function listClientUsage(
  q: Queryable,
  merchantId: string,
  livemode: boolean,
): Promise<ClientUsageRow[]> {
  const { rows } = await q.query<ClientUsageRow>(
    `SELECT merchant_id, livemode, client, version, request_count, first_seen_at, last_seen_at
       FROM client_usage WHERE merchant_id = $1 AND livemode = $2
      ORDER BY last_seen_at DESC, client, version LIMIT 200`,
    [merchantId, livemode],
  );
  return rows;
}
