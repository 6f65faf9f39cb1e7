import type { PaymentIntentStatus } from '../../domain/payment-intent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { isUniqueViolation, type Queryable, rowMapping, rowOfJson } from '../db.ts';
import { type EventToWrite, eventArguments, eventRecorded } from './events.ts';
import { type GatewayAccountRecord, gatewayAccountColumns } from './gateway-accounts.ts';
import {
  intentOfRow,
  type LastErrorColumns,
  type PaymentIntentRecord,
  type StatusChange,
} from './payment-intents.ts';

/**
 * CHARGING: the charge is being sent (or a crash interrupted it); DELAYED: the amount-13 rule's
 * charge waits for its due time; REQUIRES_ACTION / PROCESSING: the gateway has not decided yet.
 * The other four are closed. UNAVAILABLE: the gateway refused to take it (nothing was charged);
 * ABANDONED: the intent was canceled or expired while the payer had still to act; TIMED_OUT: no
 * outcome within the processing deadline, the intent failed (still watched for a late capture).
 */
export type AttemptStatus =
  | 'CHARGING'
  | 'DELAYED'
  | 'REQUIRES_ACTION'
  | 'PROCESSING'
  | 'SUCCEEDED'
  | 'FAILED'
  | 'UNAVAILABLE'
  | 'ABANDONED'
  | 'TIMED_OUT';

export const openAttemptStatuses: readonly AttemptStatus[] = [
  'CHARGING',
  'DELAYED',
  'REQUIRES_ACTION',
  'PROCESSING',
];

export interface ChargeAttemptRecord {
  paymentIntentId: string;
  attemptNumber: number;
  merchantId: string;
  livemode: boolean;
  gatewayId: string;
  idempotencyKey: string;
  paymentMethodToken: string;
  status: AttemptStatus;
  gatewayReference: string | null;
  /** Opaque data the connector asked to keep with the charge (gateways/connector.ts). */
  connectorData: string | null;
  failureCode: string | null;
  nextCheckAt: Date | null;
  checks: number;
  createdAt: Date;
  updatedAt: Date;
}

const attempts = rowMapping<ChargeAttemptRecord>({
  paymentIntentId: 'plain',
  attemptNumber: 'plain',
  merchantId: 'plain',
  livemode: 'plain',
  gatewayId: 'plain',
  idempotencyKey: 'plain',
  paymentMethodToken: 'plain',
  status: 'plain',
  gatewayReference: 'plain',
  connectorData: 'plain',
  failureCode: 'plain',
  nextCheckAt: 'plain',
  checks: 'plain',
  createdAt: 'plain',
  updatedAt: 'plain',
});

/** The idempotency key sent to the gateway for one attempt; notifications carry it back. */
export function attemptIdempotencyKey(paymentIntentId: string, attemptNumber: number): string {
  return `${paymentIntentId}:attempt:${attemptNumber}`;
}

/** The same key built in SQL, for an attempt numbered inside its INSERT. */
const sqlAttemptIdempotencyKey = (paymentIntentId: string, attemptNumber: string) =>
  `${paymentIntentId} || ':attempt:' || ${attemptNumber}`;

/** Thrown by `insertChargeAttempt` when the intent already has an open attempt (a confirm in flight). */
export class OpenAttemptExistsError extends Error {
  constructor(paymentIntentId: string) {
    super(`payment intent ${paymentIntentId} already has an open charge attempt`);
  }
}

const INSERT_ATTEMPT = `INSERT INTO charge_attempts (${attempts.columns()})
       SELECT $1, next.n, $2, $3, $4, ${sqlAttemptIdempotencyKey('$1', 'next.n')}, $5, $6, NULL, NULL, NULL, $7, 0, $8, $9
         FROM (SELECT coalesce(max(attempt_number), 0) + 1 AS n FROM charge_attempts
                WHERE payment_intent_id = $1) AS next
       RETURNING ${attempts.columns()}`;

/**
 * Inserts the next attempt of an intent, numbered after the last one in the same statement. The
 * caller holds the intent's row lock, so no other attempt of the intent is numbered meanwhile.
 * The unique index `charge_attempts_one_open` refuses a second open attempt: that is the check
 * that a confirm is not already in flight (`OpenAttemptExistsError`; the transaction is aborted).
 */
