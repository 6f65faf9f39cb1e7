import type { Queryable } from '../../storage/db.ts';
import { databaseWithin } from '../../storage/within-transaction.ts';
import { recordAudit } from '../back-office-users/audit.ts';
import type { AppContext } from '../context.ts';

/** Who did a dashboard action: the user, their merchant, and the mode when the action has one. */
export interface DashboardActor {
  merchantId: string;
  user: { id: string };
  livemode?: boolean;
}

/**
 * The audit writer of one action of a signed-in user, for a use case that runs it in the
 * transaction of the change it records (so the change and its record commit together).
 */
export function auditDashboardAction(ctx: AppContext, actor: DashboardActor, action: string) {
  return (tx: Queryable, target: string): Promise<void> =>
    recordAudit(tx, ctx.clock.now(), {
      merchantId: actor.merchantId,
      userId: actor.user.id,
      action,
      target,
      ...(actor.livemode === undefined ? {} : { livemode: actor.livemode }),
    });
}

/**
 * Runs `change` (a use case that opens its own transaction: the operator's webhook endpoint
 * actions) inside one transaction with the action's audit line, so that a crash or a refusal
 * leaves both or neither (a line written after the commit was lost by a crash in between). The
 * use case's own transaction becomes a savepoint of it (storage/within-transaction.ts); `change`
 * must do its work through the context it is given. Not for a change that calls out (a webhook
 * sent now): no transaction stays open across a call.
 */
export async function auditedDashboardChange<T>(
  ctx: AppContext,
  actor: DashboardActor,
  action: string,
  change: (ctx: AppContext) => Promise<T>,
  targetOf: (result: T) => string,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const result = await change({ ...ctx, db: databaseWithin(ctx.db, tx) });
    await auditDashboardAction(ctx, actor, action)(tx, targetOf(result));
    return result;
  });
}
