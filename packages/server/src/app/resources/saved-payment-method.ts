import type { SavedPaymentMethod } from '@paygate/contract';
import type { SavedPaymentMethodRecord } from '../../storage/repositories/saved-payment-methods.ts';

/**
 * A saved payment method as the API and its events show it: never the gateway's reference, which
 * only Paygate sends, and no card data, which Paygate never has.
 */
export function savedPaymentMethodResource(method: SavedPaymentMethodRecord): SavedPaymentMethod {
  return {
    id: method.id,
    object: 'saved_payment_method',
    customer_id: method.customerId,
    gateway_id: method.gatewayId,
    status: method.status,
    livemode: method.livemode,
    created_at: method.createdAt.toISOString(),
    version: method.version,
  };
}
