import type { Queryable } from '../db.ts';

export type TransactionType = 'PAYMENT' | 'REFUND';
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

export interface TransactionRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: TransactionType;
  status: TransactionStatus;
  amount_minor: number;
  currency: string;
  payment_intent_id: string;
  refund_id: string | null;
  gateway_id: string;
  created_at: Date;
  updated_at: Date;
}

export const transactionColumns = `id, merchant_id, livemode, type, status, amount_minor, currency, payment_intent_id,
  refund_id, gateway_id, created_at, updated_at`;

export function transactionFromRow(row: TransactionRow): TransactionRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    type: row.type,
    status: row.status,
    amountMinor: row.amount_minor,
    currency: row.currency,
    paymentIntentId: row.payment_intent_id,
    refundId: row.refund_id,
    gatewayId: row.gateway_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function insertTransaction(q: Queryable, txn: TransactionRecord): Promise<void> {
  await q.query(
    `INSERT INTO transactions (${transactionColumns})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      txn.id,
      txn.merchantId,
      txn.livemode,
      txn.type,
      txn.status,
      txn.amountMinor,
      txn.currency,
      txn.paymentIntentId,
      txn.refundId,
      txn.gatewayId,
      txn.createdAt,
      txn.updatedAt,
    ],
  );
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
