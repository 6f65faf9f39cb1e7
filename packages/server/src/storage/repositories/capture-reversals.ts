import type { Queryable } from '../db.ts';

/** A capture the gateway reversed after reporting it (migration 170), as recorded for the operator. */
export interface NewCaptureReversal {
  id: string;
  merchantId: string;
  livemode: boolean;
  paymentIntentId: string;
  attemptNumber: number;
  gatewayId: string;
  chargeReference: string | null;
  reversalReference: string;
  amountMinor: number | null;
  currency: string | null;
  intentStatus: string;
  message: string;
  detectedAt: Date;
}

/** Records a reversal once per gateway reference; false when it was recorded already. */
export async function insertCaptureReversal(q: Queryable, r: NewCaptureReversal): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO capture_reversals (id, merchant_id, livemode, payment_intent_id, attempt_number,
       gateway_id, charge_reference, reversal_reference, amount_minor, currency, intent_status,
       message, detected_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (gateway_id, reversal_reference) DO NOTHING
     RETURNING id`,
    [
      r.id,
      r.merchantId,
      r.livemode,
      r.paymentIntentId,
      r.attemptNumber,
      r.gatewayId,
      r.chargeReference,
      r.reversalReference,
      r.amountMinor,
      r.currency,
      r.intentStatus,
      r.message,
      r.detectedAt,
    ],
  );
  return rows.length > 0;
}
