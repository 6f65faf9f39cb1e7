import { buildEvent } from '../../domain/events.ts';
import { type IntentAction, transition } from '../../domain/payment-intent.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  type AttemptChange,
  type ChargeAttemptRecord,
  updateAttempt,
} from '../../storage/repositories/charge-attempts.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import {
  type LastPaymentError,
  type PaymentIntentRecord,
  updatePaymentIntentStatus,
} from '../../storage/repositories/payment-intents.ts';
import { paymentIntentResource } from '../resources/payment-intent.ts';

/**
 * A row was not in the state a decision was made on: another transaction changed it first. Under
 * the row lock this is a broken invariant; for a decision taken on rows read in an earlier
 * transaction (the outcome of a confirm) it means: roll back, read again under the lock, decide again.
 */
export class StaleStateError extends Error {}

/**
 * Applies one action of the state machine to an intent in the status it was read in: the new
 * status and the event it emits are written in the caller's transaction (the outbox), or
 * `invalid_state_transition` is thrown and nothing is written. The UPDATE is guarded by that
 * status and takes the row lock; `StaleStateError` when the intent has moved on since it was read.
 */
export async function applyIntentAction(
  tx: Queryable,
  intent: PaymentIntentRecord,
  action: IntentAction,
  now: Date,
  change: {
    redirectUrl?: string | null;
    cancellationReason?: string | null;
    lastPaymentError?: LastPaymentError | null;
  } = {},
): Promise<PaymentIntentRecord> {
  const step = transition(intent.status, action);
  const updated = await updatePaymentIntentStatus(tx, intent.id, intent.status, {
    status: step.to,
    redirectUrl: change.redirectUrl ?? null,
    cancellationReason: change.cancellationReason ?? null,
    lastPaymentError: change.lastPaymentError ?? null,
    updatedAt: now,
  });
  if (!updated) throw new StaleStateError(`payment intent ${intent.id} is no longer ${intent.status}`);
  if (step.event) {
    await insertEvent(
      tx,
      updated.merchantId,
      updated.id,
      buildEvent(step.event, { ...paymentIntentResource(updated, { kind: 'event' }) }, updated.livemode, now),
    );
  }
  return updated;
}

/** Writes an attempt's change, guarded by the state it was read in (see `StaleStateError`). */
export async function moveAttempt(
  tx: Queryable,
  attempt: ChargeAttemptRecord,
  change: AttemptChange,
): Promise<void> {
  if (!(await updateAttempt(tx, attempt, change))) {
    throw new StaleStateError(`attempt ${attempt.idempotencyKey} is no longer ${attempt.status}`);
  }
}
