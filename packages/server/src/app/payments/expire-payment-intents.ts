import { claimExpiredIntentIds } from '../../storage/repositories/expiring-intents.ts';
import { findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import type { AppContext } from '../context.ts';
import { abandonOpenAttempt } from './cancel-payment-intent.ts';
import { applyIntentAction } from './intent-status.ts';

/**
 * Expires one batch of intents past `expires_at` (CREATED or REQUIRES_ACTION) in one transaction:
 * each becomes EXPIRED with its `payment_intent.expired` event, and an attempt still waiting for
 * the payer is abandoned. Returns how many expired.
 */
export async function expireDueIntents(ctx: AppContext, limit: number): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const ids = await claimExpiredIntentIds(tx, now, limit);
    for (const id of ids) {
      const intent = await findPaymentIntentById(tx, id);
      if (!intent) continue;
      await abandonOpenAttempt(tx, intent, now);
      await applyIntentAction(tx, intent, { type: 'expire' }, now);
    }
    return ids.length;
  });
}
