import type { TenantScope } from '../../domain/tenant.ts';
import { isUniqueViolation, type Queryable, rowMapping, rowOfJson } from '../db.ts';
import { type PaymentChange, paymentChangeArguments, sqlStateOf } from './charge-attempts.ts';
import { eventRecorded } from './events.ts';
import type { KeyClaim } from './idempotency-keys.ts';
import { intentOfRow, type LastErrorColumns, type PaymentIntentRecord } from './payment-intents.ts';

export type AuthorizationOperationKind = 'capture' | 'void';
export type AuthorizationOperationStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

/**
 * A gateway call on a manual intent's authorisation (migration 393): its capture or its void,
 * written PENDING with its derived gateway key before the call and settled after it.
 */
export interface AuthorizationOperationRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  paymentIntentId: string;
  kind: AuthorizationOperationKind;
  amountMinor: number;
  currency: string;
  gatewayId: string;
  gatewayIdempotencyKey: string;
  status: AuthorizationOperationStatus;
  gatewayReference: string | null;
  failureMessage: string | null;
  requestKey: string | null;
  requestHash: string | null;
  nextSyncAt: Date | null;
  tries: number;
  createdAt: Date;
  updatedAt: Date;
}

const operations = rowMapping<AuthorizationOperationRecord>({
  id: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  paymentIntentId: 'plain',
  kind: 'plain',
  amountMinor: 'plain',
  currency: 'plain',
  gatewayId: 'plain',
  gatewayIdempotencyKey: 'plain',
  status: 'plain',
  gatewayReference: 'plain',
  failureMessage: 'plain',
  requestKey: 'plain',
  requestHash: 'plain',
  nextSyncAt: 'plain',
  tries: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

/** Another capture or void of the intent is in flight (the one-pending index refused this one). */
export class OperationInFlightError extends Error {}

export async function insertAuthorizationOperation(
  q: Queryable,
  operation: AuthorizationOperationRecord,
): Promise<void> {
  try {
    await q.query(
      `INSERT INTO authorization_operations (${operations.columns()}) VALUES (${operations.placeholders()})`,
      operations.values(operation),
    );
  } catch (error) {
    if (isUniqueViolation(error, 'authorization_operations_one_pending')) throw new OperationInFlightError();
    throw error;
  }
}

/**
 * The authorised charge a capture or void acts on (the intent's SUCCEEDED attempt: the key it was
 * sent with, the gateway's reference and data) and how many operations the intent already has, in
 * one read: the next operation's gateway key is derived from both.
 */
export async function authorisedChargeOf(
  q: Queryable,
  paymentIntentId: string,
): Promise<{
  idempotencyKey: string;
  gatewayReference: string | null;
  connectorData: string | null;
  operations: number;
} | null> {
  const { rows } = await q.query<{
    idempotency_key: string;
    gateway_reference: string | null;
    connector_data: string | null;
    operations: number;
  }>(
    `SELECT a.idempotency_key, a.gateway_reference, a.connector_data,
            (SELECT count(*)::int FROM authorization_operations o
              WHERE o.payment_intent_id = a.payment_intent_id) AS operations
       FROM charge_attempts a
      WHERE a.payment_intent_id = $1 AND a.status = 'SUCCEEDED'
      ORDER BY a.attempt_number
      LIMIT 1`,
    [paymentIntentId],
  );
  const row = rows[0];
  return row
    ? {
        idempotencyKey: row.idempotency_key,
        gatewayReference: row.gateway_reference,
        connectorData: row.connector_data,
        operations: row.operations,
      }
    : null;
}

/** The operation a merchant's Idempotency-Key started on an intent, if any (the newest). */
export async function findOperationByRequest(
  q: Queryable,
  paymentIntentId: string,
  requestKey: string,
  options: { forUpdate?: boolean } = {},
): Promise<AuthorizationOperationRecord | null> {
  const { rows } = await q.query(
    `SELECT ${operations.columns()} FROM authorization_operations
      WHERE payment_intent_id = $1 AND request_key = $2
      ORDER BY created_at DESC LIMIT 1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [paymentIntentId, requestKey],
  );
  return operations.first(rows);
}

export async function findAuthorizationOperation(
  q: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AuthorizationOperationRecord | null> {
  const { rows } = await q.query(
    `SELECT ${operations.columns()} FROM authorization_operations WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return operations.first(rows);
}

/** The operation sent to `gatewayId` with this gateway key, if any. */
export async function findOperationByGatewayKey(
  q: Queryable,
  gatewayId: string,
  gatewayKey: string,
): Promise<AuthorizationOperationRecord | null> {
  const { rows } = await q.query(
    `SELECT ${operations.columns()} FROM authorization_operations
      WHERE gateway_idempotency_key = $1 AND gateway_id = $2`,
    [gatewayKey, gatewayId],
  );
  return operations.first(rows);
}

/** PENDING operations whose lease or back-off ran out, oldest first: the repair job's work. */
export async function dueAuthorizationOperations(
  q: Queryable,
  now: Date,
  limit: number,
): Promise<AuthorizationOperationRecord[]> {
  const { rows } = await q.query(
    `SELECT ${operations.columns()} FROM authorization_operations
      WHERE status = 'PENDING' AND next_sync_at <= $1
      ORDER BY next_sync_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => operations.fromRow(row));
}

/** Settles a PENDING operation; false when it was settled already (by another process). */
export async function settleAuthorizationOperation(
  q: Queryable,
  id: string,
  settled: { status: 'SUCCEEDED' | 'FAILED'; gatewayReference: string | null; failureMessage: string | null },
  now: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE authorization_operations
        SET status = $2, gateway_reference = COALESCE($3, gateway_reference), failure_message = $4,
            next_sync_at = NULL, updated_at = $5
      WHERE id = $1 AND status = 'PENDING'`,
    [id, settled.status, settled.gatewayReference, settled.failureMessage, now],
  );
  return rowCount === 1;
}

/** Leaves a PENDING operation to the repair job at `nextSyncAt`, one more try counted. */
export async function postponeAuthorizationOperation(
  q: Queryable,
  id: string,
  nextSyncAt: Date,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE authorization_operations SET next_sync_at = $2, tries = tries + 1, updated_at = $3
      WHERE id = $1 AND status = 'PENDING'`,
    [id, nextSyncAt, now],
  );
}

/** Removes an operation the gateway definitely did not take (nothing happened): the key may retry. */
export async function deleteUntakenOperation(q: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await q.query(
    "DELETE FROM authorization_operations WHERE id = $1 AND status = 'PENDING'",
    [id],
  );
  return rowCount === 1;
}

/** Records why the gateway refused a capture, on an intent that stays REQUIRES_CAPTURE. */
export async function recordRefusedCapture(
  q: Queryable,
  paymentIntentId: string,
  refusal: { code: string; declineCode: string | null; gatewayCode: string | null; message: string },
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE payment_intents
        SET last_error_code = $2, last_error_decline_code = $3, last_error_gateway_code = $4,
            last_error_message = $5, version = version + 1, updated_at = $6
      WHERE id = $1`,
    [paymentIntentId, refusal.code, refusal.declineCode, refusal.gatewayCode, refusal.message, now],
  );
}

/** What `startCaptureInOneStatement` wrote: the intent as locked, the capture, the charge it acts on. */
export interface CaptureStarted {
  intent: PaymentIntentRecord;
  operation: AuthorizationOperationRecord;
  chargeReference: string;
  chargeConnectorData: string | null;
}

const CAPTURE_START =
  'SELECT paygate_capture_start($1, $2, $3, $4, $5::bigint, $6, $7, $8, $9, $10) AS started';

/**
 * A new key's capture started in ONE statement, committed on its own (`paygate_capture_start`,
 * migration 397): the key's stored answer and lock checked, the intent locked and found capturable
 * for `requestedMinor` (all of it when null), the capture written PENDING with its lease. Null,
 * with nothing written, for every other case: the general path decides it.
 */
export async function startCaptureInOneStatement(
  q: Queryable,
  start: {
    scope: TenantScope;
    key: { lockId: bigint; key: string; hash: string };
    now: Date;
    paymentIntentId: string;
    requestedMinor: number | null;
    operationId: string;
    leaseUntil: Date;
  },
): Promise<CaptureStarted | null> {
  const { rows } = await q.query<{ started: Record<string, unknown> & { outcome: string } }>(CAPTURE_START, [
    start.scope.merchantId,
    start.scope.livemode,
    start.key.key,
    start.key.hash,
    start.key.lockId.toString(),
    start.now,
    start.paymentIntentId,
    start.requestedMinor,
    start.operationId,
    start.leaseUntil,
  ]);
  const found = rows[0]?.started;
  if (found?.outcome !== 'started') return null;
  return {
    intent: intentOfRow(
      rowOfJson(found.intent as Record<string, unknown>) as Record<string, unknown> & LastErrorColumns,
    ),
    operation: operations.fromRow(rowOfJson(found.operation as Record<string, unknown>)),
    chargeReference: String(found.charge_reference),
    chargeConnectorData: (found.charge_connector_data as string | null) ?? null,
  };
}

const CAPTURE_FINISH = `SELECT paygate_capture_finish(${Array.from({ length: 45 }, (_, i) => `$${i + 1}`).join(', ')}) AS applied`;

/** SQLSTATE of paygate_capture_finish for an intent or a capture found no longer as phase 1 left it. */
const CAPTURE_MOVED_ON = 'PGCAP';

/**
 * A capture the gateway made, finished in ONE statement (`paygate_capture_finish`, migration 397):
 * the intent's step (`change`, with its event and the PAYMENT transaction), the operation
 * SUCCEEDED and the answer stored under the key, all or nothing. False, with nothing written, when
 * the intent or the operation was no longer as read: the caller finishes under the rows' locks.
 */
export async function finishCaptureInOneStatement(
  q: Queryable,
  finish: {
    operationId: string;
    gatewayReference: string | null;
    change: PaymentChange;
    scope: TenantScope;
    answer: KeyClaim;
  },
): Promise<boolean> {
  const { change, answer } = finish;
  let applied: string | undefined;
  try {
    const { rows } = await q.query<{ applied: string }>(CAPTURE_FINISH, [
      finish.operationId,
      finish.gatewayReference,
      ...paymentChangeArguments(change),
      finish.scope.merchantId,
      finish.scope.livemode,
      answer.key,
      answer.requestMethod,
      answer.requestPath,
      answer.requestHash,
      answer.responseStatus,
      answer.responseBody,
      answer.expiresAt,
    ]);
    applied = rows[0]?.applied;
  } catch (failure) {
    if (sqlStateOf(failure) === CAPTURE_MOVED_ON) return false;
    throw failure;
  }
  if (change.event) eventRecorded(q, change.event, applied === 'queued');
  return true;
}
