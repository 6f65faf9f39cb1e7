import { type KeysetSide, keysetSql } from '../../domain/keyset.ts';
import type { PaymentIntentStatus } from '../../domain/payment-intent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { TransactionPosition } from '../../domain/transaction-cursor.ts';
import type { Queryable } from '../db.ts';
import {
  AUTHORIZATION_IN_FLIGHT_SQL,
  CHARGE_IN_FLIGHT_SQL,
  INTENT_SELECT_COLUMNS,
  intentOfRow,
  type LastErrorColumns,
  type PaymentIntentRecord,
} from './payment-intents.ts';

export interface PaymentSearchFilter {
  id?: string;
  status?: PaymentIntentStatus;
  amountMin?: number;
  amountMax?: number;
  currency?: string;
  from?: Date;
  to?: Date;
  metadataKey?: string;
  metadataValue?: string;
}

/** The filter on the status as shown: a CREATED intent with a charge in flight reads PROCESSING. */
function statusCondition(n: string, status: PaymentIntentStatus | undefined): string {
  if (status === 'CREATED') return `(status = ${n} AND NOT ${CHARGE_IN_FLIGHT_SQL})`;
  if (status === 'PROCESSING') {
    return `(status = ${n} OR (status = 'CREATED' AND ${CHARGE_IN_FLIGHT_SQL})
              OR (status = 'REQUIRES_CAPTURE' AND ${AUTHORIZATION_IN_FLIGHT_SQL}))`;
  }
  return `status = ${n}`;
}

/**
 * The LIMITs a search reads (a page of the default 20 or the largest 100 and one more to learn
 * whether more exist, the CSV export's batch of 500) and sizes between, so that any limit reads
 * at most about twice the rows it needs.
 */
const SEARCH_LIMIT_SIZES = [11, 21, 51, 101, 500] as const;

export interface PaymentSearchRow {
  intent: PaymentIntentRecord;
  /** Its place in the list order, with the database's microseconds (a cursor must not round them). */
  position: TransactionPosition;
}

/**
 * The tenant's payment intents that pass every filter, by (created_at, id) from `side` (keyset:
 * older rows newest first, or newer rows oldest first; domain/keyset.ts). `limit` rows at most.
 */
export async function searchPaymentIntents(
  q: Queryable,
  scope: TenantScope,
  filter: PaymentSearchFilter,
  side: KeysetSide<TransactionPosition>,
  limit: number,
): Promise<PaymentSearchRow[]> {
  const params: unknown[] = [scope.merchantId, scope.livemode];
  const where = ['merchant_id = $1', 'livemode = $2'];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.id !== undefined) add((n) => `id = ${n}`, filter.id);
  // The to-capture list names its status as a literal, not a parameter: only then can a prepared
  // statement's plan use the partial index of authorisations (payment_intents_to_capture, WHERE
  // status = 'REQUIRES_CAPTURE'), whatever the size of the table (bench/capture-cost.ts checks it).
  if (filter.status === 'REQUIRES_CAPTURE') {
    where.push(`(status = 'REQUIRES_CAPTURE' AND NOT ${AUTHORIZATION_IN_FLIGHT_SQL})`);
  } else if (filter.status !== undefined) add((n) => statusCondition(n, filter.status), filter.status);
  if (filter.amountMin !== undefined) add((n) => `amount_minor >= ${n}`, filter.amountMin);
  if (filter.amountMax !== undefined) add((n) => `amount_minor <= ${n}`, filter.amountMax);
  if (filter.currency !== undefined) add((n) => `currency = ${n}`, filter.currency);
  if (filter.from !== undefined) add((n) => `created_at >= ${n}`, filter.from);
  if (filter.to !== undefined) add((n) => `created_at < ${n}`, filter.to);
  if (filter.metadataKey !== undefined && filter.metadataValue !== undefined) {
    add((n) => `metadata @> ${n}::jsonb`, JSON.stringify({ [filter.metadataKey]: filter.metadataValue }));
  } else if (filter.metadataKey !== undefined) {
    add((n) => `metadata ? ${n}`, filter.metadataKey);
  }
  const position = side && ('older' in side ? side.older : side.newer);
  if (position) params.push(position.createdAt, position.id);
  const keyset = keysetSql(
    side,
    { createdAt: 'created_at', id: 'id' },
    { createdAt: `$${params.length - 1}`, id: `$${params.length}` },
  );
  if (keyset.where) where.push(keyset.where);
  // The LIMIT is written into the text, not bound, as the transaction list's (listTransactionPage):
  // a bound LIMIT makes PostgreSQL plan every execution anew, a literal lets the prepared statement
  // keep its plan. It is one of a few sizes, so each connection prepares a few texts per filter
  // combination, not one per limit; the rows read beyond `limit` are dropped here.
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const rowsToRead = SEARCH_LIMIT_SIZES.find((size) => size >= limit) ?? limit;
  const { rows } = await q.query<Record<string, unknown> & LastErrorColumns & { position_at: string }>(
    `SELECT ${INTENT_SELECT_COLUMNS},
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
       FROM payment_intents
      WHERE ${where.join(' AND ')}
      ORDER BY ${keyset.order}
      LIMIT ${rowsToRead}`,
    params,
  );
  if (rows.length > limit) rows.length = limit;
  return rows.map((row) => {
    const intent = intentOfRow(row);
    return { intent, position: { createdAt: row.position_at, id: intent.id } };
  });
}
