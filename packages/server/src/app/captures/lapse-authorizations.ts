import {
  claimLapsedAuthorizations,
  findPaymentIntentById,
} from '../../storage/repositories/payment-intents.ts';
import { settlePaymentTransaction } from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';
import { applyIntentAction } from '../payments/intent-status.ts';

/**
 * The authorisations the gateway has dropped (`capture_before` passed, never captured): each
 * intent CANCELED with `cancellation_reason: authorization_expired` and `payment_intent.canceled`,
 * its PAYMENT transaction DECLINED, in one transaction per batch. Nothing is sent: the gateway
 * released the payer's money itself. Returns how many lapsed.
 */
export async function lapseDueAuthorizations(ctx: AppContext, limit: number): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const ids = await claimLapsedAuthorizations(tx, now, limit);
    for (const id of ids) {
      const intent = await findPaymentIntentById(tx, id);
      if (!intent) continue;
      await settlePaymentTransaction(tx, intent.id, 'DECLINED', now);
      await applyIntentAction(tx, intent, { type: 'expire_authorization' }, now, {
        cancellationReason: 'authorization_expired',
      });
    }
    return ids.length;
  });
}
