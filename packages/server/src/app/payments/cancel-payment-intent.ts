import { NotFoundError } from '../../domain/errors.ts';
import { transition } from '../../domain/payment-intent.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { findPaymentIntent, type PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { abandonOpenAttempt } from './charge-outcomes.ts';
import { applyIntentAction } from './intent-status.ts';

/**
 * Cancels an intent that is still CREATED or REQUIRES_ACTION; anything else is a 409, and so is
 * an intent whose charge is being sent to the gateway at this moment (its answer decides first).
 */
export async function cancelPaymentIntent(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
  reason: string | null,
): Promise<PaymentIntentRecord> {
  return ctx.db.transaction(async (tx) => {
    const intent = await findPaymentIntent(tx, scope, id, { forUpdate: true });
    if (!intent) throw new NotFoundError('payment intent', id);
    transition(intent.status, { type: 'cancel' });
    const now = ctx.clock.now();
    await abandonOpenAttempt(tx, intent, now);
    return applyIntentAction(tx, intent, { type: 'cancel' }, now, { cancellationReason: reason });
  });
}
