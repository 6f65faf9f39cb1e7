import type { CaptureMethod } from '../../domain/capture.ts';
import type { PaymentIntentStatus } from '../../domain/payment-intent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { type Queryable, rowMapping } from '../db.ts';

import type { KeyClaim } from './idempotency-keys.ts';

/**
 * Why the last payment attempt failed: a stable code, the reason in Paygate's decline vocabulary
 * and the gateway's own code when it gave one, a message.
 */
export interface LastPaymentError {
  /** `card_declined` or `gateway_rejected` (the connectors' FailureCode, the contract's failureCodes). */
  code: 'card_declined' | 'gateway_rejected';
  declineCode: string | null;
  gatewayCode: string | null;
  message: string;
}

export interface PaymentIntentRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  amountMinor: number;
  currency: string;
  status: PaymentIntentStatus;
  gatewayId: string;
  redirectUrl: string | null;
  returnUrl: string | null;
  metadata: Record<string, string>;
  amountRefundedMinor: number;
  cancellationReason: string | null;
  /** `manual`: an authorised charge waits in REQUIRES_CAPTURE for its capture (domain/capture.ts). */
  captureMethod: CaptureMethod;
  /** What a manual intent's capture took; null until it captured (and for an automatic intent). */
  amountCapturedMinor: number | null;
  /** When the gateway drops a REQUIRES_CAPTURE intent's authorisation; null otherwise. */
  captureBefore: Date | null;
  /** The merchant's customer the payment belongs to (migration 399); null for none. */
  customerId: string | null;
  /** `off_session`: the method the charge used is saved for the customer when it succeeds. */
  setupFutureUsage: 'off_session' | null;
  /** Set when the intent became FAILED; null otherwise. */
  lastPaymentError: LastPaymentError | null;
  /**
   * A charge of this intent has been sent to the gateway (its attempt is CHARGING) and its answer
   * is not recorded yet: the confirm is in flight, or it was cut off. Read, never written.
   */
  chargeInFlight: boolean;
  /** A capture or void of a REQUIRES_CAPTURE intent was sent and is not settled. Read, never written. */
  authorizationInFlight: boolean;
  /** 1 when created, one more with each change of the intent (CONTRACT.md "Resource version"). */
  version: number;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The columns an INSERT writes; the last failure is written only by a status change, and the
 * version starts at the column's default, 1 (the statements below number their parameters after these).
 */
const intents = rowMapping<
  Omit<PaymentIntentRecord, 'lastPaymentError' | 'chargeInFlight' | 'authorizationInFlight' | 'version'>
>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  amountMinor: 'plain',
  currency: 'plain',
  status: 'plain',
  gatewayId: 'plain',
  redirectUrl: 'plain',
  returnUrl: 'plain',
  metadata: 'json',
  amountRefundedMinor: 'plain',
  cancellationReason: 'plain',
  captureMethod: 'plain',
  amountCapturedMinor: 'plain',
  captureBefore: 'plain',
  customerId: 'plain',
  setupFutureUsage: 'plain',
  expiresAt: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

/**
 * Whether the intent row in scope (`payment_intents`) has a charge in flight: an attempt whose
 * gateway answer is not recorded yet. The primary key of charge_attempts finds it.
 */
export const CHARGE_IN_FLIGHT_SQL = `EXISTS (SELECT 1 FROM charge_attempts ca
     WHERE ca.payment_intent_id = payment_intents.id AND ca.status = 'CHARGING')`;

/**
 * Whether a capture or a void of the intent row in scope has been sent to the gateway and not
 * settled (an authorization operation PENDING): its one-pending index finds it.
 */
export const AUTHORIZATION_IN_FLIGHT_SQL = `EXISTS (SELECT 1 FROM authorization_operations ao
     WHERE ao.payment_intent_id = payment_intents.id AND ao.status = 'PENDING')`;

/** What is read back: the inserted columns, the last failure, and whether a charge is in flight. */
export const INTENT_SELECT_COLUMNS = `${intents.columns()}, version, last_error_code, last_error_decline_code, last_error_gateway_code,
       last_error_message,
       ${CHARGE_IN_FLIGHT_SQL} AS charge_in_flight,
       ${AUTHORIZATION_IN_FLIGHT_SQL} AS authorization_in_flight`;

export interface LastErrorColumns {
  version: number;
  last_error_code: string | null;
  last_error_decline_code: string | null;
  last_error_gateway_code: string | null;
  last_error_message: string | null;
}

