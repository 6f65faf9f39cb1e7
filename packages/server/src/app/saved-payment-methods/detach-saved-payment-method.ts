// Detaching a saved payment method: at once in Paygate (it can never be charged through Paygate
// again, saved_payment_method.detached), then at the gateway, outside any transaction; a gateway
// that does not confirm it (5xx, time-out, a crash in between) is asked again by the repair job
// until it does, so that no method stays chargeable at the gateway after Paygate said detached.

import { NotFoundError } from '../../domain/errors.ts';
import { backoffDelayMs } from '../../domain/retry-schedules.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { DetachOutcome } from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  detachMethodsOfCustomer,
  detachSavedPaymentMethod as detachRow,
  dueGatewayDetaches,
  findSavedPaymentMethod,
  recordGatewayDetach,
  type SavedPaymentMethodRecord,
} from '../../storage/repositories/saved-payment-methods.ts';
import type { AppContext } from '../context.ts';
import { connectorFor, gatewayKeyOf } from '../gateways/connectors.ts';
import { recordSavedMethodEvent } from './save-method-of-payment.ts';

/** The repair job's pause after a detach the gateway did not confirm: 30 s, doubling, at most 1 h. */
const DETACH_BACKOFF = { firstMs: 30_000, maxMs: 3_600_000 };

/**
 * `POST /v1/saved-payment-methods/{id}/detach`: the method detached, with its event, and removed
 * at the gateway. Repeating it answers the detached method again and changes nothing.
 */
export async function detachSavedPaymentMethod(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
): Promise<SavedPaymentMethodRecord> {
  const now = ctx.clock.now();
  const detached = await ctx.db.transaction(async (tx) => {
    const method = await detachRow(tx, scope, id, now);
    if (method) await recordSavedMethodEvent(tx, 'saved_payment_method.detached', method, now);
    return method;
  });
  if (!detached) {
    const method = await findSavedPaymentMethod(ctx.db, scope, id);
    if (!method) throw new NotFoundError('saved payment method', id);
    return method;
  }
  await detachAtGatewayAfterCommit(ctx, detached);
  return detached;
}

/**
 * Detaches every active method of a customer being deleted, in the deletion's transaction (each
 * with its event); the caller then removes them at the gateway (`detachAllAtGateway`).
 */
export async function detachMethodsOfDeletedCustomer(
  tx: Queryable,
  scope: TenantScope,
  customerId: string,
  now: Date,
): Promise<SavedPaymentMethodRecord[]> {
  const detached = await detachMethodsOfCustomer(tx, scope, customerId, now);
  for (const method of detached)
    await recordSavedMethodEvent(tx, 'saved_payment_method.detached', method, now);
  return detached;
}

/** Removes detached methods at their gateway, one after the other (the repair job takes up failures). */
export async function detachAllAtGateway(
  ctx: AppContext,
  methods: SavedPaymentMethodRecord[],
): Promise<void> {
  for (const method of methods) await detachAtGatewayAfterCommit(ctx, method);
}

/**
 * The first try at the gateway, after the detach committed: whatever goes wrong here (the database
 * lost while recording the answer) leaves the removal `pending` and due, for the repair job, so
 * the merchant's answer is still the committed detach, never a 500 for something already done.
 */
async function detachAtGatewayAfterCommit(ctx: AppContext, method: SavedPaymentMethodRecord): Promise<void> {
  try {
    await detachAtGateway(ctx, method, 0);
  } catch (error) {
    ctx.log.warn(
      { savedPaymentMethod: method.id, gateway: method.gatewayId, error: String(error) },
      'the gateway detach is left to the repair job',
    );
  }
}

/**
 * One try at the gateway: confirmed, or asked again after the back-off. A connector that throws
 * has given no answer, which is asked again like a 5xx.
 */
async function detachAtGateway(
  ctx: AppContext,
  method: SavedPaymentMethodRecord,
  tries: number,
): Promise<void> {
  const connector = await connectorFor(ctx, gatewayKeyOf(method), { forNewPayment: false });
  let outcome: DetachOutcome;
  if (!connector?.detachPaymentMethod) {
    outcome = {
      kind: 'indeterminate',
      detail: `gateway ${method.gatewayId} cannot detach payment methods now`,
    };
  } else {
    outcome = await connector
      .detachPaymentMethod({ reference: method.gatewayReference, livemode: method.livemode })
      .catch((error: unknown) => ({ kind: 'indeterminate', detail: String(error) }) as const);
  }
  if (outcome.kind === 'detached') {
    await recordGatewayDetach(ctx.db, method.id, null);
    return;
  }
  const pause = Math.max(
    backoffDelayMs(DETACH_BACKOFF, tries),
    outcome.kind === 'unavailable' ? outcome.retryAfterSeconds * 1000 : 0,
  );
  await recordGatewayDetach(ctx.db, method.id, new Date(ctx.clock.now().getTime() + pause));
}

/** The repair job: detaches the gateway has not confirmed, due now, asked again. */
export async function repairGatewayDetaches(ctx: AppContext, limit = 50): Promise<number> {
  const due = await dueGatewayDetaches(ctx.db, ctx.clock.now(), limit);
  for (const { method, tries } of due) await detachAtGateway(ctx, method, tries);
  return due.length;
}
