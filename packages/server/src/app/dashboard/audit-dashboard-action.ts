import type { Queryable } from '../../storage/db.ts';
import type { AppContext } from '../context.ts';
import { recordAudit } from './audit.ts';

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
 * Records an action right after the use case that did it committed, for the use cases that open
 * their own transactions (the operator's webhook endpoint actions).
 */
export async function recordDashboardAction(
  ctx: AppContext,
  actor: DashboardActor,
  action: string,
  target: string,
): Promise<void> {
  await auditDashboardAction(ctx, actor, action)(ctx.db, target);
}
