import type { Queryable } from '../../storage/db.ts';
import { findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import { settlePaymentTransaction } from '../../storage/repositories/transactions.ts';
import type { AppContext } from '../context.ts';
import { applyIntentAction } from '../payments/intent-status.ts';

/**
 * Locks up to `limit` REQUIRES_CAPTURE intents past `capture_before` for one worker (SKIP LOCKED).
 * One with a capture or void in flight is left: the gateway's answer to it decides first.
 */
async function claimLapsedAuthorizations(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT pi.id FROM payment_intents pi
      WHERE pi.status = 'REQUIRES_CAPTURE' AND pi.capture_before <= $1
        AND NOT EXISTS (SELECT 1 FROM authorization_operations ao
                         WHERE ao.payment_intent_id = pi.id AND ao.status = 'PENDING')
      ORDER BY pi.capture_before
      LIMIT $2
      FOR UPDATE OF pi SKIP LOCKED`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}

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
