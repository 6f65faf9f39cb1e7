import type { Queryable } from '../db.ts';
import type { AttemptStatus } from './charge-attempts.ts';
import type { RefundStatus } from './refunds.ts';

/** A charge attempt as reconciliation compares it with the gateway's books. */
export interface KnownCharge {
  paymentIntentId: string;
  idempotencyKey: string;
  status: AttemptStatus;
  gatewayReference: string | null;
  amountMinor: number;
  currency: string;
  createdAt: Date;
  /** The repair of a capture that came after the intent closed (late_captures), if any. */
  lateCaptureRepair: string | null;
}

/** A refund as reconciliation compares it with the gateway's books. */
export interface KnownRefund {
  id: string;
  idempotencyKey: string;
  status: RefundStatus;
  gatewayReference: string | null;
  amountMinor: number;
  currency: string;
  createdAt: Date;
}

/** Every charge attempt of one gateway and mode created in `[from, to)`. */
export async function knownCharges(
  q: Queryable,
  gatewayId: string,
  livemode: boolean,
  from: Date,
  to: Date,
): Promise<KnownCharge[]> {
  const { rows } = await q.query<{
    payment_intent_id: string;
    idempotency_key: string;
    status: AttemptStatus;
    gateway_reference: string | null;
    amount_minor: number;
    currency: string;
    created_at: Date;
    late_capture_repair: string | null;
  }>(
    `SELECT a.payment_intent_id, a.idempotency_key, a.status, a.gateway_reference,
            i.amount_minor, i.currency, a.created_at, lc.repair_status AS late_capture_repair
       FROM charge_attempts a
       JOIN payment_intents i ON i.id = a.payment_intent_id
       LEFT JOIN late_captures lc
         ON lc.payment_intent_id = a.payment_intent_id AND lc.attempt_number = a.attempt_number
      WHERE a.gateway_id = $1 AND a.livemode = $2 AND a.created_at >= $3 AND a.created_at < $4`,
    [gatewayId, livemode, from, to],
  );
  return rows.map((row) => ({
    paymentIntentId: row.payment_intent_id,
    idempotencyKey: row.idempotency_key,
    status: row.status,
    gatewayReference: row.gateway_reference,
    amountMinor: row.amount_minor,
    currency: row.currency,
    createdAt: row.created_at,
    lateCaptureRepair: row.late_capture_repair,
  }));
}

/** Every refund of one gateway and mode created in `[from, to)`. */
export async function knownRefunds(
  q: Queryable,
  gatewayId: string,
  livemode: boolean,
  from: Date,
  to: Date,
): Promise<KnownRefund[]> {
  const { rows } = await q.query<{
    id: string;
    gateway_idempotency_key: string;
    status: RefundStatus;
    gateway_reference: string | null;
    amount_minor: number;
    currency: string;
    created_at: Date;
  }>(
    // The refunds merchants asked for, and those Paygate made itself to give back a late capture.
    `SELECT id, gateway_idempotency_key, status, gateway_reference, amount_minor, currency, created_at
       FROM refunds
      WHERE gateway_id = $1 AND livemode = $2 AND created_at >= $3 AND created_at < $4
     UNION ALL
     SELECT id, refund_idempotency_key,
            CASE repair_status WHEN 'REFUNDED' THEN 'SUCCEEDED' WHEN 'REFUND_FAILED' THEN 'FAILED'
                 ELSE 'PENDING' END,
            refund_reference, amount_minor, currency, detected_at
       FROM late_captures
      WHERE gateway_id = $1 AND livemode = $2 AND detected_at >= $3 AND detected_at < $4`,
    [gatewayId, livemode, from, to],
  );
  return rows.map((row) => ({
    id: row.id,
    idempotencyKey: row.gateway_idempotency_key,
    status: row.status,
    gatewayReference: row.gateway_reference,
    amountMinor: row.amount_minor,
    currency: row.currency,
    createdAt: row.created_at,
  }));
}
