import { AuthenticationError, NotFoundError } from '../../domain/errors.ts';
import { hasIdShape } from '../../domain/ids.ts';
import {
  type GatewayConnector,
  type GatewayNotification,
  type GatewayNotificationBatch,
  GatewayNotificationError,
} from '../../gateways/connector.ts';
import type { Queryable } from '../../storage/db.ts';
import {
  findAttemptByGatewayReference,
  findAttemptByKey,
} from '../../storage/repositories/charge-attempts.ts';
import { findDisputedCharge } from '../../storage/repositories/disputes.ts';
import {
  findAccountForGateway,
  findGatewayAccountById,
  type GatewayAccountRecord,
} from '../../storage/repositories/gateway-accounts.ts';
import { recordGatewayNotification } from '../../storage/repositories/gateway-notifications.ts';
import { findPaymentIntentById } from '../../storage/repositories/payment-intents.ts';
import { applyAuthorizationNotification } from '../captures/authorization-notification.ts';
import type { AppContext } from '../context.ts';
import { applyDisputeNotification } from '../disputes/apply-dispute-notification.ts';
import { applyChargeOutcome } from '../payments/charge-outcomes.ts';
import { applyRefundNotification } from '../refunds/refund-outcome.ts';
import { applyCaptureReversal } from './capture-reversals.ts';
import type { NotificationHandler, NotificationHandlers, NotificationOf } from './notification-handler.ts';

/** A charge's new state (the payer's decision on a challenge page, or a pending charge settled). */
const applyChargeNotification: NotificationHandler<'charge'> = async (ctx, tx, gatewayId, notification) => {
  const key = notification.idempotencyKey;
  const found = key ? await findAttemptByKey(tx, gatewayId, key) : null;
  if (!key || !found)
    return `gateway ${gatewayId} notified about unknown charge ${key ?? '(no reference of ours)'}`;
  // Lock order: the intent, then its attempt (as every writer of both).
  const intent = await findPaymentIntentById(tx, found.paymentIntentId, { forUpdate: true });
  const attempt = await findAttemptByKey(tx, gatewayId, key, { forUpdate: true });
  if (!intent || !attempt) return `charge ${key} lost its intent`;
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
  capture_reversal: applyCaptureReversal,
  dispute: applyDisputeNotification,
  authorization: applyAuthorizationNotification,
};

interface NotificationSource {
  connector: GatewayConnector;
  /** The gateway_id of the charges and refunds it reports about. */
  gatewayId: string;
  /** What received notifications are recorded under, for deduplication. */
  receivedAs: string;
  /** For a merchant's account: only that merchant's payments in that mode may be reported about. */
  owner: GatewayAccountRecord | null;
}

/**
 * Who a notification address names: a merchant's gateway account (`/gateway-notifications/gwa_...`,
 * verified with that account's secret) or a gateway of the process by its gateway_id.
 */
async function notificationSource(ctx: AppContext, addressedTo: string): Promise<NotificationSource> {
  if (hasIdShape(addressedTo, 'gwa')) {
    const account = await findGatewayAccountById(ctx.db, addressedTo);
    if (!account) throw new NotFoundError('gateway account', addressedTo);
    return {
      connector: ctx.gatewayAccounts.connectorOf(account),
      gatewayId: account.gatewayId,
      receivedAs: account.id,
      owner: account,
    };
  }
  const connector = ctx.gateways.get(addressedTo);
  if (!connector) throw new NotFoundError('gateway', addressedTo);
  return { connector, gatewayId: addressedTo, receivedAs: addressedTo, owner: null };
}

/**
 * Whether the payment a notification names was made through the account it came from. Every key
 * Paygate sends a gateway starts with the payment intent's id (`pi_...:attempt:1`). A merchant's
 * account moves only that merchant's payments of its mode and gateway_id; the process's gateway
 * of an id (the operator default, the simulator) only payments of merchants without an account of
 * their own of that id in that mode, which are the payments made through it (`connectorFor`).
 */
async function madeThrough(
  tx: Queryable,
  source: NotificationSource,
  idempotencyKey: string,
): Promise<boolean> {
  const intentId = idempotencyKey.split(':')[0] ?? '';
  const intent = await findPaymentIntentById(tx, intentId);
  if (!intent || intent.gatewayId !== source.gatewayId) return false;
  const { owner } = source;
  if (owner) return intent.merchantId === owner.merchantId && intent.livemode === owner.livemode;
  const own = await findAccountForGateway(tx, {
    merchantId: intent.merchantId,
    livemode: intent.livemode,
    gatewayId: intent.gatewayId,
  });
  return own === null;
}

/**
 * The charge a payment notification (or a reversed capture) is about: the attempt the gateway's
 * own reference names (Stripe's PaymentIntent id, Adyen's pspReference; for a reversal Adyen's
 * originalReference), which Paygate stored from the gateway's answer. Our key in the notification
 * (Adyen's merchantReference, Stripe's metadata) only cross-checks it: one that names another
 * charge is a contradiction, refused and logged, never applied (docs/decisions/payments.md, "Which
 * charge a notification is about"). A reference Paygate has not stored yet (the answer never
 * reached it) leaves our key to find the charge; with neither, the charge is unknown.
 */
