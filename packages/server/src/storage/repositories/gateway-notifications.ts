import type { Queryable } from '../db.ts';

/**
 * Records a gateway notification as applied, in the caller's transaction. False means it was
 * already recorded (a redelivery): the caller changes nothing. Two concurrent deliveries of one
 * notification meet at the primary key; the second waits for the first and then sees its row.
 */
export async function recordGatewayNotification(
  q: Queryable,
  notification: { gatewayId: string; notificationId: string; subject: string; idempotencyKey: string },
  receivedAt: Date,
): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO gateway_notifications (gateway_id, notification_id, subject, idempotency_key, received_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (gateway_id, notification_id) DO NOTHING
     RETURNING notification_id`,
    [
      notification.gatewayId,
      notification.notificationId,
      notification.subject,
      notification.idempotencyKey,
      receivedAt,
    ],
  );
  return rows.length === 1;
}
