import type { TenantScope } from '../../domain/tenant.ts';
import { type DeliveryStatus, searchDeliveries } from '../../storage/repositories/webhook-deliveries.ts';
import type { AppContext } from '../context.ts';
import { type DeliveryWithAttempts, withAttempts } from './delivery-attempts.ts';

export interface DeliveryLogFilter {
  endpointId?: string | undefined;
  eventId?: string | undefined;
  eventType?: string | undefined;
  status?: DeliveryStatus | undefined;
  limit?: number | undefined;
}

export const DELIVERY_LOG_DEFAULT_LIMIT = 50;

/** The delivery log of one merchant and mode, newest first, each delivery with its attempts. */
export async function searchDeliveryLog(
  ctx: AppContext,
  scope: TenantScope,
  filter: DeliveryLogFilter,
): Promise<DeliveryWithAttempts[]> {
  const deliveries = await searchDeliveries(ctx.db, {
    ...scope,
    endpointId: filter.endpointId,
    eventId: filter.eventId,
    eventType: filter.eventType,
    status: filter.status,
    limit: filter.limit ?? DELIVERY_LOG_DEFAULT_LIMIT,
  });
  return withAttempts(ctx, deliveries);
}