async function chargeNamedBy(
  tx: Queryable,
  gatewayId: string,
  notification: NotificationOf<'charge'> | NotificationOf<'capture_reversal'>,
): Promise<{ key: string; contradiction: string | null }> {
  const { outcome, idempotencyKey } = notification;
  const reference =
    'chargeReference' in outcome
      ? outcome.chargeReference
      : 'gatewayReference' in outcome
        ? outcome.gatewayReference
        : null;
  const named = reference ? await findAttemptByGatewayReference(tx, gatewayId, reference) : null;
  if (!named)
    return {
      key: idempotencyKey ?? `charge:${reference ?? notification.notificationId}`,
      contradiction: null,
    };
  const what =
    notification.subject === 'charge' ? 'notified about its charge' : 'reversed the capture of its charge';
  const contradiction =
    idempotencyKey && idempotencyKey !== named.idempotencyKey
      ? `gateway ${gatewayId} ${what} ${reference} (our ${named.idempotencyKey}) ` +
        `with our reference ${idempotencyKey}: the references contradict each other, not applied`
      : null;
  return { key: named.idempotencyKey, contradiction };
}

/**
 * The key of the charge a notification is about. A dispute may name its charge only by the
 * gateway's reference (Stripe); its charge's key is looked up, and one Paygate does not know
 * stays unknown (its own reference stands in, which no payment of Paygate's starts with).
 */
async function chargeKeyOf(
  tx: Queryable,
  gatewayId: string,
  notification: GatewayNotification,
): Promise<{ key: string; contradiction: string | null }> {
  if (notification.subject === 'charge' || notification.subject === 'capture_reversal')
    return chargeNamedBy(tx, gatewayId, notification);
  if (notification.subject !== 'dispute') return { key: notification.idempotencyKey, contradiction: null };
  const charge = await findDisputedCharge(tx, gatewayId, {
    idempotencyKey: notification.idempotencyKey,
    chargeReference: notification.outcome.chargeReference,
  });
  const key =
    charge?.idempotencyKey ??
    notification.idempotencyKey ??
    `dispute:${notification.outcome.disputeReference}`;
  return { key, contradiction: null };
}

/** A payment or reversal notification carries the key of the charge its gateway reference names. */
function withKey(notification: GatewayNotification, key: string): GatewayNotification {
  return notification.subject === 'charge' || notification.subject === 'capture_reversal'
    ? { ...notification, idempotencyKey: key }
    : notification;
}

function dispatch(
  ctx: AppContext,
  tx: Queryable,
  handlers: NotificationHandlers,
  gatewayId: string,
  notification: GatewayNotification,
): Promise<string | null> {
  switch (notification.subject) {
    case 'charge':
      return handlers.charge(ctx, tx, gatewayId, notification);
    case 'refund':
      return handlers.refund(ctx, tx, gatewayId, notification);
    case 'capture_reversal':
      return handlers.capture_reversal(ctx, tx, gatewayId, notification);
    case 'dispute':
      return handlers.dispute(ctx, tx, gatewayId, notification);
    case 'authorization':
      return handlers.authorization(ctx, tx, gatewayId, notification);
  }
}

/**
 * Verifies a gateway's notification request on its exact bytes and applies each item once: the
 * rows that mark them received and the changes they make commit together, so a batch is applied
 * whole or not at all (the gateway then sends it again). A bad signature is
 * `invalid_webhook_signature`. Returns the acknowledgement the gateway expects, if any.
 */
export async function receiveGatewayNotification(
  ctx: AppContext,
  addressedTo: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  handlers: NotificationHandlers = notificationHandlers,
): Promise<{
  duplicate: boolean;
  warning: string | null;
  acknowledgement: GatewayNotificationBatch['acknowledgement'];
}> {
  const source = await notificationSource(ctx, addressedTo);
  const { connector, gatewayId, owner } = source;
  let batch: GatewayNotificationBatch;
  try {
    batch = connector.parseNotifications(rawBody, headers);
  } catch (error) {
    if (!(error instanceof GatewayNotificationError)) throw error;
    throw new AuthenticationError(
      'invalid_webhook_signature',
      `The notification could not be verified: ${error.message}.`,
    );
  }
  const applied = await ctx.db.transaction(async (tx) => {
    const warnings: string[] = [];
    let fresh = 0;
    for (const notification of batch.items) {
      const { key: idempotencyKey, contradiction } = await chargeKeyOf(tx, gatewayId, notification);
      const first = await recordGatewayNotification(
        tx,
        {
          gatewayId: source.receivedAs,
          notificationId: notification.notificationId,
          subject: notification.subject,
          idempotencyKey,
        },
        ctx.clock.now(),
      );
      if (!first) continue;
      fresh += 1;
      if (!(await madeThrough(tx, source, idempotencyKey))) {
        warnings.push(
          `${owner ? 'gateway account' : 'gateway'} ${addressedTo} notified about ${idempotencyKey}, ` +
            'a payment not made through it: ignored',
        );
        continue;
      }
      if (contradiction) {
        warnings.push(contradiction);
        continue;
      }
      const warning = await dispatch(ctx, tx, handlers, gatewayId, withKey(notification, idempotencyKey));
      if (warning) warnings.push(warning);
    }
    return { duplicate: fresh === 0, warning: warnings.length > 0 ? warnings.join('; ') : null };
  });
  return { ...applied, acknowledgement: batch.acknowledgement };
}
