import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import {
  type DeliveryStatus,
  findDelivery,
  searchDeliveries,
} from '../../storage/repositories/webhook-deliveries.ts';
import {
  findWebhookEndpoint,
  listWebhookEndpointsOfTenant,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';
import { type DeliveryWithAttempts, withAttempts } from './endpoints.ts';

// The dashboard reaches the operator's webhook use cases (webhook-endpoints.ts and its siblings)
// through these checks: an endpoint or delivery of another merchant, or of the other mode, is not
// found, exactly like an unknown id. What happens after the check is the operator's use case.

/** The endpoint `id` if it belongs to `scope`; else 404 as for an unknown id. */
export async function tenantEndpoint(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
): Promise<WebhookEndpointRecord> {
  const endpoint = await findWebhookEndpoint(ctx.db, id);
  if (!endpoint || endpoint.merchantId !== scope.merchantId || endpoint.livemode !== scope.livemode) {
    throw new NotFoundError('webhook endpoint', id);
  }
  return endpoint;
}

/** The delivery `id` with its attempts if its endpoint belongs to `scope`; else 404. */
export async function tenantDelivery(
  ctx: AppContext,
  scope: TenantScope,
  id: string,
): Promise<DeliveryWithAttempts> {
  const delivery = await findDelivery(ctx.db, id);
  const endpoint = delivery ? await findWebhookEndpoint(ctx.db, delivery.endpointId) : null;
  if (
    !delivery ||
    !endpoint ||
    endpoint.merchantId !== scope.merchantId ||
    endpoint.livemode !== scope.livemode
  ) {
    throw new NotFoundError('webhook delivery', id);
  }
  const [found] = await withAttempts(ctx, [delivery]);
  if (!found) throw new NotFoundError('webhook delivery', id);
  return found;
}

/** The signing secret that signs now, opened from its sealed form (the caller audits the reveal). */
export async function revealWebhookSecret(ctx: AppContext, scope: TenantScope, id: string): Promise<string> {
  const endpoint = await tenantEndpoint(ctx, scope, id);
  return ctx.secretBox.decrypt(endpoint.secretSealed, endpoint.id);
}

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

/**
 * Endpoints the back office warns about on every page: failing ones, and those the failure rule
 * disabled (a disabled endpoint that still has a failure history; one disabled by hand while it
 * worked has none).
 */
export async function endpointsNeedingAttention(
  ctx: AppContext,
  scope: TenantScope,
): Promise<WebhookEndpointRecord[]> {
  const endpoints = await listWebhookEndpointsOfTenant(ctx.db, scope);
  return endpoints.filter(
    (e) => e.status === 'failing' || (e.status === 'disabled' && e.failingSince !== null),
  );
}
