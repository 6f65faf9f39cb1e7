import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import type { Queryable } from '../../storage/db.ts';
import { findDelivery } from '../../storage/repositories/webhook-deliveries.ts';
import {
  findWebhookEndpoint,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';
import { type DeliveryWithAttempts, withAttempts } from './delivery-attempts.ts';

// Finding an endpoint or a delivery for a use case. The dashboard reaches the operator's webhook
// use cases through the tenant checks: an endpoint or delivery of another merchant, or of the
// other mode, is not found, exactly like an unknown id. What happens after the check is the
// operator's use case.

/** The endpoint `id` locked for the caller's transaction; 404 for an unknown id. */
export async function lockedEndpoint(tx: Queryable, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await findWebhookEndpoint(tx, id, { forUpdate: true });
  if (!endpoint) throw new NotFoundError('webhook endpoint', id);
  return endpoint;
}

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