/** The record of the first row selected with {@link INTENT_SELECT_COLUMNS}, or null when there is none. */
function firstIntent(
  rows: readonly (Record<string, unknown> & LastErrorColumns)[],
): PaymentIntentRecord | null {
  const row = rows[0];
  return row ? intentOfRow(row) : null;
}

/** The stored failure code: only the confirm writes it, with one of the two; anything else is loud. */
function failureCodeOf(code: string): LastPaymentError['code'] {
  if (code === 'card_declined' || code === 'gateway_rejected') return code;
  throw new Error(`payment_intents.last_error_code holds an unknown code: ${code}`);
}

/** The record of one row selected with {@link INTENT_SELECT_COLUMNS}. */
export function intentOfRow(row: Record<string, unknown> & LastErrorColumns): PaymentIntentRecord {
  return {
    ...intents.fromRow(row),
    version: row.version,
    lastPaymentError:
      row.last_error_code === null
        ? null
        : {
            code: failureCodeOf(row.last_error_code),
            declineCode: row.last_error_decline_code,
            gatewayCode: row.last_error_gateway_code,
            message: row.last_error_message ?? '',
          },
    chargeInFlight: row.charge_in_flight === true,
    authorizationInFlight: row.authorization_in_flight === true,
  };
}

const INSERT_INTENT = `INSERT INTO payment_intents (${intents.columns()})
     VALUES (${intents.placeholders()})`;

export async function insertPaymentIntent(q: Queryable, intent: PaymentIntentRecord): Promise<void> {
  await q.query(INSERT_INTENT, intents.values(intent));
}

// Built once: the same text on every call, so its prepared statement is found without rebuilding it.
// The key's parameters follow the intent's columns.
const INTENT_COLUMNS = intents
  .columns()
  .split(',')
  .map((column) => column.trim());
const AFTER = INTENT_COLUMNS.length;
const CREATED_AT = INTENT_COLUMNS.indexOf('created_at') + 1;
const INSERT_INTENT_WITH_KEY = `WITH lock AS MATERIALIZED (SELECT pg_try_advisory_xact_lock($${AFTER + 1}::bigint) AS locked),
     key_row AS (
       INSERT INTO idempotency_keys (merchant_id, livemode, idempotency_key, request_method, request_path,
                                     request_hash, response_status, response_body, created_at, expires_at)
       SELECT $2, $3, $${AFTER + 2}, $${AFTER + 3}, $${AFTER + 4}, $${AFTER + 5}, $${AFTER + 6}, $${AFTER + 7}, $${CREATED_AT}, $${AFTER + 8} FROM lock WHERE lock.locked
       ON CONFLICT (merchant_id, livemode, idempotency_key) DO UPDATE
          SET request_method = EXCLUDED.request_method, request_path = EXCLUDED.request_path,
              request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
              response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
              expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
       RETURNING 1
     ),
     intent AS (
       INSERT INTO payment_intents (${intents.columns()})
       SELECT ${intents.placeholders()} FROM key_row
       RETURNING 1
     )
     SELECT (SELECT locked FROM lock) AS locked, (SELECT count(*)::int FROM intent) AS created`;

/**
 * Creates an intent and stores its idempotent response in ONE statement (one round trip, one
 * commit): it takes the key's transaction-scoped lock, inserts the key row (or replaces an expired
 * one) and inserts the intent only from that row. `in_flight`: another request holds the key;
 * `exists`: the key already has a live response (nothing was written).
 */
export async function insertPaymentIntentWithKey(
  q: Queryable,
  claim: KeyClaim,
  intent: PaymentIntentRecord,
): Promise<'created' | 'in_flight' | 'exists'> {
  const { rows } = await q.query<{ locked: boolean; created: number }>(INSERT_INTENT_WITH_KEY, [
    ...intents.values(intent),
    claim.lockId.toString(),
    claim.key,
    claim.requestMethod,
    claim.requestPath,
    claim.requestHash,
    claim.responseStatus,
    claim.responseBody,
    claim.expiresAt,
  ]);
  const row = rows[0];
  if (!row?.locked) return 'in_flight';
  return row.created === 1 ? 'created' : 'exists';
}

const FIND_INTENT = `SELECT ${INTENT_SELECT_COLUMNS} FROM payment_intents
      WHERE id = $1 AND merchant_id = $2 AND livemode = $3`;
const FIND_INTENT_FOR_UPDATE = `${FIND_INTENT} FOR UPDATE`;

