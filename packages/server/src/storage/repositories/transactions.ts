import type { TenantScope } from '../../domain/tenant.ts';
import type { TransactionPosition } from '../../domain/transaction-cursor.ts';
import { type Queryable, rowMapping } from '../db.ts';

export type TransactionType = 'PAYMENT' | 'REFUND' | 'DISPUTE' | 'DISPUTE_REVERSAL';
export type TransactionStatus = 'PENDING' | 'APPROVED' | 'DECLINED';

export interface TransactionRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  type: TransactionType;
  status: TransactionStatus;
  amountMinor: number;
  currency: string;
  paymentIntentId: string;
  refundId: string | null;
  gatewayId: string;
  createdAt: Date;
  updatedAt: Date;
}

const transactions = rowMapping<TransactionRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  type: 'plain',
  status: 'plain',
  amountMinor: 'plain',
  currency: 'plain',
  paymentIntentId: 'plain',
  refundId: 'plain',
  gatewayId: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

const INSERT_TRANSACTION = `INSERT INTO transactions (${transactions.columns()}) VALUES (${transactions.placeholders()})`;

export async function insertTransaction(q: Queryable, txn: TransactionRecord): Promise<void> {
  await q.query(INSERT_TRANSACTION, transactions.values(txn));
}

/** Settles the PAYMENT transaction of an intent; a settled one is left as it is. */
export async function settlePaymentTransaction(
  q: Queryable,
  paymentIntentId: string,
  status: Exclude<TransactionStatus, 'PENDING'>,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE transactions SET status = $2, updated_at = $3
      WHERE payment_intent_id = $1 AND type = 'PAYMENT' AND status = 'PENDING'`,
    [paymentIntentId, status, now],
  );
}

/** Writes the capture's amount on the PAYMENT transaction and approves it (the intent is locked). */
export async function approveCapturedPayment(
  q: Queryable,
  paymentIntentId: string,
  amountMinor: number,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE transactions SET status = 'APPROVED', amount_minor = $2, updated_at = $3
      WHERE payment_intent_id = $1 AND type = 'PAYMENT' AND status = 'PENDING'`,
    [paymentIntentId, amountMinor, now],
  );
}

/** Settles the REFUND transaction of a refund; a settled one is left as it is. */
export async function settleRefundTransaction(
  q: Queryable,
  refundId: string,
  status: Exclude<TransactionStatus, 'PENDING'>,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE transactions SET status = $2, updated_at = $3
      WHERE refund_id = $1 AND type = 'REFUND' AND status = 'PENDING'`,
    [refundId, status, now],
  );
}

/** The APPROVED REFUND transaction of a refund the gateway reversed after it succeeded: DECLINED. */
export async function declineApprovedRefundTransaction(
  q: Queryable,
  refundId: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE transactions SET status = 'DECLINED', updated_at = $2
      WHERE refund_id = $1 AND type = 'REFUND' AND status = 'APPROVED'`,
    [refundId, now],
  );
}

export interface TransactionListQuery {
  status?: TransactionStatus;
  type?: TransactionType;
  /** Inclusive lower bound of created_at. */
  from?: Date;
  /** Exclusive upper bound of created_at. */
  to?: Date;
  /** Only rows after this position in the list order (the previous page's last row). */
  after?: TransactionPosition;
}

export interface TransactionPage {
  /**
   * Each row as the API shows it (CONTRACT.md "Transaction"), already JSON text: the list is the
   * widest read of the API, and building its rows from text saves parsing 13 columns, two
   * timestamps into Dates and back into strings, and serialising again, for each of 100 rows.
   */
  itemsJson: string[];
  hasMore: boolean;
  /** The position of the last item, for the next page; null when the page is empty. */
  last: TransactionPosition | null;
}

/**
 * The API's transaction resource up to its instants, as JSON text in the contract's field order
 * (without the closing brace); a test holds the whole resource to the schema and the stored rows.
 * Written by concatenation in PostgreSQL; only `gateway_id` is free text and goes through
 * `to_json` for escaping; the ids are Paygate's own (a prefix and base62), and type, status and
 * currency are held by CHECK constraints to characters JSON takes as they are.
 *
 * The instants are not formatted here: `to_char` and the `extract(epoch …)` of the cursor's
 * position cost PostgreSQL more than the rest of the row (per page of 100 at a million rows,
 * backend CPU, one client, prepared: about 300 µs with them, 160 without), while the service
 * turns PostgreSQL's own text of a UTC `timestamp` into ISO 8601 with a few string slices.
 */
