import { AppError, NotFoundError } from '../../domain/errors.ts';
import { randomBase62 } from '../../domain/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  claimDeliveryById,
  findDelivery,
  listAttempts,
} from '../../storage/repositories/webhook-deliveries.ts';
import { attemptDelivery, silentLogger, type WorkerLogger } from '../../webhooks/delivery-worker.ts';
import { createWebhookSender, type SenderOptions, type WebhookSender } from '../../webhooks/sender.ts';
import type { AppContext } from '../context.ts';
import type { DeliveryWithAttempts } from './delivery-attempts.ts';

/** A manual attempt holds its delivery this long; longer than any attempt can take. */
const MANUAL_LEASE_MS = 60_000;

/** The sender of manual retries (the operator's and the dashboard's). */
export type RetrySender = WebhookSender;

/**
 * One per HTTP process, made by its composition root (http/app.ts) and closed with it: the
 * operator's and the dashboard's retries are attempted from the process that was asked, with the
 * same address guard as the delivery worker's.
 */
export function createRetrySender(ctx: AppContext, options: SenderOptions = {}): RetrySender {
  return createWebhookSender({ testAllowsLoopback: ctx.testWebhooksAllowLoopback, ...options });
}

/**
 * Makes one attempt of a delivery now, whatever its state (a FAILED one too), and returns the
 * delivery after it. The attempt uses no schedule slot: a success makes the delivery DELIVERED, a
 * failure leaves its state and schedule as they were. `audit` is written in the transaction that
 * claims the delivery (the attempt itself is sent outside any transaction).
 */
export async function retryDelivery(
  ctx: AppContext,
  sender: RetrySender,
  id: string,
  logger: WorkerLogger = silentLogger,
  audit?: (tx: Queryable) => Promise<void>,
): Promise<DeliveryWithAttempts> {
  const token = randomBase62(20);
  const now = ctx.clock.now();
  const claimed = await ctx.db.transaction(async (tx) => {
    const claim = await claimDeliveryById(tx, {
      id,
      now,
      leaseUntil: new Date(now.getTime() + MANUAL_LEASE_MS),
      claimToken: token,
    });
    if (claim !== null && claim !== 'busy') await audit?.(tx);
    return claim;
  });
  if (claimed === null) throw new NotFoundError('webhook delivery', id);
  if (claimed === 'busy') {
    throw new AppError(
      'invalid_state_transition',
      'An attempt of this delivery is in progress; retry it once that attempt is recorded.',
    );
  }
  await attemptDelivery(ctx, sender, claimed, token, { manual: true, logger });
  const delivery = await findDelivery(ctx.db, id);
  if (!delivery) throw new NotFoundError('webhook delivery', id);
  const attempts = await listAttempts(ctx.db, [id]);
  return { delivery, attempts: attempts.get(id) ?? [] };
}
