import { type Queryable, rowMapping } from '../db.ts';

export type LateCaptureRepairStatus = 'REFUND_DUE' | 'REFUND_PENDING' | 'REFUNDED' | 'REFUND_FAILED';
export const lateCaptureRepairStatuses: readonly LateCaptureRepairStatus[] = [
  'REFUND_DUE',
  'REFUND_PENDING',
  'REFUNDED',
  'REFUND_FAILED',
];

export interface LateCaptureRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  paymentIntentId: string;
  attemptNumber: number;
  gatewayId: string;
  chargeReference: string;
  amountMinor: number;
  currency: string;
  intentStatus: string;
  detectedBy: 'charge' | 'sync' | 'notification';
  repairStatus: LateCaptureRepairStatus;
  refundIdempotencyKey: string;
  refundReference: string | null;
  failureMessage: string | null;
  tries: number;
  nextRepairAt: Date | null;
  detectedAt: Date;
  updatedAt: Date;
}

const captures = rowMapping<LateCaptureRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  paymentIntentId: 'plain',
  attemptNumber: 'plain',
  gatewayId: 'plain',
  chargeReference: 'plain',
  amountMinor: 'plain',
  currency: 'plain',
  intentStatus: 'plain',
  detectedBy: 'plain',
  repairStatus: 'plain',
  refundIdempotencyKey: 'plain',
  refundReference: 'plain',
  failureMessage: 'plain',
  tries: 'plain',
  nextRepairAt: 'plain',
  detectedAt: 'plain',
  updatedAt: 'plain',
});

/**
 * Records a late capture once per attempt: a repeated notification or sync of the same capture
 * finds the row there and changes nothing. Returns whether this call recorded it.
 */
