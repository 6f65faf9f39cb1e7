import { NotFoundError } from '../../domain/errors.ts';
import {
  findWebhookEndpoint,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';

/** One endpoint as the operator sees it. */
export async function retrieveWebhookEndpoint(ctx: AppContext, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await findWebhookEndpoint(ctx.db, id);
  if (!endpoint) throw new NotFoundError('webhook endpoint', id);
  return endpoint;
}
