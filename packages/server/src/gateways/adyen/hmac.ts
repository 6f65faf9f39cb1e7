import { createHmac, timingSafeEqual } from 'node:crypto';
import { GatewayNotificationError } from '../connector.ts';

/** The fields of a standard notification item that Adyen signs. */
export interface AdyenSignedFields {
  pspReference?: string;
  originalReference?: string;
  merchantAccountCode?: string;
  merchantReference?: string;
  amount?: { value?: number; currency?: string };
  eventCode?: string;
  /** 'true' or 'false', as sent. */
  success?: string;
}

/**
 * The string Adyen signs: pspReference, originalReference, merchantAccountCode,
 * merchantReference, amount value, amount currency, eventCode and success, joined by ':'
 * (an absent field is empty).
 */
export function adyenSigningString(item: AdyenSignedFields): string {
  return [
    item.pspReference ?? '',
    item.originalReference ?? '',
    item.merchantAccountCode ?? '',
    item.merchantReference ?? '',
    item.amount?.value ?? '',
    item.amount?.currency ?? '',
    item.eventCode ?? '',
    item.success ?? '',
  ].join(':');
}

/** Adyen's HMAC key is shown as hex in its Customer Area and must be decoded before use. */
function keyBytes(hexKey: string): Buffer {
  if (!/^(?:[0-9a-fA-F]{2}){16,}$/.test(hexKey)) throw new RangeError('the Adyen HMAC key must be hex');
  return Buffer.from(hexKey, 'hex');
}

/** Base64 of the HMAC-SHA256 of the signing string, as in `additionalData.hmacSignature`. */
export function adyenHmacSignature(item: AdyenSignedFields, hexKey: string): string {
  return createHmac('sha256', keyBytes(hexKey)).update(adyenSigningString(item), 'utf8').digest('base64');
}

/** Throws `GatewayNotificationError` unless `signature` is the item's HMAC (compared as digests). */
export function verifyAdyenHmac(item: AdyenSignedFields, signature: unknown, hexKey: string): void {
  if (typeof signature !== 'string' || signature.length === 0) {
    throw new GatewayNotificationError('notification item has no additionalData.hmacSignature');
  }
  const expected = Buffer.from(adyenHmacSignature(item, hexKey), 'base64');
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new GatewayNotificationError('notification item HMAC signature does not match');
  }
}
