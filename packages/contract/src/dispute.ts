import { type Static, Type } from 'typebox';
import { AmountMinor, IdOf, Livemode, ResourceVersion, Timestamp } from './common.ts';

export const disputeStatuses = ['NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST'] as const;
export const DisputeStatus = Type.Enum(disputeStatuses);

export const disputeReasons = [
  'fraudulent',
  'duplicate',
  'product_not_received',
  'product_unacceptable',
  'subscription_canceled',
  'credit_not_processed',
  'unrecognized',
  'general',
] as const;
export const DisputeReason = Type.Enum(disputeReasons);

export const DisputeIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/**
 * A chargeback the payer's bank opened against a payment, as the gateway reports it. It opens
 * NEEDS_RESPONSE (or UNDER_REVIEW) and closes WON or LOST; `dispute.created`, `dispute.updated`
 * and `dispute.closed` carry it as `data.object`. The amount taken back is a DISPUTE transaction,
 * and the amount returned when the merchant wins a DISPUTE_REVERSAL.
 */
export const Dispute = Type.Object(
  {
    id: IdOf('dp'),
    object: Type.Literal('dispute'),
    payment_intent_id: IdOf('pi'),
    amount_minor: AmountMinor,
    currency: Type.String({ description: 'ISO 4217 code, upper case' }),
    reason: DisputeReason,
    status: DisputeStatus,
    evidence_due_by: Type.Union([Timestamp, Type.Null()], {
      description: 'When the gateway must have the merchant’s evidence; null when it gave no date',
    }),
    gateway_id: Type.String(),
    livemode: Livemode,
    version: ResourceVersion,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A chargeback the gateway reported against a payment: open, then WON or LOST' },
);
export type Dispute = Static<typeof Dispute>;
