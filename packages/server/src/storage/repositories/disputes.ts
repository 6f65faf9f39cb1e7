import type { DisputeReason, DisputeStatus, DisputeTransactionType } from '../../domain/dispute.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { type Queryable, rowMapping } from '../db.ts';

export interface DisputeRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  paymentIntentId: string;
  gatewayId: string;
  /** The gateway's own id of the dispute (Stripe's dp_..., Adyen's chargeback pspReference). */
  gatewayReference: string;
  amountMinor: number;
  currency: string;
  reason: DisputeReason;
  status: DisputeStatus;
  /** The gateway holds the amount now (domain/dispute.ts). */
  fundsHeld: boolean;
  /** The gateway gave the amount back and has not taken it again (domain/dispute.ts). */
  fundsReturned: boolean;
  evidenceDueBy: Date | null;
  /** 1 when created, one more with each change (CONTRACT.md "Resource version"). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const disputes = rowMapping<DisputeRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  paymentIntentId: 'plain',
  gatewayId: 'plain',
  gatewayReference: 'plain',
  amountMinor: 'plain',
  currency: 'plain',
  reason: 'plain',
  status: 'plain',
  fundsHeld: 'plain',
  fundsReturned: 'plain',
  evidenceDueBy: 'plain',
  version: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

/**
 * Inserts a new dispute; false when one with its gateway reference exists for the payment (a
 * concurrent first notification got there first: the caller reads and locks that one instead).
 */
export async function insertDispute(q: Queryable, dispute: DisputeRecord): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO disputes (${disputes.columns()}) VALUES (${disputes.placeholders()})
     ON CONFLICT (payment_intent_id, gateway_reference) DO NOTHING RETURNING id`,
    disputes.values(dispute),
  );
  return rows.length === 1;
}

/** Reads one dispute of a tenant; another tenant's (or mode's) dispute reads as absent. */
export async function findDispute(
  q: Queryable,
  scope: TenantScope,
  id: string,
): Promise<DisputeRecord | null> {
  const { rows } = await q.query(
    `SELECT ${disputes.columns()} FROM disputes WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
    [id, scope.merchantId, scope.livemode],
  );
  return disputes.first(rows);
}

/** The dispute a gateway names for a payment, locked for the caller's transaction. */
export async function findDisputeForUpdate(
  q: Queryable,
  paymentIntentId: string,
  gatewayReference: string,
): Promise<DisputeRecord | null> {
  const { rows } = await q.query(
    `SELECT ${disputes.columns()} FROM disputes
      WHERE payment_intent_id = $1 AND gateway_reference = $2 FOR UPDATE`,
    [paymentIntentId, gatewayReference],
  );
  return disputes.first(rows);
}

/** A payment's disputes, oldest first (the payment's page lists them). */
export async function listDisputesOfIntent(q: Queryable, paymentIntentId: string): Promise<DisputeRecord[]> {
  const { rows } = await q.query(
    `SELECT ${disputes.columns()} FROM disputes WHERE payment_intent_id = $1 ORDER BY created_at, id`,
    [paymentIntentId],
  );
  return rows.map((row) => disputes.fromRow(row));
}

export interface DisputeChange {
  status: DisputeStatus;
  fundsHeld: boolean;
  fundsReturned: boolean;
  reason: DisputeReason;
  evidenceDueBy: Date | null;
}

/** Writes a step of the dispute's state machine; the caller holds the row lock. Returns the new row. */
export async function updateDispute(
  q: Queryable,
  id: string,
  change: DisputeChange,
  now: Date,
): Promise<DisputeRecord> {
  const { rows } = await q.query(
    `UPDATE disputes SET status = $2, funds_held = $3, funds_returned = $4, reason = $5,
            evidence_due_by = $6, version = version + 1, updated_at = $7
      WHERE id = $1 RETURNING ${disputes.columns()}`,
    [id, change.status, change.fundsHeld, change.fundsReturned, change.reason, change.evidenceDueBy, now],
  );
  const updated = disputes.first(rows);
  if (!updated) throw new Error(`dispute ${id} vanished under its row lock`);
  return updated;
}

/**
 * Writes one ledger row of a dispute, APPROVED at once: the gateway has already moved the money
 * when it reports the step (CONTRACT.md "Disputes").
 */
export async function insertDisputeTransaction(
  q: Queryable,
  row: { id: string; type: DisputeTransactionType; dispute: DisputeRecord; now: Date },
): Promise<void> {
  const { dispute } = row;
  await q.query(
    `INSERT INTO transactions (id, merchant_id, livemode, type, status, amount_minor, currency,
                               payment_intent_id, refund_id, dispute_id, gateway_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'APPROVED', $5, $6, $7, NULL, $8, $9, $10, $10)`,
    [
      row.id,
      dispute.merchantId,
      dispute.livemode,
      row.type,
      dispute.amountMinor,
      dispute.currency,
      dispute.paymentIntentId,
      dispute.id,
      dispute.gatewayId,
      row.now,
    ],
  );
}

/**
 * The charge a gateway's dispute names: by the gateway's own reference of it (Stripe's
 * PaymentIntent id, Adyen's originalReference), or, when it sends none, by the key Paygate sent
 * with the charge (Adyen's merchantReference). Null: not a charge of ours.
 */
export async function findDisputedCharge(
  q: Queryable,
  gatewayId: string,
  charge: { idempotencyKey: string | null; chargeReference: string | null },
): Promise<{ paymentIntentId: string; idempotencyKey: string } | null> {
  const [column, value] = charge.chargeReference
    ? ['gateway_reference', charge.chargeReference]
    : ['idempotency_key', charge.idempotencyKey];
  if (!value) return null;
  const { rows } = await q.query<{ payment_intent_id: string; idempotency_key: string }>(
    `SELECT payment_intent_id, idempotency_key FROM charge_attempts
      WHERE gateway_id = $1 AND ${column} = $2 LIMIT 1`,
    [gatewayId, value],
  );
  const row = rows[0];
  return row ? { paymentIntentId: row.payment_intent_id, idempotencyKey: row.idempotency_key } : null;
}