export async function insertLateCapture(q: Queryable, record: LateCaptureRecord): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO late_captures (${captures.columns()})
     VALUES (${captures.placeholders()})
     ON CONFLICT (payment_intent_id, attempt_number) DO NOTHING`,
    captures.values(record),
  );
  return rowCount === 1;
}

export async function findLateCapture(q: Queryable, id: string): Promise<LateCaptureRecord | null> {
  const { rows } = await q.query(`SELECT ${captures.columns()} FROM late_captures WHERE id = $1`, [id]);
  return captures.first(rows);
}

/** The late capture whose repair refund was sent with `refundIdempotencyKey`, locked. */
export async function findLateCaptureByRefundKey(
  q: Queryable,
  gatewayId: string,
  refundIdempotencyKey: string,
  options: { forUpdate?: boolean } = {},
): Promise<LateCaptureRecord | null> {
  const { rows } = await q.query(
    `SELECT ${captures.columns()} FROM late_captures WHERE refund_idempotency_key = $1 AND gateway_id = $2${
      options.forUpdate ? ' FOR UPDATE' : ''
    }`,
    [refundIdempotencyKey, gatewayId],
  );
  return captures.first(rows);
}

/** Late captures newest first, optionally of one repair status, for the operator. */
export async function listLateCaptures(
  q: Queryable,
  filter: { repairStatus: LateCaptureRepairStatus | null; limit: number },
): Promise<LateCaptureRecord[]> {
  const { rows } = await q.query(
    `SELECT ${captures.columns()} FROM late_captures
      WHERE ($1::text IS NULL OR repair_status = $1)
      ORDER BY detected_at DESC, id DESC LIMIT $2`,
    [filter.repairStatus, filter.limit],
  );
  return rows.map(captures.fromRow);
}

/** Ids for the rows a late capture's entry in the books writes (the caller makes them). */
export interface LateCaptureBookIds {
  refundId: string;
  refundTransactionId: string;
  paymentTransactionId: string;
}

/**
 * Enters a late capture in its merchant's books, in the caller's transaction (the intent's lock
 * held): the intent's PAYMENT transaction APPROVED (the gateway captured; written if an untaken
 * attempt had removed it), the automatic refund as a PENDING refund of the same amount whose gateway
 * key is the capture's repair key, with its PENDING REFUND transaction, due for the refund
 * reconciliation at once (which sends it: app/refunds/reconcile-refunds.ts), and the repair handed
 * to that refund (`next_repair_at` null). The refund carries metadata `paygate_late_capture`.
 * Returns false, changing nothing, when the capture's refund is already booked.
 */
export async function bookLateCapture(
  q: Queryable,
  capture: LateCaptureRecord,
  ids: LateCaptureBookIds,
  now: Date,
): Promise<boolean> {
  const refund = await q.query(
    `INSERT INTO refunds (id, merchant_id, livemode, payment_intent_id, amount_minor, currency, status,
                          metadata, gateway_id, gateway_idempotency_key, gateway_reference, next_sync_at,
                          created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7::jsonb, $8, $9, $10, $11, $11, $11)
     ON CONFLICT (gateway_idempotency_key) DO NOTHING`,
    [
      ids.refundId,
      capture.merchantId,
      capture.livemode,
      capture.paymentIntentId,
      capture.amountMinor,
      capture.currency,
      JSON.stringify({ paygate_late_capture: capture.id }),
      capture.gatewayId,
      capture.refundIdempotencyKey,
      capture.refundReference,
      now,
    ],
  );
  if (refund.rowCount !== 1) return false;
  await q.query(
    `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                               payment_intent_id, refund_id, gateway_id, created_at, updated_at)
     VALUES ($1, $2, $3, 'REFUND', 'PENDING', $4, $5, $6, $7, $8, $9, $9)`,
    [
      ids.refundTransactionId,
      capture.merchantId,
      capture.livemode,
      capture.amountMinor,
      capture.currency,
      capture.paymentIntentId,
      ids.refundId,
      capture.gatewayId,
      now,
    ],
  );
  await q.query(
    `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                               payment_intent_id, refund_id, gateway_id, created_at, updated_at)
     VALUES ($1, $2, $3, 'PAYMENT', 'APPROVED', $4, $5, $6, NULL, $7, $8, $8)
     ON CONFLICT (payment_intent_id) WHERE type = 'PAYMENT'
     DO UPDATE SET status = 'APPROVED', amount_minor = EXCLUDED.amount_minor,
                   currency = EXCLUDED.currency, updated_at = EXCLUDED.updated_at`,
    [
      ids.paymentTransactionId,
      capture.merchantId,
      capture.livemode,
      capture.amountMinor,
      capture.currency,
      capture.paymentIntentId,
      capture.gatewayId,
      now,
    ],
  );
  await q.query('UPDATE late_captures SET next_repair_at = NULL, updated_at = $2 WHERE id = $1', [
    capture.id,
    now,
  ]);
  return true;
}

export interface LateCaptureRepairChange {
  repairStatus: LateCaptureRepairStatus;
  refundReference?: string | null;
  failureMessage?: string | null;
  nextRepairAt: Date | null;
  /** Counts one more try at the gateway. */
  tried: boolean;
  updatedAt: Date;
}

/** Records a step of a repair on a late capture the caller has locked. */
export async function updateLateCaptureRepair(
  q: Queryable,
  id: string,
  change: LateCaptureRepairChange,
): Promise<LateCaptureRecord> {
  const { rows } = await q.query(
    `UPDATE late_captures
        SET repair_status = $2, refund_reference = COALESCE($3, refund_reference),
            failure_message = COALESCE($4, failure_message), next_repair_at = $5,
            tries = tries + $6, updated_at = $7
      WHERE id = $1
      RETURNING ${captures.columns()}`,
    [
      id,
      change.repairStatus,
      change.refundReference ?? null,
      change.failureMessage ?? null,
      change.nextRepairAt,
      change.tried ? 1 : 0,
      change.updatedAt,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`late capture ${id} vanished`);
  return captures.fromRow(row);
}

/**
 * Claims up to `limit` late captures whose repair is due, pushing their next look to `leaseUntil`
 * so that no other worker takes them while this one talks to the gateway (SKIP LOCKED). A worker
 * that dies lets the lease run out, and the repair is taken up again.
 */
export async function claimDueLateCaptures(
  q: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<LateCaptureRecord[]> {
  const { rows } = await q.query(
    `UPDATE late_captures SET next_repair_at = $2
      WHERE id IN (SELECT id FROM late_captures
                    WHERE next_repair_at <= $1
                      AND repair_status IN ('REFUND_DUE', 'REFUND_PENDING')
                    ORDER BY next_repair_at LIMIT $3
                    FOR UPDATE SKIP LOCKED)
      RETURNING ${captures.columns()}`,
    [now, leaseUntil, limit],
  );
  return rows.map(captures.fromRow);
}
