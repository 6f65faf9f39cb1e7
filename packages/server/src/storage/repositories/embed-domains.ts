import type { Queryable } from '../db.ts';

export interface EmbedDomainRow {
  merchant_id: string;
  origin: string;
  created_at: Date;
}

/** Adds the origin unless it is there already; answers the stored row and whether it was new. */
export async function insertEmbedDomain(
  q: Queryable,
  row: EmbedDomainRow,
): Promise<{ domain: EmbedDomainRow; created: boolean }> {
  const inserted = await q.query<EmbedDomainRow>(
    `INSERT INTO embed_domains (merchant_id, origin, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (merchant_id, origin) DO NOTHING
     RETURNING merchant_id, origin, created_at`,
    [row.merchant_id, row.origin, row.created_at],
  );
  if (inserted.rows[0]) return { domain: inserted.rows[0], created: true };
  const { rows } = await q.query<EmbedDomainRow>(
    'SELECT merchant_id, origin, created_at FROM embed_domains WHERE merchant_id = $1 AND origin = $2',
    [row.merchant_id, row.origin],
  );
  if (!rows[0]) throw new Error('embed domain vanished between insert and read');
  return { domain: rows[0], created: false };
}

export async function listEmbedDomains(q: Queryable, merchantId: string): Promise<EmbedDomainRow[]> {
  const { rows } = await q.query<EmbedDomainRow>(
    'SELECT merchant_id, origin, created_at FROM embed_domains WHERE merchant_id = $1 ORDER BY created_at, origin',
    [merchantId],
  );
  return rows;
}

/** Whether the origin was registered (and is not any more). */
export async function deleteEmbedDomain(q: Queryable, merchantId: string, origin: string): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM embed_domains WHERE merchant_id = $1 AND origin = $2', [
    merchantId,
    origin,
  ]);
  return rowCount > 0;
}
