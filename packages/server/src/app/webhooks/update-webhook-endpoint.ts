import { NotFoundError } from '../../domain/errors.ts';
import {
  findWebhookEndpoint,
  updateWebhookEndpointTarget,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import { assertPublicResolution, type LookupAll, validateEndpointUrl } from '../../webhooks/url-guard.ts';
import type { AppContext } from '../context.ts';
import { normaliseEnabledEvents } from './enabled-events.ts';

/**
 * Changes an endpoint's URL and/or enabled events under the same rules as its creation (the
 * endpoint's mode decides which URLs are allowed). Deliveries already queued go to the new URL
 * at their next attempt; events already filtered out are not sent afterwards.
 */
export async function updateWebhookEndpoint(
  ctx: AppContext,
  endpointId: string,
  input: { url?: string | undefined; enabledEvents?: readonly string[] | undefined },
  options: { lookup?: LookupAll } = {},
): Promise<WebhookEndpointRecord> {
  const current = await findWebhookEndpoint(ctx.db, endpointId);
  if (!current) throw new NotFoundError('webhook endpoint', endpointId);
  let url: string | null = null;
  if (input.url !== undefined) {
    const parsed = validateEndpointUrl(input.url, current.livemode);
    await assertPublicResolution(parsed.hostname, current.livemode, options.lookup);
    url = parsed.href;
  }
  const enabledEvents =
    input.enabledEvents === undefined ? null : normaliseEnabledEvents(input.enabledEvents);
  const updated = await updateWebhookEndpointTarget(
    ctx.db,
    endpointId,
    { url, enabledEvents },
    ctx.clock.now(),
  );
  if (!updated) throw new NotFoundError('webhook endpoint', endpointId);
  return updated;
}
