import { type Static, Type } from 'typebox';
import { Livemode, Timestamp } from './common.ts';

/** The window of a reconciliation run; `to` defaults to now and `from` to 24 hours before it. */
export const ReconciliationQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({ format: 'date-time', description: 'Inclusive start (ISO 8601 with a zone)' }),
    ),
    to: Type.Optional(
      Type.String({ format: 'date-time', description: 'Exclusive end (ISO 8601 with a zone)' }),
    ),
    merchant_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "Only this merchant's gateway accounts" }),
    ),
  },
  { additionalProperties: false },
);
export type ReconciliationQuery = Static<typeof ReconciliationQuery>;

export const reconciliationDifferenceKinds = [
  'unknown_to_paygate',
  'missing_at_gateway',
  'status_differs',
  'amount_differs',
] as const;

const nullableString = Type.Union([Type.String(), Type.Null()]);

/** One record on which Paygate and a gateway's books disagree. */
export const ReconciliationDifference = Type.Object({
  kind: Type.Enum(reconciliationDifferenceKinds),
  object: Type.Union([Type.Literal('charge'), Type.Literal('refund')]),
  merchant_id: nullableString,
  gateway_id: Type.String(),
  gateway_account_id: nullableString,
  livemode: Livemode,
  paygate_id: nullableString,
  idempotency_key: Type.String(),
  gateway_reference: nullableString,
  paygate_status: nullableString,
  gateway_status: nullableString,
  repairable: Type.Boolean({ description: "Whether applying the gateway's state settles it" }),
  repaired: Type.Boolean(),
  detail: Type.String(),
});

/**
 * A comparison of Paygate's charges and refunds with each gateway's books (the process's gateways
 * and every merchant's Stripe and Adyen accounts), read-only: nothing is repaired by this read.
 */
export const Reconciliation = Type.Object({
  object: Type.Literal('reconciliation'),
  from: Timestamp,
  to: Timestamp,
  gateways: Type.Array(
    Type.Object({
      gateway_id: Type.String(),
      gateway_account_id: nullableString,
      merchant_id: nullableString,
      livemode: Livemode,
      charges: Type.Integer({ minimum: 0 }),
      refunds: Type.Integer({ minimum: 0 }),
    }),
  ),
  skipped: Type.Array(Type.String(), { description: 'Gateways or accounts whose books cannot be read' }),
  unreadable: Type.Array(
    Type.Object({
      gateway_id: Type.String(),
      gateway_account_id: nullableString,
      merchant_id: nullableString,
      livemode: Livemode,
      reason: Type.String({
        description: 'Why the books could not be read (refused credentials, gateway down)',
      }),
    }),
    {
      description:
        'Books that could not be read this time: not compared; the rest of the answer is still complete',
    },
  ),
  differences: Type.Array(ReconciliationDifference),
  unrepaired: Type.Integer({ minimum: 0 }),
});
export type Reconciliation = Static<typeof Reconciliation>;
