import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { wakeDeliveryWorkers } from '../../storage/repositories/events.ts';
import { queueFailedForResend } from '../../storage/repositories/webhook-deliveries.ts';
import { findWebhookEndpoint } from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';

/**
 * Queues one manual attempt for every FAILED delivery of an endpoint created at or after `since`,
 * and wakes the workers. Returns how many were queued.
 */
export async function resendFailedDeliveries(
  ctx: AppContext,
  endpointId: string,
  sinceIso: string,
): Promise<number> {
  const since = new Date(sinceIso);
  if (Number.isNaN(since.getTime())) throw new ValidationError('since', 'must be an ISO 8601 instant');
  return ctx.db.transaction(async (tx) => {
    if (!(await findWebhookEndpoint(tx, endpointId))) throw new NotFoundError('webhook endpoint', endpointId);
    const queued = await queueFailedForResend(tx, { endpointId, since, now: ctx.clock.now() });
    if (queued > 0) wakeDeliveryWorkers(tx);
    return queued;
  });
}
