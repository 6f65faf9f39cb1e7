import { addSeconds } from '../../clock.ts';
import { AppError, NotFoundError } from '../../domain/errors.ts';
import { transition } from '../../domain/payment-intent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import { findOpenAttempt } from '../../storage/repositories/charge-attempts.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import { settlePaymentTransaction } from '../../storage/repositories/transactions.ts';
import { voidAuthorization } from '../captures/void-authorization.ts';
import type { AppContext } from '../context.ts';
import { REQUIRES_ACTION_CHECK_SECONDS } from './charge-outcomes.ts';
import { applyIntentAction, moveAttempt } from './intent-status.ts';

/**
 * Cancels an intent that is still CREATED or REQUIRES_ACTION; anything else is a 409, and so is
 * an intent whose charge is being sent to the gateway at this moment (its answer decides first).
 * A REQUIRES_CAPTURE intent's cancel is a void of its authorisation at the gateway
 * (app/captures/void-authorization.ts).
 */
export async function cancelPaymentIntent(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  reason: string | null,
): Promise<PaymentIntentRecord> {
  const canceled = await ctx.db.transaction(async (tx) => {
    const intent = await findPaymentIntent(tx, scope, id, { forUpdate: true });
    if (!intent) throw new NotFoundError('payment intent', id);
    if (intent.status === 'REQUIRES_CAPTURE') return null;
    transition(intent.status, { type: 'cancel' });
    const now = ctx.clock.now();
    await abandonOpenAttempt(tx, intent, now);
    return applyIntentAction(tx, intent, { type: 'cancel' }, now, { cancellationReason: reason });
  });
  if (canceled) return canceled;
  // Voided, or (moved on meanwhile) cancelled again along the state machine.
  return (await voidAuthorization(ctx, scope, id)) ?? cancelPaymentIntent(ctx, scope, id, reason);
}

/**
 * Ends the open attempt of an intent that is being canceled, or expired (expire-payment-intents.ts
 * takes it from here: the same step): one still waiting for the payer is abandoned (and watched,
 * see `watchClosed` in charge-outcomes.ts) and its PAYMENT transaction declined. A charge that is being sent right now cannot be stopped, so the operation
 * is refused until its answer is in.
 */
export async function abandonOpenAttempt(
  tx: Queryable,
  intent: PaymentIntentRecord,
  now: Date,
): Promise<void> {
  const attempt = await findOpenAttempt(tx, intent.id, { forUpdate: true });
  if (!attempt) return;
  if (attempt.status === 'CHARGING' || attempt.status === 'DELAYED') {
    throw new AppError(
      'invalid_state_transition',
      'A confirmation of this payment intent is in progress at the gateway; retrieve the intent to see its outcome.',
    );
  }
  // The payer may still approve on the gateway's page: the attempt stays watched (a late capture).
  await moveAttempt(tx, attempt, {
    status: 'ABANDONED',
    nextCheckAt: addSeconds(now, REQUIRES_ACTION_CHECK_SECONDS),
    updatedAt: now,
  });
  await settlePaymentTransaction(tx, intent.id, 'DECLINED', now);
}
