import { buildEvent } from '../../domain/events.ts';
import { newId } from '../../domain/ids.ts';
import type { Queryable } from '../../storage/db.ts';
import { insertEvent } from '../../storage/repositories/events.ts';
import type { PaymentIntentRecord } from '../../storage/repositories/payment-intents.ts';
import {
  insertSavedPaymentMethod,
  type SavedPaymentMethodRecord,
} from '../../storage/repositories/saved-payment-methods.ts';
import { savedPaymentMethodResource } from '../resources/saved-payment-method.ts';

/**
 * Saves the method an intent's succeeded (or authorised) charge used, in the caller's transaction
 * (the one that records the success): for the intent's customer, at the intent's gateway, with the
 * gateway's reusable reference, and its saved_payment_method.attached. A success applied twice
 * saves once. Nothing is saved, and the answer says why, when the gateway gave no reference or the
 * customer was deleted meanwhile (deleting a customer detaches its methods, so none may be added
 * after); null otherwise.
 */
export async function saveMethodOfPayment(
  tx: Queryable,
  intent: PaymentIntentRecord,
  gatewayReference: string | undefined,
  now: Date,
): Promise<string | null> {
  if (intent.setupFutureUsage === null || intent.customerId === null) return null;
  if (!gatewayReference) {
    return `gateway ${intent.gatewayId} kept no reusable method for intent ${intent.id}: nothing saved`;
  }
  const method: SavedPaymentMethodRecord = {
    id: newId('spm'),
    merchantId: intent.merchantId,
    livemode: intent.livemode,
    customerId: intent.customerId,
    gatewayId: intent.gatewayId,
    gatewayReference,
    paymentIntentId: intent.id,
    status: 'active',
    version: 1,
    createdAt: now,
    updatedAt: now,
    detachedAt: null,
  };
  const saved = await insertSavedPaymentMethod(tx, method);
  if (saved === 'customer_deleted') {
    return `customer ${intent.customerId} of intent ${intent.id} was deleted before its payment succeeded: nothing saved`;
  }
  if (saved === 'saved') await recordSavedMethodEvent(tx, 'saved_payment_method.attached', method, now);
  return null;
}

/** A saved method's event (attached, detached), with the method as the API shows it. */
export async function recordSavedMethodEvent(
  tx: Queryable,
  type: 'saved_payment_method.attached' | 'saved_payment_method.detached',
  method: SavedPaymentMethodRecord,
  now: Date,
): Promise<void> {
  await insertEvent(
    tx,
    method.merchantId,
    method.id,
    buildEvent(type, { ...savedPaymentMethodResource(method) }, method.livemode, now),
  );
}
