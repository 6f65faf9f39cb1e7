import { NotFoundError } from '../domain/errors.ts';
import { buildEvent } from '../domain/events.ts';
import { transition } from '../domain/payment-intent.ts';
import type { TenantScope } from '../domain/tenant.ts';
import { insertEvent } from '../storage/repositories/events.ts';
import {
  findPaymentIntent,
  type PaymentIntentRecord,
  updatePaymentIntentStatus,
} from '../storage/repositories/payment-intents.ts';
import type { AppContext } from './context.ts';
import { paymentIntentResource } from './resources.ts';

/** Cancels an intent that is still CREATED or REQUIRES_ACTION; anything else is a 409. */
export async function cancelPaymentIntent(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  reason: string | null,
): Promise<PaymentIntentRecord> {
  return ctx.db.transaction(async (tx) => {
    const intent = await findPaymentIntent(tx, scope, id, { forUpdate: true });
    if (!intent) throw new NotFoundError('payment intent', id);
    const step = transition(intent.status, { type: 'cancel' });
    const now = ctx.clock.now();
    const updated = await updatePaymentIntentStatus(tx, intent.id, intent.status, {
      status: step.to,
      cancellationReason: reason,
      updatedAt: now,
    });
    // The row lock makes a lost race impossible; a null here is a broken invariant, not a user error.
    if (!updated) throw new Error(`payment intent ${id} changed under its row lock`);
    if (step.event) {
      await insertEvent(
        tx,
        scope.merchantId,
        updated.id,
        buildEvent(
          step.event,
          { ...paymentIntentResource(updated, { kind: 'event' }) },
          updated.livemode,
          now,
        ),
      );
    }
    return updated;
  });
}
