import { NotFoundError } from '../../domain/errors.ts';
import {
  enableWebhookEndpoint,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';

/** Turns a failing or disabled endpoint back on, with a clean failure history. */
export async function enableEndpoint(ctx: AppContext, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await enableWebhookEndpoint(ctx.db, id, ctx.clock.now());
  if (!endpoint) throw new NotFoundError('webhook endpoint', id);
  return endpoint;
}
