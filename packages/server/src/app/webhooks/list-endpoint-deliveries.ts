import { NotFoundError } from '../../domain/errors.ts';
import { listDeliveries } from '../../storage/repositories/webhook-deliveries.ts';
import { findWebhookEndpoint } from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';
import { type DeliveryWithAttempts, withAttempts } from './delivery-attempts.ts';

/** An endpoint's deliveries, newest first, each with its attempts in order. */
export async function listEndpointDeliveries(
  ctx: AppContext,
  endpointId: string,
  limit: number,
): Promise<DeliveryWithAttempts[]> {
  if (!(await findWebhookEndpoint(ctx.db, endpointId)))
    throw new NotFoundError('webhook endpoint', endpointId);
  return withAttempts(ctx, await listDeliveries(ctx.db, endpointId, limit));
}
