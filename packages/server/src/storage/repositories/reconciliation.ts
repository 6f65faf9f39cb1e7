import { type Queryable, rowMapping } from '../db.ts';
import type { AttemptStatus } from './charge-attempts.ts';
import type { RefundStatus } from './refunds.ts';

/** What reconciliation compares of a charge or a refund with the gateway's books. */
interface KnownRecord<Status> {
  merchantId: string;
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
  /**
   * A manual intent's authorised charge (its attempt SUCCEEDED as an authorisation): still
   * `authorised` (REQUIRES_CAPTURE), `captured` (its amount is what the capture took) or `released`
   * (voided, lapsed); null for every other charge.
   */
  authorization: 'authorised' | 'captured' | 'released' | null;
}

/** A refund as reconciliation compares it with the gateway's books. */
export interface KnownRefund extends KnownRecord<RefundStatus> {
  id: string;
}

const knownRecordColumns = {
  merchantId: 'plain',
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
  authorization: 'plain',
});

const knownRefund = rowMapping<KnownRefund>({ id: 'plain', ...knownRecordColumns });

/**
 * Whose records a gateway's books hold: one merchant's (its own gateway account), or every merchant
 * without an account of that `gateway_id` in that mode (the process's gateway, as `connectorFor`
 * resolves it).
 */
export type BooksOwner = { merchantId: string } | 'merchants-without-account';

/** `$5` is the merchant id, or null for merchants without an account; `alias` the table's. */
function ownerCondition(alias: string): string {
  return `(($5::text IS NOT NULL AND ${alias}.merchant_id = $5)
        OR ($5::text IS NULL AND NOT EXISTS (SELECT 1 FROM gateway_accounts ga
              WHERE ga.merchant_id = ${alias}.merchant_id AND ga.livemode = ${alias}.livemode
                AND ga.gateway_id = ${alias}.gateway_id)))`;
}

const ownerParameter = (owner: BooksOwner) =>
  owner === 'merchants-without-account' ? null : owner.merchantId;

/** Every charge attempt of one gateway and mode created in `[from, to)`, of the books' owner. */
export async function knownCharges(
  q: Queryable,
  gatewayId: string,
  livemode: boolean,
  from: Date,
  to: Date,
  owner: BooksOwner = 'merchants-without-account',
): Promise<KnownCharge[]> {
  const { rows } = await q.query(
    `SELECT a.merchant_id, a.payment_intent_id, a.idempotency_key, a.status, a.gateway_reference,
            CASE WHEN i.capture_method = 'manual' AND i.status = 'SUCCEEDED'
                 THEN COALESCE(i.amount_captured_minor, i.amount_minor) ELSE i.amount_minor END AS amount_minor,
            i.currency, a.created_at, lc.repair_status AS late_capture_repair,
            CASE WHEN i.capture_method = 'manual' AND a.status = 'SUCCEEDED'
                 THEN CASE i.status WHEN 'REQUIRES_CAPTURE' THEN 'authorised' WHEN 'SUCCEEDED' THEN 'captured'
                                    ELSE 'released' END END AS authorization,
            (SELECT cr.reversal_reference FROM capture_reversals cr
              WHERE cr.payment_intent_id = a.payment_intent_id AND cr.attempt_number = a.attempt_number
              ORDER BY cr.detected_at LIMIT 1) AS capture_reversal
       FROM charge_attempts a
       JOIN payment_intents i ON i.id = a.payment_intent_id
       LEFT JOIN late_captures lc
         ON lc.payment_intent_id = a.payment_intent_id AND lc.attempt_number = a.attempt_number
      WHERE a.gateway_id = $1 AND a.livemode = $2 AND a.created_at >= $3 AND a.created_at < $4
        AND ${ownerCondition('a')}`,
    [gatewayId, livemode, from, to, ownerParameter(owner)],
  );
  return rows.map((row) => knownCharge.fromRow(row));
}

/** Every refund of one gateway and mode created in `[from, to)`, of the books' owner. */
export async function knownRefunds(
  q: Queryable,
  gatewayId: string,
  livemode: boolean,
  from: Date,
  to: Date,
  owner: BooksOwner = 'merchants-without-account',
): Promise<KnownRefund[]> {
  const { rows } = await q.query(
    // The refunds merchants asked for, and those Paygate made itself to give back a late capture.
    `SELECT merchant_id, id, gateway_idempotency_key AS idempotency_key, status, gateway_reference, amount_minor, currency, created_at
       FROM refunds
      WHERE gateway_id = $1 AND livemode = $2 AND created_at >= $3 AND created_at < $4
        AND ${ownerCondition('refunds')}
     UNION ALL
     SELECT merchant_id, id, refund_idempotency_key,
            CASE repair_status WHEN 'REFUNDED' THEN 'SUCCEEDED' WHEN 'REFUND_FAILED' THEN 'FAILED'
                 ELSE 'PENDING' END,
            refund_reference, amount_minor, currency, detected_at
       FROM late_captures
      WHERE gateway_id = $1 AND livemode = $2 AND detected_at >= $3 AND detected_at < $4
        AND ${ownerCondition('late_captures')}
        -- A late capture in the books has its refund among the refunds above.
        AND NOT EXISTS (SELECT 1 FROM refunds r
                         WHERE r.gateway_id = late_captures.gateway_id
                           AND r.gateway_idempotency_key = late_captures.refund_idempotency_key)`,
    [gatewayId, livemode, from, to, ownerParameter(owner)],
  );
  return rows.map((row) => knownRefund.fromRow(row));
}
