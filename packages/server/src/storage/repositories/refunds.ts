import type { TenantScope } from '../../domain/tenant.ts';
import { type Queryable, rowMapping } from '../db.ts';

export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface RefundRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  paymentIntentId: string;
  amountMinor: number;
  currency: string;
  status: RefundStatus;
  metadata: Record<string, string>;
  gatewayId: string;
  gatewayIdempotencyKey: string;
  gatewayReference: string | null;
  /** Opaque data the connector asked to keep with the refund (gateways/connector.ts). */
  connectorData: string | null;
  failureMessage: string | null;
  nextSyncAt: Date | null;
  /** The merchant's Idempotency-Key and the hash of its request, by which a retry finds this refund. */
  requestKey: string | null;
  requestHash: string | null;
  /** 1 when created, one more with each change of its status (CONTRACT.md "Resource version"). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const refunds = rowMapping<RefundRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  paymentIntentId: 'plain',
  amountMinor: 'plain',
  currency: 'plain',
  status: 'plain',
  metadata: 'json',
  gatewayId: 'plain',
  gatewayIdempotencyKey: 'plain',
  gatewayReference: 'plain',
  connectorData: 'plain',
  failureMessage: 'plain',
  nextSyncAt: 'plain',
  requestKey: 'plain',
  requestHash: 'plain',
  version: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

function lockClause(options: { forUpdate?: boolean }): string {
  return options.forUpdate ? ' FOR UPDATE' : '';
}

export async function insertRefund(q: Queryable, refund: RefundRecord): Promise<void> {
  await q.query(
    `INSERT INTO refunds (${refunds.columns()})
     VALUES (${refunds.placeholders()})`,
    refunds.values(refund),
  );
}

/** Reads one refund of a tenant; another tenant's (or mode's) refund reads as absent. */
export async function findRefund(
  q: Queryable,
  scope: TenantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<RefundRecord | null> {
  const { rows } = await q.query(
    `SELECT ${refunds.columns()} FROM refunds WHERE id = $1 AND merchant_id = $2 AND livemode = $3${lockClause(options)}`,
    [id, scope.merchantId, scope.livemode],
  );
  return refunds.first(rows);
}

/** Reads a refund by id alone, for workers that carry no tenant. */
export async function findRefundById(
  q: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<RefundRecord | null> {
  const { rows } = await q.query(
    `SELECT ${refunds.columns()} FROM refunds WHERE id = $1${lockClause(options)}`,
    [id],
  );
  return refunds.first(rows);
}

/** Reads a refund by the idempotency key we sent its gateway (gateway notifications carry it back). */
export async function findRefundByGatewayKey(
  q: Queryable,
  gatewayId: string,
  gatewayIdempotencyKey: string,
): Promise<RefundRecord | null> {
  const { rows } = await q.query(
    `SELECT ${refunds.columns()} FROM refunds WHERE gateway_idempotency_key = $1 AND gateway_id = $2`,
    [gatewayIdempotencyKey, gatewayId],
  );
  return refunds.first(rows);
}

/** Reads a refund by the gateway's own reference of it (Stripe's refund id, Adyen's pspReference). */
export async function findRefundByGatewayReference(
  q: Queryable,
  gatewayId: string,
  gatewayReference: string,
): Promise<RefundRecord | null> {
  const { rows } = await q.query(
    `SELECT ${refunds.columns()} FROM refunds WHERE gateway_reference = $1 AND gateway_id = $2`,
    [gatewayReference, gatewayId],
  );
  return refunds.first(rows);
}

/**
 * The refund a request with this Idempotency-Key started (within the key's lifetime: an older one
 * belongs to an earlier use of the same key). The caller holds the key's advisory lock.
 */
export async function findRefundByRequest(
  q: Queryable,
  scope: TenantScope,
  requestKey: string,
  since: Date,
): Promise<RefundRecord | null> {
  const { rows } = await q.query(
    `SELECT ${refunds.columns()} FROM refunds
      WHERE merchant_id = $1 AND livemode = $2 AND request_key = $3 AND created_at > $4
      ORDER BY created_at DESC LIMIT 1`,
    [scope.merchantId, scope.livemode, requestKey, since],
  );
  return refunds.first(rows);
}

/**
 * Removes a PENDING refund that the gateway definitely did not take (it answered "unavailable"),
 * with its REFUND transaction: nothing was refunded, and the merchant's retry with the same key
 * starts afresh. False, removing nothing, when the refund has settled or the gateway named it.
 */
export async function deleteUntakenRefund(q: Queryable, id: string): Promise<boolean> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM refunds WHERE id = $1 AND status = 'PENDING' AND gateway_reference IS NULL FOR UPDATE`,
    [id],
  );
  if (rows.length === 0) return false;
  await q.query(`DELETE FROM transactions WHERE refund_id = $1 AND type = 'REFUND'`, [id]);
  await q.query('DELETE FROM refunds WHERE id = $1', [id]);
  return true;
}

/** What the refunds of an intent hold against it: pending ones count, failed ones do not. */
export async function refundTotalsOfIntent(
  q: Queryable,
  paymentIntentId: string,
): Promise<{ committedMinor: number; count: number }> {
  const { rows } = await q.query<{ committed: number; count: number }>(
    `SELECT COALESCE(SUM(amount_minor) FILTER (WHERE status <> 'FAILED'), 0)::bigint AS committed,
            COUNT(*)::bigint AS count
       FROM refunds WHERE payment_intent_id = $1`,
    [paymentIntentId],
  );
  const row = rows[0];
  return { committedMinor: row?.committed ?? 0, count: row?.count ?? 0 };
}

export interface RefundSettlement {
  status: Exclude<RefundStatus, 'PENDING'>;
  gatewayReference: string | null;
  failureMessage: string | null;
  /** Kept when given; null or absent keeps what was kept before. */
  connectorData?: string | null;
  updatedAt: Date;
}

/**
 * Settles a PENDING refund. Returns the settled refund, or null when it was no longer PENDING
 * (settled already, by another path): settling is done once.
 */
export async function settleRefund(
  q: Queryable,
  id: string,
  settlement: RefundSettlement,
): Promise<RefundRecord | null> {
  const { rows } = await q.query(
    `UPDATE refunds
        SET status = $2, version = version + 1, gateway_reference = COALESCE($3, gateway_reference), failure_message = $4,
            next_sync_at = NULL, updated_at = $5, connector_data = COALESCE($6, connector_data)
      WHERE id = $1 AND status = 'PENDING'
      RETURNING ${refunds.columns()}`,
    [
      id,
      settlement.status,
      settlement.gatewayReference,
      settlement.failureMessage,
      settlement.updatedAt,
      settlement.connectorData ?? null,
    ],
  );
  return refunds.first(rows);
}

/**
 * A SUCCEEDED refund the gateway reports failed or reversed afterwards becomes FAILED (the one
 * transition out of SUCCEEDED, domain/refund.ts `reversalOf`); null when it is not SUCCEEDED.
 */
export async function reverseRefund(
  q: Queryable,
  id: string,
  change: { failureMessage: string; updatedAt: Date },
): Promise<RefundRecord | null> {
  const { rows } = await q.query(
    `UPDATE refunds SET status = 'FAILED', version = version + 1, failure_message = $2, next_sync_at = NULL,
            updated_at = $3
      WHERE id = $1 AND status = 'SUCCEEDED'
      RETURNING ${refunds.columns()}`,
    [id, change.failureMessage, change.updatedAt],
  );
  return refunds.first(rows);
}

/**
 * A PENDING refund the gateway reports settled for another amount or currency: it stays PENDING,
 * no longer synced (`next_sync_at` null), for the operator to look at.
 */
export async function holdRefundForReview(q: Queryable, id: string, gatewayReference: string): Promise<void> {
  await q.query(
    `UPDATE refunds SET gateway_reference = COALESCE($2, gateway_reference), next_sync_at = NULL
      WHERE id = $1 AND status = 'PENDING'`,
    [id, gatewayReference],
  );
}

/** Records what the gateway told us about a refund that is still PENDING, and when to ask again. */
export async function notePendingRefund(
  q: Queryable,
  id: string,
  change: { gatewayReference: string | null; connectorData?: string | null; nextSyncAt: Date },
): Promise<void> {
  await q.query(
    `UPDATE refunds SET gateway_reference = COALESCE($2, gateway_reference), next_sync_at = $3,
            connector_data = COALESCE($4, connector_data)
      WHERE id = $1 AND status = 'PENDING'`,
    [id, change.gatewayReference, change.nextSyncAt, change.connectorData ?? null],
  );
}

/**
 * Claims up to `limit` PENDING refunds due for a sync and moves their next sync to `nextSyncAt`,
 * so that another process running the same job skips them (SKIP LOCKED) and then sees them as
 * not due.
 */
export async function claimRefundsDueForSync(
  q: Queryable,
  now: Date,
  nextSyncAt: Date,
  limit: number,
): Promise<RefundRecord[]> {
  const { rows } = await q.query(
    `UPDATE refunds SET next_sync_at = $2
      WHERE id IN (SELECT id FROM refunds
                    WHERE status = 'PENDING' AND next_sync_at <= $1
                    ORDER BY next_sync_at LIMIT $3
                    FOR UPDATE SKIP LOCKED)
      RETURNING ${refunds.columns()}`,
    [now, nextSyncAt, limit],
  );
  return rows.map(refunds.fromRow);
}

/** The refunds of one intent of a tenant, oldest first (the payment page). */
export async function listRefundsOfIntent(
  q: Queryable,
  scope: TenantScope,
  paymentIntentId: string,
): Promise<RefundRecord[]> {
  const { rows } = await q.query(
    `SELECT ${refunds.columns()} FROM refunds
      WHERE payment_intent_id = $1 AND merchant_id = $2 AND livemode = $3
      ORDER BY created_at, id`,
    [paymentIntentId, scope.merchantId, scope.livemode],
  );
  return rows.map((row) => refunds.fromRow(row));
}

/**
 * Counts one more resend of a PENDING refund's request and answers how many there have been
 * (null when the refund is no longer PENDING: nothing is to be sent).
 */
export async function countRefundResend(q: Queryable, id: string): Promise<number | null> {
  const { rows } = await q.query<{ resends: number }>(
    `UPDATE refunds SET resends = resends + 1 WHERE id = $1 AND status = 'PENDING' RETURNING resends`,
    [id],
  );
  return rows[0]?.resends ?? null;
}
