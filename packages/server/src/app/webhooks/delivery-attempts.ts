import {
  listAttempts,
  type WebhookAttemptRecord,
  type WebhookDeliveryRecord,
} from '../../storage/repositories/webhook-deliveries.ts';
import type { AppContext } from '../context.ts';

// A delivery with its attempts: how every list and read of deliveries answers.

export interface DeliveryWithAttempts {
  delivery: WebhookDeliveryRecord;
  attempts: WebhookAttemptRecord[];
}

/** Deliveries, each with its attempts in the order they were made (one query for all). */
export async function withAttempts(
  ctx: AppContext,
  deliveries: WebhookDeliveryRecord[],
): Promise<DeliveryWithAttempts[]> {
  const attempts = await listAttempts(
    ctx.db,
    deliveries.map((d) => d.id),
  );
  return deliveries.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] }));
}
