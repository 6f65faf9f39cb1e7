import { type Static, Type } from 'typebox';
import { AmountMinor, IdOf, Livemode, Metadata, ResourceVersion, Timestamp } from './common.ts';

export const refundStatuses = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export const RefundStatus = Type.Enum(refundStatuses);

export const CreateRefundBody = Type.Object(
  {
    payment_intent_id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The SUCCEEDED intent to refund',
    }),
    amount_minor: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 999_999_999_999,
        description: 'Minor units to refund; omitted means all that remains refundable',
      }),
    ),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateRefundBody = Static<typeof CreateRefundBody>;

export const RefundIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/**
 * A refund of part or all of a SUCCEEDED payment intent. PENDING until the gateway settles it;
 * `refund.succeeded` and `refund.failed` carry it as `data.object`.
 */
export const Refund = Type.Object(
  {
    id: IdOf('re'),
    object: Type.Literal('refund'),
    payment_intent_id: IdOf('pi'),
    amount_minor: AmountMinor,
    currency: Type.String({ description: 'ISO 4217 code, upper case (the intent currency)' }),
    status: RefundStatus,
    metadata: Metadata,
    livemode: Livemode,
    version: ResourceVersion,
    created_at: Timestamp,
  },
  { description: 'A refund of part or all of a SUCCEEDED payment intent' },
);
export type Refund = Static<typeof Refund>;
