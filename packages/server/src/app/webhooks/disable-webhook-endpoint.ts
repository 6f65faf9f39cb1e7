import { NotFoundError } from '../../domain/errors.ts';
import {
  findWebhookEndpoint,
  setWebhookEndpointStatus,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';

/**
 * The operator turns an endpoint off (the "delete" of the back office: its history stays
 * readable). No new event is queued for it while it is disabled; `enable` turns it back on.
 */
export async function disableWebhookEndpoint(
  ctx: AppContext,
  endpointId: string,
): Promise<WebhookEndpointRecord> {
  return ctx.db.transaction(async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, endpointId, { forUpdate: true });
    if (!endpoint) throw new NotFoundError('webhook endpoint', endpointId);
    const now = ctx.clock.now();
    await setWebhookEndpointStatus(tx, endpointId, 'disabled', now);
    return { ...endpoint, status: 'disabled' as const, updatedAt: now };
  });
}