const transactionResourceHead = `concat('{"id":"', t.id, '","object":"transaction","type":"', t.type,
  '","status":"', t.status, '","amount_minor":', t.amount_minor, ',"currency":"', t.currency,
  '","payment_intent_id":"', t.payment_intent_id,
  '","refund_id":', CASE WHEN t.refund_id IS NULL THEN 'null' ELSE concat('"', t.refund_id, '"') END,
  ',"gateway_id":', to_json(t.gateway_id), ',"livemode":', CASE WHEN t.livemode THEN 'true' ELSE 'false' END)`;

/** A `timestamptz` column as the text of its UTC `timestamp` (DateStyle ISO, as pg's parsers need). */
const utcText = (column: string) => `(${column} AT TIME ZONE 'UTC')::text`;

/**
 * PostgreSQL's ISO text of a `timestamp`, `2026-11-23 10:05:18.123456` (the fraction's trailing
 * zeros trimmed, no fraction at all on a whole second), as the date-time part written with a `T`
 * and a fraction of `digits` decimals. Years beyond 9999 and BC dates are not Paygate's instants.
 */
function isoInstant(text: string, digits: 3 | 6): string {
  const length = text.length;
  if (
    length < 19 ||
    length > 26 ||
    length === 20 ||
    text.charCodeAt(4) !== 45 /* - */ ||
    text.charCodeAt(10) !== 32 /* space */ ||
    (length > 19 && text.charCodeAt(19) !== 46) /* . */
  ) {
    throw new Error(
      `unexpected timestamp text from the database (DateStyle must be ISO): ${text.slice(0, 40)}`,
    );
  }
  const fraction = length >= 20 + digits ? text.slice(20, 20 + digits) : text.slice(20).padEnd(digits, '0');
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

/**
 * The id of a resource head (`{"id":"txn_…","object":…`): read from the row's text rather than
 * selected as a column of its own, which the service would decode on every row for the last one.
 */
function idOfHead(head: string): string {
  const start = '{"id":"'.length;
  return head.slice(start, head.indexOf('"', start));
}

/** The rows a page reads, enough for `limit` and one more: the default page of 20 and the largest of 100 exactly. */
const LIMIT_SIZES = [11, 21, 51, 101] as const;

/**
 * One page of a tenant's transactions, newest first by (created_at DESC, id DESC), by keyset: the
 * row comparison `(created_at, id) < (...)` continues from a position, never by OFFSET, so a page
 * costs the same at any depth and rows inserted meanwhile cause no gap and no duplicate. Every
 * filter combination has an index of 002 that starts with the tenant and ends with this order.
 * At least one row more than asked is read to learn whether more exist.
 */
export async function listTransactionPage(
  q: Queryable,
  scope: TenantScope,
  query: TransactionListQuery,
  limit: number,
): Promise<TransactionPage> {
  const params: unknown[] = [scope.merchantId, scope.livemode];
  const where = ['merchant_id = $1', 'livemode = $2'];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (query.type) add((n) => `type = ${n}`, query.type);
  if (query.status) add((n) => `status = ${n}`, query.status);
  if (query.from) add((n) => `created_at >= ${n}`, query.from);
  if (query.to) add((n) => `created_at < ${n}`, query.to);
  if (query.after) {
    params.push(query.after.createdAt, query.after.id);
    where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  // The LIMIT is written into the text, not bound: a bound LIMIT makes PostgreSQL plan every
  // execution anew (its generic plan, costed for an unknown LIMIT, never beats the custom one), about
  // 90 µs of its CPU per page; a literal lets the prepared statement keep its plan. The literal is
  // one of a few sizes (the rows read beyond `limit + 1` are dropped here), so that each connection
  // prepares at most LIMIT_SIZES.length texts per filter combination, not one per limit asked.
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const rowsToRead = LIMIT_SIZES.find((size) => size > limit) ?? limit + 1;
  const { rows } = await q.query<{ head: string; created: string; updated: string }>(
    `SELECT ${transactionResourceHead} AS head,
            ${utcText('t.created_at')} AS created, ${utcText('t.updated_at')} AS updated
       FROM transactions t
      WHERE ${where.join(' AND ')}
      ORDER BY t.created_at DESC, t.id DESC
      LIMIT ${rowsToRead}`,
    params,
  );
  const count = Math.min(rows.length, limit);
  const itemsJson = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const row = rows[i] as (typeof rows)[number];
    itemsJson[i] =
      `${row.head},"created_at":"${isoInstant(row.created, 3)}","updated_at":"${isoInstant(row.updated, 3)}"}`;
  }
  const lastRow = count > 0 ? rows[count - 1] : undefined;
  return {
    itemsJson,
    hasMore: rows.length > limit,
    last: lastRow ? { createdAt: isoInstant(lastRow.created, 6), id: idOfHead(lastRow.head) } : null,
  };
}
