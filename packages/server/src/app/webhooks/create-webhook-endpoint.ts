import { NotFoundError } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { findMerchant } from '../../storage/repositories/merchants.ts';
import {
  insertWebhookEndpoint,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import { generateWebhookSecret } from '../../webhooks/signing.ts';
import { assertPublicResolution, type LookupAll, validateEndpointUrl } from '../../webhooks/url-guard.ts';
import type { AppContext } from '../context.ts';
import { normaliseEnabledEvents } from './enabled-events.ts';

/**
 * Registers an endpoint with a fresh `whsec_` secret, sealed at rest. The URL rules of CONTRACT.md
 * apply, and in live mode every address the host resolves to must be public.
 */
export async function createWebhookEndpoint(
  ctx: AppContext,
  merchantId: string,
  input: { url: string; livemode: boolean; enabledEvents?: readonly string[] },
  options: { lookup?: LookupAll } = {},
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const parsed = validateEndpointUrl(input.url, input.livemode, ctx.testWebhooksAllowLoopback);
  const enabledEvents = normaliseEnabledEvents(input.enabledEvents);
  await assertPublicResolution(
    parsed.hostname,
    input.livemode,
    options.lookup,
    ctx.testWebhooksAllowLoopback,
  );
  const id = newId('we');
  const secret = generateWebhookSecret();
  const now = ctx.clock.now();
  const endpoint: WebhookEndpointRecord = {
    id,
    merchantId,
    livemode: input.livemode,
    url: parsed.href,
    enabledEvents,
    secretSealed: ctx.secretBox.encrypt(secret, id),
    previousSecretSealed: null,
    rotationStartedAt: null,
    rotationExpiresAt: null,
    status: 'enabled',
    failingSince: null,
    failedDeliveriesSinceSuccess: 0,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.transaction(async (tx) => {
    if (!(await findMerchant(tx, merchantId))) throw new NotFoundError('merchant', merchantId);
    await insertWebhookEndpoint(tx, endpoint);
  });
  return { endpoint, secret };
}
