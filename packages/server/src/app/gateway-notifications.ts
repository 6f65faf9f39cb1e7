import { AuthenticationError, NotFoundError } from '../domain/errors.ts';
import { type GatewayNotification, GatewayNotificationError } from '../gateways/connector.ts';
import { findAttemptByKey } from '../storage/repositories/charge-attempts.ts';
import { recordGatewayNotification } from '../storage/repositories/gateway-notifications.ts';
import { findPaymentIntentById } from '../storage/repositories/payment-intents.ts';
import { applyChargeOutcome } from './charge-outcomes.ts';
import type { AppContext } from './context.ts';
import type { NotificationHandler, NotificationHandlers } from './notification-handler.ts';
import { applyRefundNotification } from './refund-outcome.ts';

/** A charge's new state (the payer's decision on a challenge page, or a pending charge settled). */
const applyChargeNotification: NotificationHandler<'charge'> = async (ctx, tx, gatewayId, notification) => {
  const found = await findAttemptByKey(tx, gatewayId, notification.idempotencyKey);
  if (!found) return `gateway ${gatewayId} notified about unknown charge ${notification.idempotencyKey}`;
  // Lock order: the intent, then its attempt (as every writer of both).
  const intent = await findPaymentIntentById(tx, found.paymentIntentId, { forUpdate: true });
  const attempt = await findAttemptByKey(tx, gatewayId, notification.idempotencyKey, { forUpdate: true });
  if (!intent || !attempt) return `charge ${notification.idempotencyKey} lost its intent`;
  const applied = await applyChargeOutcome(
    tx,
    intent,
    attempt,
    notification.outcome,
    'notification',
    ctx.clock.now(),
  );
  return applied.warning;
};

/** The dispatch point by subject; the refund handler finds its refund by `notification.idempotencyKey`. */
export const notificationHandlers: NotificationHandlers = {
  charge: applyChargeNotification,
  refund: applyRefundNotification,
};

/**
 * Verifies a gateway's notification on its exact bytes and applies it once: the row that marks it
 * received and the change it makes commit together. A bad signature is `invalid_webhook_signature`.
 */
export async function receiveGatewayNotification(
  ctx: AppContext,
  gatewayId: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  handlers: NotificationHandlers = notificationHandlers,
): Promise<{ duplicate: boolean; warning: string | null }> {
  const connector = ctx.gateways.get(gatewayId);
  if (!connector) throw new NotFoundError('gateway', gatewayId);
  let notification: GatewayNotification;
  try {
    notification = connector.parseNotification(rawBody, headers);
  } catch (error) {
    if (!(error instanceof GatewayNotificationError)) throw error;
    throw new AuthenticationError(
      'invalid_webhook_signature',
      `The notification could not be verified: ${error.message}.`,
    );
  }
  return ctx.db.transaction(async (tx) => {
    const first = await recordGatewayNotification(
      tx,
      {
        gatewayId,
        notificationId: notification.notificationId,
        subject: notification.subject,
        idempotencyKey: notification.idempotencyKey,
      },
      ctx.clock.now(),
    );
    if (!first) return { duplicate: true, warning: null };
    const warning =
      notification.subject === 'charge'
        ? await handlers.charge(ctx, tx, gatewayId, notification)
        : await handlers.refund(ctx, tx, gatewayId, notification);
    return { duplicate: false, warning };
  });
}