/**
 * Reads one intent of a tenant. `forUpdate` locks the row for the rest of the transaction, so
 * that concurrent state changes of one intent happen one after another.
 */
export async function findPaymentIntent(
  q: Queryable,
  scope: TenantScope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentIntentRecord | null> {
  const { rows } = await q.query<Record<string, unknown> & LastErrorColumns>(
    options.forUpdate ? FIND_INTENT_FOR_UPDATE : FIND_INTENT,
    [id, scope.merchantId, scope.livemode],
  );
  return firstIntent(rows);
}

/** Reads an intent by id alone, for workers and gateway notifications that carry no tenant. */
export async function findPaymentIntentById(
  q: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentIntentRecord | null> {
  const { rows } = await q.query<Record<string, unknown> & LastErrorColumns>(
    `SELECT ${INTENT_SELECT_COLUMNS} FROM payment_intents WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return firstIntent(rows);
}

export interface StatusChange {
  status: PaymentIntentStatus;
  redirectUrl?: string | null;
  cancellationReason?: string | null;
  /** Recorded with a move to FAILED; kept as it was otherwise. */
  lastPaymentError?: LastPaymentError | null;
  /**
   * A manual intent's capture columns, when the step changes them (written by the step's own
   * statement, paygate_apply_payment_change of migration 396).
   */
  capture?: { captureBefore: Date | null; amountCapturedMinor: number | null };
  updatedAt: Date;
}

/**
 * Counts one more change of an intent whose status stays (a late capture entered in its books):
 * the version grows, so the event that reports the change carries a newer state.
 */
export async function notePaymentIntentChange(
  q: Queryable,
  id: string,
  updatedAt: Date,
): Promise<PaymentIntentRecord | null> {
  const { rows } = await q.query<Record<string, unknown> & LastErrorColumns>(
    `UPDATE payment_intents SET version = version + 1, updated_at = $2 WHERE id = $1
      RETURNING ${INTENT_SELECT_COLUMNS}`,
    [id, updatedAt],
  );
  return firstIntent(rows);
}

/**
 * Which refunds `amount_refunded_minor` counts: those in the intent's currency of at most its
 * amount. Every merchant refund is (it is checked when made); the automatic refund of a late
 * capture of another currency or of more than the intent's amount is not, and shows only as its
 * own refund and transaction (docs/decisions/money-safety.md, "Late captures in the books"). One
 * condition for adding and restoring, so a restore takes back exactly what was added.
 */
const COUNTS_ON_INTENT = 'currency = $4 AND amount_minor >= $2';

/** Gives back refunded amount (a refund reversed by the gateway after it succeeded). */
export async function restoreRefundedAmount(
  q: Queryable,
  id: string,
  refund: { amountMinor: number; currency: string },
  updatedAt: Date,
): Promise<void> {
  await q.query(
    `UPDATE payment_intents SET amount_refunded_minor = amount_refunded_minor - $2, updated_at = $3,
                               version = version + 1
      WHERE id = $1 AND ${COUNTS_ON_INTENT}`,
    [id, refund.amountMinor, updatedAt, refund.currency],
  );
}

/**
 * Adds a settled refund to the intent's amount_refunded_minor (the CHECK keeps it within the
 * amount). The caller holds the intent's row lock and settles each refund once.
 */
export async function addRefundedAmount(
  q: Queryable,
  id: string,
  refund: { amountMinor: number; currency: string },
  updatedAt: Date,
): Promise<void> {
  await q.query(
    `UPDATE payment_intents SET amount_refunded_minor = amount_refunded_minor + $2, updated_at = $3,
                               version = version + 1
      WHERE id = $1 AND ${COUNTS_ON_INTENT}`,
    [id, refund.amountMinor, updatedAt, refund.currency],
  );
}

/**
 * Locks up to `limit` REQUIRES_CAPTURE intents past `capture_before` for one worker (SKIP LOCKED).
 * One with a capture or void in flight is left: the gateway's answer to it decides first.
 */
export async function claimLapsedAuthorizations(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT pi.id FROM payment_intents pi
      WHERE pi.status = 'REQUIRES_CAPTURE' AND pi.capture_before <= $1
        AND NOT EXISTS (SELECT 1 FROM authorization_operations ao
                         WHERE ao.payment_intent_id = pi.id AND ao.status = 'PENDING')
      ORDER BY pi.capture_before
      LIMIT $2
      FOR UPDATE OF pi SKIP LOCKED`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}
