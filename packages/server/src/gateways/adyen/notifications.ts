import { adyenDeclineReason } from '../../domain/decline-codes.ts';
import type { GatewayAmount } from '../connector.ts';
import {
  type GatewayNotification,
  type GatewayNotificationBatch,
  GatewayNotificationError,
} from '../connector.ts';
import { stringOf } from '../reply-meaning.ts';
import { adyenAmountOf } from './amounts.ts';
import { ADYEN_DISPUTE_EVENT_CODES, adyenDisputeNotification, isDisputeEventCode } from './disputes.ts';
import { type AdyenSignedFields, verifyAdyenHmac } from './hmac.ts';

/** Adyen retries a notification request until it reads exactly this answer. */
export const ADYEN_ACKNOWLEDGEMENT = { contentType: 'text/plain', body: '[accepted]' };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The signed fields as sent; a field of the wrong type is left out, so the signature fails. */
function signedFieldsOf(item: Json): AdyenSignedFields {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const amount = isObject(item.amount) ? item.amount : {};
  return {
    pspReference: text(item.pspReference),
    originalReference: text(item.originalReference),
    merchantAccountCode: text(item.merchantAccountCode),
    merchantReference: text(item.merchantReference),
    amount: {
      value: typeof amount.value === 'number' ? amount.value : undefined,
      currency: text(amount.currency),
    },
    eventCode: text(item.eventCode),
    success: text(item.success),
  };
}

/** The item's amount in ISO minor units (amounts.ts `adyenAmountOf`). */
function amountOf(item: Json): GatewayAmount | undefined {
  return adyenAmountOf(item.amount);
}

function captured(item: Json): { captured?: GatewayAmount } {
  const amount = amountOf(item);
  return amount ? { captured: amount } : {};
}

function refunded(item: Json): { refunded?: GatewayAmount } {
  const amount = amountOf(item);
  return amount ? { refunded: amount } : {};
}

function additionalDataOf(item: Json): Json {
  return isObject(item.additionalData) ? item.additionalData : {};
}

/**
 * Every event code this connector reads, and the list docs/gateways.md tells merchants to enable
 * on their standard webhook (generated from here: gateways/events-docs.ts). An item of any other
 * code is verified and acknowledged, and changes nothing.
 */
export const ADYEN_EVENT_CODES_READ: readonly string[] = [
  'AUTHORISATION',
  'REFUND',
  'REFUND_FAILED',
  'REFUNDED_REVERSED',
  'CAPTURE',
  'CANCELLATION',
  'CAPTURE_FAILED',
  'CANCEL_OR_REFUND',
  'TECHNICAL_CANCEL',
  ...ADYEN_DISPUTE_EVENT_CODES,
];

