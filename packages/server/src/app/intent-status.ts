import { buildEvent } from '../domain/events.ts';
import { type IntentAction, transition } from '../domain/payment-intent.ts';
import type { Queryable } from '../storage/db.ts';
import { insertEvent } from '../storage/repositories/events.ts';
import {
  type PaymentIntentRecord,
  updatePaymentIntentStatus,
} from '../storage/repositories/payment-intents.ts';
import { paymentIntentResource } from './resources.ts';

/**
 * Applies one action of the state machine to an intent whose row the caller has locked: the new
 * status and the event it emits are written in the caller's transaction (the outbox), or
 * `invalid_state_transition` is thrown and nothing is written.
 */
export async function applyIntentAction(
  tx: Queryable,
  intent: PaymentIntentRecord,
  action: IntentAction,
  now: Date,
  change: { redirectUrl?: string | null; cancellationReason?: string | null } = {},
): Promise<PaymentIntentRecord> {
  const step = transition(intent.status, action);
  const updated = await updatePaymentIntentStatus(tx, intent.id, intent.status, {
    status: step.to,
    redirectUrl: change.redirectUrl ?? null,
    cancellationReason: change.cancellationReason ?? null,
    updatedAt: now,
  });
  // The row lock makes a lost race impossible; a null here is a broken invariant, not a user error.
  if (!updated) throw new Error(`payment intent ${intent.id} changed under its row lock`);
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
