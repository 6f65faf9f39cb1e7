import { findOperationByGatewayKey } from '../../storage/repositories/authorization-operations.ts';
import type { NotificationHandler } from '../gateways/notification-handler.ts';
import { applyAuthorizationOutcome } from './authorization-operations.ts';

/**
 * A gateway's word on a capture or a void Paygate sent (Adyen's CAPTURE and CANCELLATION): the
 * operation it names by our gateway key is settled as its answer would have settled it, in the
 * transaction that records the notification. One already settled changes nothing.
 */
export const applyAuthorizationNotification: NotificationHandler<'authorization'> = async (
  ctx,
  tx,
  gatewayId,
  notification,
) => {
  const operation = await findOperationByGatewayKey(tx, gatewayId, notification.idempotencyKey);
  if (!operation) {
    return `gateway ${gatewayId} notified about unknown capture or void ${notification.idempotencyKey}`;
  }
  const outcome =
    notification.outcome.kind === 'unavailable'
      ? { kind: 'pending' as const, gatewayReference: null }
      : notification.outcome;
  await applyAuthorizationOutcome(ctx, tx, operation, outcome, 'repair');
  return null;
};