/** One item as an outcome of ours; null for event codes Paygate does not act on (still verified). */
function notificationOf(item: Json): GatewayNotification | null {
  const pspReference = stringOf(item.pspReference);
  const key = stringOf(item.merchantReference);
  const eventCode = stringOf(item.eventCode);
  if (!pspReference || !eventCode || (item.success !== 'true' && item.success !== 'false')) {
    throw new GatewayNotificationError('notification item lacks pspReference, eventCode or success');
  }
  // A payment is found by its pspReference, a reversed capture by its originalReference; our
  // merchantReference only cross-checks them, so those items may come without one. The items
  // about refunds still need it.
  const requiredKey = (): string => {
    if (key) return key;
    throw new GatewayNotificationError(`${eventCode} notification item lacks merchantReference`);
  };
  if (!ADYEN_EVENT_CODES_READ.includes(eventCode)) return null;
  const success = item.success === 'true';
  // Adyen's own identity of a notification: the same event for the same psp reference.
  const notificationId = `${eventCode}:${pspReference}:${item.success}`;
  const reason = stringOf(item.reason) ?? eventCode;
  if (isDisputeEventCode(eventCode)) return adyenDisputeNotification(item, amountOf(item), notificationId);
  switch (eventCode) {
    case 'AUTHORISATION':
      return {
        notificationId,
        subject: 'charge',
        idempotencyKey: key,
        outcome: success
          ? { kind: 'succeeded', gatewayReference: pspReference, authorizationOnly: true, ...captured(item) }
          : {
              kind: 'failed',
              gatewayReference: pspReference,
              failureCode: 'card_declined',
              // A notification names the refusal by its text; Adyen may add the code in additionalData.
              ...adyenDeclineReason(
                stringOf(additionalDataOf(item).refusalReasonCode),
                stringOf(item.reason),
              ),
              message: reason,
            },
      };
    case 'REFUND':
      return {
        notificationId,
        subject: 'refund',
        idempotencyKey: requiredKey(),
        outcome: success
          ? { kind: 'succeeded', gatewayReference: pspReference, ...refunded(item) }
          : { kind: 'failed', gatewayReference: pspReference, message: reason },
      };
    // The outcome of a capture or a cancel Paygate sent (its reference is the operation's key).
    // CAPTURE with success true is final only until a CAPTURE_FAILED (read below as a reversal).
    case 'CAPTURE':
    case 'CANCELLATION':
      return {
        notificationId,
        subject: 'authorization',
        idempotencyKey: requiredKey(),
        outcome: success
          ? {
              kind: 'succeeded',
              gatewayReference: pspReference,
              ...(eventCode === 'CAPTURE' && amountOf(item) ? { captured: amountOf(item) } : {}),
            }
          : {
              kind: 'failed',
              declineCode: null,
              gatewayCode: null,
              message: `adyen ${eventCode}: ${reason}`,
            },
      };
    case 'REFUND_FAILED':
    case 'REFUNDED_REVERSED':
      return {
        notificationId,
        subject: 'refund',
        idempotencyKey: requiredKey(),
        outcome: { kind: 'failed', gatewayReference: pspReference, message: `adyen ${eventCode}: ${reason}` },
      };
    // The capture of a charge failed at the scheme after Adyen reported it captured, or the payment
    // was cancelled or refunded outside Paygate (which sends neither): the money is not the
    // merchant's. `success=false` means nothing was undone.
    case 'CAPTURE_FAILED':
    case 'CANCEL_OR_REFUND':
    case 'TECHNICAL_CANCEL':
      if (!success) return null;
      return {
        notificationId,
        subject: 'capture_reversal',
        idempotencyKey: key ?? null,
        outcome: {
          kind: 'reversed',
          chargeReference: stringOf(item.originalReference) ?? null,
          reversalReference: pspReference,
          ...(amountOf(item) ? { amount: amountOf(item) } : {}),
          message: `adyen ${eventCode}: ${reason}`,
        },
      };
    default:
      return null;
  }
}

/**
 * Verifies and reads a standard notification request (`{live, notificationItems: [...]}`): every
 * item's HMAC must match and its `live` flag must be the account's mode, or the whole request is
 * refused (Adyen then sends it again).
 */
export function parseAdyenNotifications(
  rawBody: Buffer,
  hmacKeyHex: string,
  live: boolean,
): GatewayNotificationBatch {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new GatewayNotificationError('notification body is not JSON');
  }
  if (!isObject(body) || !Array.isArray(body.notificationItems) || body.notificationItems.length === 0) {
    throw new GatewayNotificationError('notification body has no notificationItems');
  }
  if (body.live !== String(live)) {
    throw new GatewayNotificationError(
      `notification is for live=${String(body.live)}, this account is live=${live}`,
    );
  }
  const items: GatewayNotification[] = [];
  for (const wrapper of body.notificationItems) {
    const item = isObject(wrapper) ? wrapper.NotificationRequestItem : undefined;
    if (!isObject(item))
      throw new GatewayNotificationError('notification item is not a NotificationRequestItem');
    verifyAdyenHmac(signedFieldsOf(item), additionalDataOf(item).hmacSignature, hmacKeyHex);
    const notification = notificationOf(item);
    if (notification) items.push(notification);
  }
  return { items, acknowledgement: ADYEN_ACKNOWLEDGEMENT };
}
