import { type Queryable, rowMapping } from '../db.ts';
import type { AttemptStatus } from './charge-attempts.ts';
import type { RefundStatus } from './refunds.ts';

/** What reconciliation compares of a charge or a refund with the gateway's books. */
interface KnownRecord<Status> {
  idempotencyKey: string;
  status: Status;
  gatewayReference: string | null;
  amountMinor: number;
  currency: string;
  createdAt: Date;
}

/** A charge attempt as reconciliation compares it with the gateway's books. */
export interface KnownCharge extends KnownRecord<AttemptStatus> {
  paymentIntentId: string;
  /** The repair of a capture that came after the intent closed (late_captures), if any. */
  lateCaptureRepair: string | null;
  /** The gateway's reference of a reversal of this charge's capture (capture_reversals), if any. */
  captureReversal: string | null;
}

/** A refund as reconciliation compares it with the gateway's books. */
export interface KnownRefund extends KnownRecord<RefundStatus> {
  id: string;
}

const knownRecordColumns = {
  idempotencyKey: 'plain',
  status: 'plain',
  gatewayReference: 'plain',
  amountMinor: 'plain',
  currency: 'plain',
  createdAt: 'plain',
} as const;

const knownCharge = rowMapping<KnownCharge>({
  paymentIntentId: 'plain',
  ...knownRecordColumns,
  lateCaptureRepair: 'plain',
  captureReversal: 'plain',
});

const knownRefund = rowMapping<KnownRefund>({ id: 'plain', ...knownRecordColumns });

/** Every charge attempt of one gateway and mode created in `[from, to)`. */
export async function knownCharges(
  q: Queryable,
  gatewayId: string,
  livemode: boolean,
  from: Date,
  to: Date,
): Promise<KnownCharge[]> {
  const { rows } = await q.query(
    `SELECT a.payment_intent_id, a.idempotency_key, a.status, a.gateway_reference,
            i.amount_minor, i.currency, a.created_at, lc.repair_status AS late_capture_repair,
            (SELECT cr.reversal_reference FROM capture_reversals cr
              WHERE cr.payment_intent_id = a.payment_intent_id AND cr.attempt_number = a.attempt_number
              ORDER BY cr.detected_at LIMIT 1) AS capture_reversal
       FROM charge_attempts a
       JOIN payment_intents i ON i.id = a.payment_intent_id
       LEFT JOIN late_captures lc
         ON lc.payment_intent_id = a.payment_intent_id AND lc.attempt_number = a.attempt_number
      WHERE a.gateway_id = $1 AND a.livemode = $2 AND a.created_at >= $3 AND a.created_at < $4`,
    [gatewayId, livemode, from, to],
  );
  return rows.map((row) => knownCharge.fromRow(row));
}

/** Every refund of one gateway and mode created in `[from, to)`. */
export async function knownRefunds(
  q: Queryable,
  gatewayId: string,
  livemode: boolean,
  from: Date,
  to: Date,
): Promise<KnownRefund[]> {
  const { rows } = await q.query(
    // The refunds merchants asked for, and those Paygate made itself to give back a late capture.
    `SELECT id, gateway_idempotency_key AS idempotency_key, status, gateway_reference, amount_minor, currency, created_at
       FROM refunds
      WHERE gateway_id = $1 AND livemode = $2 AND created_at >= $3 AND created_at < $4
     UNION ALL
     SELECT id, refund_idempotency_key,
            CASE repair_status WHEN 'REFUNDED' THEN 'SUCCEEDED' WHEN 'REFUND_FAILED' THEN 'FAILED'
                 ELSE 'PENDING' END,
            refund_reference, amount_minor, currency, detected_at
       FROM late_captures
      WHERE gateway_id = $1 AND livemode = $2 AND detected_at >= $3 AND detected_at < $4
        -- A late capture in the books has its refund among the refunds above.
        AND NOT EXISTS (SELECT 1 FROM refunds r
                         WHERE r.gateway_id = late_captures.gateway_id
                           AND r.gateway_idempotency_key = late_captures.refund_idempotency_key)`,
    [gatewayId, livemode, from, to],
  );
  return rows.map((row) => knownRefund.fromRow(row));
}
