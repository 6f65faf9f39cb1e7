import type { DeclineGroup, SettledGroup } from '../../domain/overview.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../db.ts';

const utcDay = (instant: Date) => instant.toISOString().slice(0, 10);

/**
 * Settled transactions of the tenant on the UTC days [from, to), summed by day, currency, type
 * and status, from the roll-up `overview_daily` (migration 250) that triggers keep on every write
 * of `transactions`: a range of the roll-up's primary key, a few rows per day, whatever the
 * number of transactions.
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
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, type, status,
            sum(count)::int8 AS count, sum(amount_minor)::int8 AS amount_minor
       FROM overview_daily
      WHERE merchant_id = $1 AND livemode = $2 AND day >= $3::date AND day < $4::date
      GROUP BY 1, 2, 3, 4
     HAVING sum(count) <> 0
      ORDER BY 1, 2`,
    [scope.merchantId, scope.livemode, utcDay(from), utcDay(to)],
  );
  return rows.map((row) => ({
    day: row.day,
    currency: row.currency,
    type: row.type,
    status: row.status,
    count: Number(row.count),
    amountMinor: Number(row.amount_minor),
  }));
}

/** Failed payments of the tenant on the UTC days [from, to) by currency and reason, from `overview_declines` (250). */
export async function sumDeclineReasons(
  q: Queryable,
  scope: TenantScope,
  from: Date,
  to: Date,
): Promise<DeclineGroup[]> {
  const { rows } = await q.query<{ currency: string; reason: string; count: number }>(
    `SELECT currency, reason, sum(count)::int8 AS count
       FROM overview_declines
      WHERE merchant_id = $1 AND livemode = $2 AND day >= $3::date AND day < $4::date
      GROUP BY 1, 2
     HAVING sum(count) > 0
      ORDER BY 3 DESC, 2`,
    [scope.merchantId, scope.livemode, utcDay(from), utcDay(to)],
  );
  return rows.map((row) => ({ currency: row.currency, reason: row.reason, count: Number(row.count) }));
}
