import type { Queryable } from '../db.ts';

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

interface Row {
  id: string;
  merchant_id: string;
  livemode: boolean;
  payment_intent_id: string;
  attempt_number: number;
  gateway_id: string;
  charge_reference: string;
  amount_minor: number;
  currency: string;
  intent_status: string;
  detected_by: LateCaptureRecord['detectedBy'];
  repair_status: LateCaptureRepairStatus;
  refund_idempotency_key: string;
  refund_reference: string | null;
  failure_message: string | null;
  tries: number;
  next_repair_at: Date | null;
  detected_at: Date;
  updated_at: Date;
}

const columns = `id, merchant_id, livemode, payment_intent_id, attempt_number, gateway_id, charge_reference,
  amount_minor, currency, intent_status, detected_by, repair_status, refund_idempotency_key, refund_reference,
  failure_message, tries, next_repair_at, detected_at, updated_at`;

function fromRow(row: Row): LateCaptureRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    paymentIntentId: row.payment_intent_id,
    attemptNumber: row.attempt_number,
    gatewayId: row.gateway_id,
    chargeReference: row.charge_reference,
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    intentStatus: row.intent_status,
    detectedBy: row.detected_by,
    repairStatus: row.repair_status,
    refundIdempotencyKey: row.refund_idempotency_key,
    refundReference: row.refund_reference,
    failureMessage: row.failure_message,
    tries: row.tries,
    nextRepairAt: row.next_repair_at,
    detectedAt: row.detected_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Records a late capture once per attempt: a repeated notification or sync of the same capture
 * finds the row there and changes nothing. Returns whether this call recorded it.
 */
export async function insertLateCapture(q: Queryable, record: LateCaptureRecord): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO late_captures (${columns})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
     ON CONFLICT (payment_intent_id, attempt_number) DO NOTHING`,
    [
      record.id,
      record.merchantId,
      record.livemode,
      record.paymentIntentId,
      record.attemptNumber,
      record.gatewayId,
      record.chargeReference,
      record.amountMinor,
      record.currency,
      record.intentStatus,
      record.detectedBy,
      record.repairStatus,
      record.refundIdempotencyKey,
      record.refundReference,
      record.failureMessage,
      record.tries,
      record.nextRepairAt,
      record.detectedAt,
      record.updatedAt,
    ],
  );
  return rowCount === 1;
}

export async function findLateCapture(q: Queryable, id: string): Promise<LateCaptureRecord | null> {
  const { rows } = await q.query<Row>(`SELECT ${columns} FROM late_captures WHERE id = $1`, [id]);
  const row = rows[0];
  return row ? fromRow(row) : null;
}

/** The late capture whose repair refund was sent with `refundIdempotencyKey`, locked. */
export async function findLateCaptureByRefundKey(
  q: Queryable,
  gatewayId: string,
  refundIdempotencyKey: string,
  options: { forUpdate?: boolean } = {},
): Promise<LateCaptureRecord | null> {
  const { rows } = await q.query<Row>(
    `SELECT ${columns} FROM late_captures WHERE refund_idempotency_key = $1 AND gateway_id = $2${
      options.forUpdate ? ' FOR UPDATE' : ''
    }`,
    [refundIdempotencyKey, gatewayId],
  );
  const row = rows[0];
  return row ? fromRow(row) : null;
}

/** Late captures newest first, optionally of one repair status, for the operator. */
export async function listLateCaptures(
  q: Queryable,
  filter: { repairStatus: LateCaptureRepairStatus | null; limit: number },
): Promise<LateCaptureRecord[]> {
  const { rows } = await q.query<Row>(
    `SELECT ${columns} FROM late_captures
      WHERE ($1::text IS NULL OR repair_status = $1)
      ORDER BY detected_at DESC, id DESC LIMIT $2`,
    [filter.repairStatus, filter.limit],
  );
  return rows.map(fromRow);
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
  const { rows } = await q.query<Row>(
    `UPDATE late_captures
        SET repair_status = $2, refund_reference = COALESCE($3, refund_reference),
            failure_message = COALESCE($4, failure_message), next_repair_at = $5,
            tries = tries + $6, updated_at = $7
      WHERE id = $1
      RETURNING ${columns}`,
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
  return fromRow(row);
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
  const { rows } = await q.query<Row>(
    `UPDATE late_captures SET next_repair_at = $2
      WHERE id IN (SELECT id FROM late_captures
                    WHERE next_repair_at <= $1
                      AND repair_status IN ('REFUND_DUE', 'REFUND_PENDING')
                    ORDER BY next_repair_at LIMIT $3
                    FOR UPDATE SKIP LOCKED)
      RETURNING ${columns}`,
    [now, leaseUntil, limit],
  );
  return rows.map(fromRow);
}