export async function insertChargeAttempt(
  q: Queryable,
  attempt: Omit<
    ChargeAttemptRecord,
    'attemptNumber' | 'idempotencyKey' | 'checks' | 'gatewayReference' | 'connectorData' | 'failureCode'
  >,
): Promise<ChargeAttemptRecord> {
  try {
    const { rows } = await q.query(INSERT_ATTEMPT, [
      attempt.paymentIntentId,
      attempt.merchantId,
      attempt.livemode,
      attempt.gatewayId,
      attempt.paymentMethodToken,
      attempt.status,
      attempt.nextCheckAt,
      attempt.createdAt,
      attempt.updatedAt,
    ]);
    const row = rows[0];
    if (!row) throw new Error('INSERT ... RETURNING gave no row');
    return attempts.fromRow(row);
  } catch (error) {
    if (isUniqueViolation(error, 'charge_attempts_one_open')) {
      throw new OpenAttemptExistsError(attempt.paymentIntentId);
    }
    throw error;
  }
}

/** What the first phase of a confirm is given: what the domain and the gateways decided. */
export interface ConfirmStart {
  scope: TenantScope;
  paymentIntentId: string;
  /** The statuses from which the domain lets an intent be confirmed. */
  confirmable: readonly PaymentIntentStatus[];
  now: Date;
  /** The test-mode amount ending (amount_minor % 100) whose charge is delayed: left to the caller. */
  delayedEnding: number;
  /** The process's gateways (used when the merchant has no account of the gateway_id) that take the token. */
  processGateways: readonly string[];
  /** The connectors of merchants' accounts that take the token. */
  accountConnectors: readonly string[];
  paymentMethodToken: string;
  attemptStatus: AttemptStatus;
  nextCheckAt: Date;
  transactionId: string;
}

/** What the first phase found (nothing written) or wrote (`started`); see migration 260. */
export type ConfirmStarted =
  | { outcome: 'not_found' | 'slow' | 'attempt_open' }
  | { outcome: 'refused'; status: PaymentIntentStatus }
  | {
      outcome: 'refused_gateway';
      gatewayId: string;
      account: GatewayAccountRecord | null;
      openAttempt: boolean;
    }
  | {
      outcome: 'started';
      intent: PaymentIntentRecord;
      attempt: ChargeAttemptRecord;
      account: GatewayAccountRecord | null;
    };

const CONFIRM_START = `SELECT paygate_confirm_start($1, $2, $3, $4::text[], $5, $6, $7::text[], $8::text[], $9, $10, $11, $12) AS started`;

interface StartedJson {
  outcome: ConfirmStarted['outcome'];
  status?: PaymentIntentStatus;
  intent?: Record<string, unknown>;
  attempt?: Record<string, unknown>;
  account?: Record<string, unknown> | null;
  open_attempt?: boolean;
  gateway_id?: string;
}

/**
 * The first phase of a confirm in ONE statement, committed on its own (call it outside a
 * transaction for one round trip): the intent locked and checked, its gateway checked, the attempt
 * (the open-attempt index refuses a second one) and the PENDING PAYMENT transaction written; or
 * nothing written and what was found instead (`paygate_confirm_start`, migration 260).
 */
export async function startConfirm(q: Queryable, start: ConfirmStart): Promise<ConfirmStarted> {
  const { rows } = await q.query<{ started: StartedJson }>(CONFIRM_START, [
    start.paymentIntentId,
    start.scope.merchantId,
    start.scope.livemode,
    start.confirmable,
    start.now,
    start.delayedEnding,
    start.processGateways,
    start.accountConnectors,
    start.paymentMethodToken,
    start.attemptStatus,
    start.nextCheckAt,
    start.transactionId,
  ]);
  const found = rows[0]?.started;
  if (!found) throw new Error('paygate_confirm_start gave no answer');
  const account = found.account ? gatewayAccountColumns.fromRow(rowOfJson(found.account)) : null;
  switch (found.outcome) {
    case 'refused':
      return { outcome: 'refused', status: found.status as PaymentIntentStatus };
    case 'refused_gateway':
      return {
        outcome: 'refused_gateway',
        gatewayId: found.gateway_id ?? '',
        account,
        openAttempt: found.open_attempt === true,
      };
    case 'started':
      return {
        outcome: 'started',
        intent: intentOfRow(rowOfJson(found.intent ?? {}) as Record<string, unknown> & LastErrorColumns),
        attempt: attempts.fromRow(rowOfJson(found.attempt ?? {})),
        account,
      };
    default:
      return { outcome: found.outcome };
  }
}

