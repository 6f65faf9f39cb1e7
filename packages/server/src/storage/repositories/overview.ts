import type { SettledGroup } from '../../domain/overview.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../db.ts';

/**
 * Settled transactions of the tenant created in [from, to), summed by UTC day, currency, type
 * and status: one range scan of `transactions_overview` (070), which holds every column read.
 */
export async function sumSettledTransactions(
  q: Queryable,
  scope: TenantScope,
  from: Date,
  to: Date,
): Promise<SettledGroup[]> {
  const { rows } = await q.query<{
    day: string;
    currency: string;
    type: SettledGroup['type'];
    status: SettledGroup['status'];
    count: number;
    amount_minor: number;
  }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, type, status,
            count(*)::int8 AS count, sum(amount_minor)::int8 AS amount_minor
       FROM transactions
      WHERE merchant_id = $1 AND livemode = $2 AND created_at >= $3 AND created_at < $4
        AND status <> 'PENDING'
      GROUP BY 1, 2, 3, 4
      ORDER BY 1, 2`,
    [scope.merchantId, scope.livemode, from, to],
  );
  return rows.map((row) => ({
    day: row.day,
    currency: row.currency,
    type: row.type,
    status: row.status,
    count: row.count,
    amountMinor: row.amount_minor,
  }));
}
