import type { Dispute } from '@paygate/contract';
import type { DisputeRecord } from '../../storage/repositories/disputes.ts';

/** A dispute as the API and the dispute.* events show it (CONTRACT.md "Disputes"). */
export function disputeResource(dispute: DisputeRecord): Dispute {
  return {
    id: dispute.id,
    object: 'dispute',
    payment_intent_id: dispute.paymentIntentId,
    amount_minor: dispute.amountMinor,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
    evidence_due_by: dispute.evidenceDueBy ? dispute.evidenceDueBy.toISOString() : null,
    gateway_id: dispute.gatewayId,
    livemode: dispute.livemode,
    version: dispute.version,
    created_at: dispute.createdAt.toISOString(),
    updated_at: dispute.updatedAt.toISOString(),
  };
}
