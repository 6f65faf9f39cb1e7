import type { Refund } from '@paygate/contract';
import type { RefundRecord } from '../../storage/repositories/refunds.ts';

/** A refund as the API and the refund.* events show it (CONTRACT.md "Refund"). */
export function refundResource(refund: RefundRecord): Refund {
  return {
    id: refund.id,
    object: 'refund',
    payment_intent_id: refund.paymentIntentId,
    amount_minor: refund.amountMinor,
    currency: refund.currency,
    status: refund.status,
    metadata: refund.metadata,
    livemode: refund.livemode,
    version: refund.version,
    created_at: refund.createdAt.toISOString(),
  };
}
