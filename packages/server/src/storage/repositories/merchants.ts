import type { Queryable } from '../db.ts';

export interface MerchantRow {
  id: string;
  name: string;
  created_at: Date;
}

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
