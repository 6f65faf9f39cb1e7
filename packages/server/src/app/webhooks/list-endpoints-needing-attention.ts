import type { TenantScope } from '../../domain/tenant.ts';
import {
  listWebhookEndpointsOfTenant,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';

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