/** The open attempt of an intent, if any (at most one exists). */
export async function findOpenAttempt(
  q: Queryable,
  paymentIntentId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ChargeAttemptRecord | null> {
  const { rows } = await q.query(
    `SELECT ${attempts.columns()} FROM charge_attempts
      WHERE payment_intent_id = $1 AND status = ANY($2::text[])${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [paymentIntentId, openAttemptStatuses],
  );
  return attempts.first(rows);
}

export async function findAttemptByKey(
  q: Queryable,
  gatewayId: string,
  idempotencyKey: string,
  options: { forUpdate?: boolean } = {},
): Promise<ChargeAttemptRecord | null> {
  const { rows } = await q.query(
    `SELECT ${attempts.columns()} FROM charge_attempts
      WHERE idempotency_key = $1 AND gateway_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [idempotencyKey, gatewayId],
  );
  return attempts.first(rows);
}

/** The attempt the gateway knows by `gatewayReference` (Stripe's PaymentIntent id, Adyen's pspReference). */
export async function findAttemptByGatewayReference(
  q: Queryable,
  gatewayId: string,
  gatewayReference: string,
): Promise<ChargeAttemptRecord | null> {
  const { rows } = await q.query(
    `SELECT ${attempts.columns()} FROM charge_attempts
      WHERE gateway_id = $1 AND gateway_reference = $2 LIMIT 1`,
    [gatewayId, gatewayReference],
  );
  return attempts.first(rows);
}

/** One attempt of an intent by its number. */
export async function findAttempt(
  q: Queryable,
  paymentIntentId: string,
  attemptNumber: number,
): Promise<ChargeAttemptRecord | null> {
  const { rows } = await q.query(
    `SELECT ${attempts.columns()} FROM charge_attempts WHERE payment_intent_id = $1 AND attempt_number = $2`,
    [paymentIntentId, attemptNumber],
  );
  return attempts.first(rows);
}

export async function listAttempts(q: Queryable, paymentIntentId: string): Promise<ChargeAttemptRecord[]> {
  const { rows } = await q.query(
    `SELECT ${attempts.columns()} FROM charge_attempts WHERE payment_intent_id = $1 ORDER BY attempt_number`,
    [paymentIntentId],
  );
  return rows.map(attempts.fromRow);
}

export interface AttemptChange {
  status: AttemptStatus;
  gatewayReference?: string | null;
  /** Kept when given; null or absent keeps what was kept before. */
  connectorData?: string | null;
  failureCode?: string | null;
  nextCheckAt: Date | null;
  /** Counts one more reconciliation check. */
  checked?: boolean;
  updatedAt: Date;
}

/** What a change does to the PAYMENT transaction: settles the PENDING one, or removes it. */
export type PaymentTransactionChange = 'APPROVED' | 'DECLINED' | 'DELETE';

/** One decided change of an intent, its attempt, its PAYMENT transaction and the outbox. */
export interface PaymentChange {
  paymentIntentId: string;
  now: Date;
  /** The intent's new status, from the status and version the decision was taken on. */
  intent?: { fromStatus: PaymentIntentStatus; fromVersion: number; change: StatusChange } | undefined;
  /** The attempt's change, from the status and checks the decision was taken on. */
  attempt?:
    | { from: Pick<ChargeAttemptRecord, 'attemptNumber' | 'status' | 'checks'>; change: AttemptChange }
    | undefined;
  paymentTransaction?: PaymentTransactionChange | undefined;
  /** The amount the settled PAYMENT transaction takes (what a capture took); absent keeps its own. */
  paymentTransactionAmount?: number | undefined;
  event?: EventToWrite | undefined;
}

/** The 34-argument overload of migration 396 (capture columns and the PAYMENT amount beside the step). */
const APPLY_PAYMENT_CHANGE = `SELECT paygate_apply_payment_change(${Array.from({ length: 34 }, (_, i) => `$${i + 1}`).join(', ')}) AS applied`;

/** SQLSTATE of paygate_apply_payment_change for an attempt found changed after its intent was written. */
const STALE_ATTEMPT = 'PGSTL';

/**
 * Writes one decided change in ONE statement (`paygate_apply_payment_change`, migrations 261 and
 * 396): the intent's status (guarded by the status and version it was read in) with a manual
 * intent's capture columns, the attempt's change
 * (guarded by its status and checks), the PAYMENT transaction and the event with its deliveries.
 * False, with nothing written, when the intent or the attempt was no longer as read.
 */
export async function applyPaymentChange(q: Queryable, c: PaymentChange): Promise<boolean> {
  let result: string | undefined;
  try {
    const { rows } = await q.query<{ applied: string }>(APPLY_PAYMENT_CHANGE, paymentChangeArguments(c));
    result = rows[0]?.applied;
  } catch (failure) {
    if (sqlStateOf(failure) === STALE_ATTEMPT) return false;
    throw failure;
  }
  if (result === 'stale') return false;
  if (c.event) eventRecorded(q, c.event, result === 'queued');
  return true;
}

/** The server's SQLSTATE of a failed statement (both drivers, and storage/db.ts's DatabaseError, carry it as `code`). */
export function sqlStateOf(failure: unknown): unknown {
  return typeof failure === 'object' && failure !== null ? (failure as { code?: unknown }).code : undefined;
}

/** The 34 arguments of `paygate_apply_payment_change` (migration 396) for one change, in order. */
export function paymentChangeArguments(c: PaymentChange): unknown[] {
  const intent = c.intent;
  const attempt = c.attempt;
  const error = intent?.change.lastPaymentError;
  return [
    c.paymentIntentId,
    c.now,
    intent?.fromStatus ?? null,
    intent?.fromVersion ?? null,
    intent?.change.status ?? null,
    intent?.change.redirectUrl ?? null,
    intent?.change.cancellationReason ?? null,
    error?.code ?? null,
    error?.declineCode ?? null,
    error?.gatewayCode ?? null,
    error?.message ?? null,
    attempt?.from.attemptNumber ?? null,
    attempt?.from.status ?? null,
    attempt?.from.checks ?? null,
    attempt?.change.status ?? null,
    attempt?.change.gatewayReference ?? null,
    attempt?.change.failureCode ?? null,
    attempt?.change.nextCheckAt ?? null,
    attempt?.change.checked ? 1 : 0,
    attempt?.change.connectorData ?? null,
    c.paymentTransaction ?? null,
    ...(c.event ? eventArguments(c.event) : NO_EVENT),
    intent?.change.capture !== undefined,
    intent?.change.capture?.captureBefore ?? null,
    intent?.change.capture?.amountCapturedMinor ?? null,
    c.paymentTransactionAmount ?? null,
  ];
}

const NO_EVENT: readonly null[] = Array.from({ length: 9 }, () => null);

/**
 * Claims up to `limit` attempts in one of `statuses` whose check is due, for one worker: the rows
 * are locked with SKIP LOCKED (other workers pass them by) and their next check is pushed to
 * `leaseUntil` before the caller commits, so no other worker takes them while this one talks to
 * the gateway outside any transaction. A worker that dies simply lets the lease run out.
 */
export async function claimDueAttempts(
  q: Queryable,
  statuses: readonly AttemptStatus[],
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ChargeAttemptRecord[]> {
  const { rows } = await q.query(
    `WITH due AS (
       SELECT payment_intent_id, attempt_number FROM charge_attempts
        WHERE status = ANY($1::text[]) AND next_check_at <= $2
        ORDER BY next_check_at
        LIMIT $4
        FOR UPDATE SKIP LOCKED
     )
     UPDATE charge_attempts a SET next_check_at = $3
       FROM due
      WHERE a.payment_intent_id = due.payment_intent_id AND a.attempt_number = due.attempt_number
      RETURNING ${attempts.columns('a')}`,
    [statuses, now, leaseUntil, limit],
  );
  return rows.map(attempts.fromRow);
}
