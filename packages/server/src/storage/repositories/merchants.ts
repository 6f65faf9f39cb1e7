import type { ListPosition } from '../../domain/list-cursor.ts';
import { POSITION_SQL, type Queryable } from '../db.ts';

export interface MerchantRow {
  id: string;
  name: string;
  created_at: Date;
}

/** A merchant as the operator's API lists it, with its status and its place in the list. */
export interface MerchantListRow extends MerchantRow {
  disabled_at: Date | null;
  position: string;
}

const listColumns = `id, name, created_at, disabled_at, ${POSITION_SQL} AS position`;

export async function insertMerchant(q: Queryable, merchant: MerchantRow): Promise<void> {
  await q.query('INSERT INTO merchants (id, name, created_at) VALUES ($1, $2, $3)', [
    merchant.id,
    merchant.name,
    merchant.created_at,
  ]);
}

export async function findMerchant(q: Queryable, id: string): Promise<MerchantRow | null> {
  const { rows } = await q.query<MerchantRow>('SELECT id, name, created_at FROM merchants WHERE id = $1', [
    id,
  ]);
  return rows[0] ?? null;
}

export async function countMerchants(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM merchants');
  return rows[0]?.n ?? 0;
}

export async function findMerchantWithStatus(q: Queryable, id: string): Promise<MerchantListRow | null> {
  const { rows } = await q.query<MerchantListRow>(`SELECT ${listColumns} FROM merchants WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** One page, newest first; `limit + 1` rows are read so the caller knows whether more follow. */
export async function listMerchants(
  q: Queryable,
  page: { limit: number; after: ListPosition | null },
): Promise<MerchantListRow[]> {
  const { rows } = await q.query<MerchantListRow>(
    `SELECT ${listColumns} FROM merchants
      WHERE $1::timestamptz IS NULL OR (created_at, id) < ($1::timestamptz, $2::text)
      ORDER BY created_at DESC, id DESC
      LIMIT $3`,
    [page.after?.createdAt ?? null, page.after?.id ?? null, page.limit + 1],
  );
  return rows;
}

export async function updateMerchant(
  q: Queryable,
  id: string,
  change: { name?: string; disabledAt?: Date | null },
): Promise<MerchantListRow | null> {
  const { rows } = await q.query<MerchantListRow>(
    `UPDATE merchants
        SET name = COALESCE($2, name),
            disabled_at = CASE WHEN $3::boolean THEN $4::timestamptz ELSE disabled_at END
      WHERE id = $1
      RETURNING ${listColumns}`,
    [id, change.name ?? null, change.disabledAt !== undefined, change.disabledAt ?? null],
  );
  return rows[0] ?? null;
}
