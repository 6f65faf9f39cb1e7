import { ADMIN_LIST_DEFAULT_LIMIT } from '@paygate/contract';
import { NotFoundError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import {
  listWebhookEndpointsOfTenant,
  listWebhookEndpoints as readPage,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';
import { type Page, type PageRequest, pageStart, toPage } from '../pagination.ts';

/** A merchant's webhook endpoints, newest first (shown without secrets by the route). */
export async function listWebhookEndpoints(
  ctx: AppContext,
  merchantId: string,
  request: PageRequest,
): Promise<Page<WebhookEndpointRecord>> {
  const limit = request.limit ?? ADMIN_LIST_DEFAULT_LIMIT;
  const after = pageStart(request, 'we');
  if (!(await findMerchant(ctx.db, merchantId))) throw new NotFoundError('merchant', merchantId);
  const items = await readPage(ctx.db, merchantId, { limit, after });
  return toPage(
    items.map((item) => ({ id: item.endpoint.id, position: item.position, endpoint: item.endpoint })),
    limit,
    (item) => item.endpoint,
  );
}

/** A merchant's endpoints in one mode (the dashboard's webhooks page). */
export async function listTenantWebhookEndpoints(
  ctx: AppContext,
  scope: TenantScope,
): Promise<WebhookEndpointRecord[]> {
  return listWebhookEndpointsOfTenant(ctx.db, scope);
}
