import {
  updateWebhookEndpointSecrets,
  type WebhookEndpointRecord,
} from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';
import { lockedEndpoint } from './endpoint-lookups.ts';

/** Closes a rotation: the previous secret is dropped and one `v1` is sent again. Idempotent. */
export async function closeWebhookRotation(ctx: AppContext, id: string): Promise<WebhookEndpointRecord> {
  return ctx.db.transaction(async (tx) => {
    const endpoint = await lockedEndpoint(tx, id);
    if (endpoint.previousSecretSealed === null) return endpoint;
    return updateWebhookEndpointSecrets(tx, id, {
      secretSealed: endpoint.secretSealed,
      previousSecretSealed: null,
      rotationStartedAt: null,
      rotationExpiresAt: null,
      now: ctx.clock.now(),
    });
  });
}
