import { buildEvent } from '../../domain/events.ts';
import { type IntentAction, transition } from '../../domain/payment-intent.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  type AttemptChange,
  applyPaymentChange,
  type ChargeAttemptRecord,
  type PaymentChange,
  type PaymentTransactionChange,
} from '../../storage/repositories/charge-attempts.ts';
import type { EventToWrite } from '../../storage/repositories/events.ts';
import type {
  LastPaymentError,
  PaymentIntentRecord,
  StatusChange,
} from '../../storage/repositories/payment-intents.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';

/**
 * A row was not in the state a decision was made on: another transaction changed it first. Under
 * the row lock this is a broken invariant; for a decision taken on rows read in an earlier
 * transaction (the outcome of a confirm) it means: roll back, read again under the lock, decide again.
 */
export class StaleStateError extends Error {}

/** What a status change writes beside the status. */
export interface IntentChange {
  redirectUrl?: string | null;
  cancellationReason?: string | null;
  lastPaymentError?: LastPaymentError | null;
  /** Set with REQUIRES_CAPTURE: when the authorisation lapses. */
  captureBefore?: Date | null;
  /** Set with a manual intent's capture: what it took. */
  amountCapturedMinor?: number | null;
}

/**
 * One step of an intent along the state machine, decided and rendered before anything is written:
 * `to` is the intent as the guarded write leaves it (the same status and version it was read in
 * are the guard), so its event can be written in the same statement.
 */
export interface IntentStep {
  from: PaymentIntentRecord;
  to: PaymentIntentRecord;
  change: StatusChange;
  event: EventToWrite | null;
}

/**
 * The step `action` takes the intent through (`transition`: `invalid_state_transition` when the
 * state machine refuses it), and the event it emits. `chargeInFlight`: whether a charge of the
 * intent is still in flight once the step is written (the same as before unless the step moves
 * the attempt along with it).
 */
export function intentStep(
  intent: PaymentIntentRecord,
  action: IntentAction,
  now: Date,
  change: IntentChange = {},
  chargeInFlight = intent.chargeInFlight,
): IntentStep {
  const step = transition(intent.status, action);
  const statusChange: StatusChange = {
    status: step.to,
    redirectUrl: change.redirectUrl ?? null,
    cancellationReason: change.cancellationReason ?? null,
    lastPaymentError: change.lastPaymentError ?? null,
    updatedAt: now,
  };
  // An authorisation lasts only while REQUIRES_CAPTURE: any other step clears its deadline.
  const captureBefore =
    step.to === 'REQUIRES_CAPTURE' ? (change.captureBefore ?? intent.captureBefore) : null;
  const amountCapturedMinor = change.amountCapturedMinor ?? intent.amountCapturedMinor;
  if (captureBefore !== intent.captureBefore || amountCapturedMinor !== intent.amountCapturedMinor) {
    statusChange.capture = { captureBefore, amountCapturedMinor };
  }
  const to: PaymentIntentRecord = {
    ...intent,
    status: step.to,
    version: intent.version + 1,
    redirectUrl: statusChange.redirectUrl ?? null,
    cancellationReason: change.cancellationReason ?? intent.cancellationReason,
    lastPaymentError: change.lastPaymentError ?? intent.lastPaymentError,
    captureBefore,
    amountCapturedMinor,
    chargeInFlight,
    updatedAt: now,
  };
  const event = step.event
    ? {
        merchantId: to.merchantId,
        objectId: to.id,
        ...buildEvent(step.event, { ...paymentIntentResource(to, { kind: 'event' }) }, to.livemode, now),
      }
    : null;
  return { from: intent, to, change: statusChange, event };
}

/** The writes of one decision about an intent and its attempt. */
export interface StateChange {
  intent?: IntentStep | undefined;
  attempt?: { from: ChargeAttemptRecord; change: AttemptChange } | undefined;
  paymentTransaction?: PaymentTransactionChange | undefined;
  /** The amount the settled PAYMENT transaction takes (a capture's); absent keeps its own. */
  paymentTransactionAmount?: number | undefined;
}

/**
 * Writes one decision in ONE statement (`applyPaymentChange`): the intent's step with its event,
 * the attempt's change, the PAYMENT transaction, each guarded by the state the decision was taken
 * on; all or nothing, `StaleStateError` when another transaction changed the intent or the
 * attempt first. Outside a transaction that statement commits on its own: one round trip.
 */
export async function applyStateChange(q: Queryable, change: StateChange): Promise<void> {
  const written = paymentChangeOf(change);
  if (!written) return;
  if (!(await applyPaymentChange(q, written))) {
    throw new StaleStateError(
      `payment intent ${written.paymentIntentId} is no longer ${change.intent?.from.status ?? ''} or attempt ${change.attempt?.from.idempotencyKey ?? ''} no longer ${change.attempt?.from.status ?? ''}`,
    );
  }
}

/** The rows a decision writes, as `applyPaymentChange` takes them; null when it writes nothing. */
export function paymentChangeOf(change: StateChange): PaymentChange | null {
  const { intent, attempt, paymentTransaction, paymentTransactionAmount } = change;
  const paymentIntentId = intent?.from.id ?? attempt?.from.paymentIntentId;
  const now = intent?.change.updatedAt ?? attempt?.change.updatedAt;
  if (!paymentIntentId || !now) return null;
  return {
    paymentIntentId,
    now,
    intent: intent && {
      fromStatus: intent.from.status,
      fromVersion: intent.from.version,
      change: intent.change,
    },
    attempt,
    paymentTransaction,
    paymentTransactionAmount,
    event: intent?.event ?? undefined,
  };
}

/**
 * Applies one action of the state machine to an intent in the status it was read in: the new
 * status and the event it emits are written in one statement (the outbox), or
 * `invalid_state_transition` is thrown and nothing is written. The write is guarded by that
 * status and version and takes the row lock; `StaleStateError` when the intent has moved on.
 */
export async function applyIntentAction(
  tx: Queryable,
  intent: PaymentIntentRecord,
  action: IntentAction,
  now: Date,
  change: IntentChange = {},
): Promise<PaymentIntentRecord> {
  const step = intentStep(intent, action, now, change);
  await applyStateChange(tx, { intent: step });
  return step.to;
}

/** Writes an attempt's change, guarded by the state it was read in (see `StaleStateError`). */
export async function moveAttempt(
  tx: Queryable,
  attempt: ChargeAttemptRecord,
  change: AttemptChange,
): Promise<void> {
  await applyStateChange(tx, { attempt: { from: attempt, change } });
}
