import { NotFoundError } from '../../domain/errors.ts';
import { buildEvent, type EventType } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import { insertTestEventForEndpoint } from '../../storage/repositories/test-events.ts';
import { findWebhookEndpoint } from '../../storage/repositories/webhook-endpoints.ts';
import type { AppContext } from '../context.ts';
import { sampleObject, TEST_EVENT_METADATA } from '../resources/test-event-samples.ts';

export { TEST_EVENT_METADATA };

/**
 * Sends a sample event of `type` to one endpoint (in the endpoint's mode), whatever event types
 * it subscribes to: the operator's way to check that a receiver verifies signatures and answers
 * 2xx. The delivery goes through the outbox like any other, so it shows in the endpoint's list.
 */
export async function sendTestWebhookEvent(
  ctx: AppContext,
  endpointId: string,
  type: EventType,
): Promise<{ eventId: string; deliveryId: string }> {
  return ctx.db.transaction(async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, endpointId);
    if (!endpoint) throw new NotFoundError('webhook endpoint', endpointId);
    const now = ctx.clock.now();
    const object = sampleObject(type, endpoint.livemode, now);
    const event = buildEvent(type, object, endpoint.livemode, now);
    const deliveryId = newId('wd');
    await insertTestEventForEndpoint(tx, {
      merchantId: endpoint.merchantId,
      endpointId,
      deliveryId,
      objectId: String(object.id),
      event,
      now,
    });
    return { eventId: event.envelope.id, deliveryId };
  });
}
