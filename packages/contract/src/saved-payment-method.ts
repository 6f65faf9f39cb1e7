import { type Static, Type } from 'typebox';
import { IdOf, Livemode, ResourceVersion, Timestamp } from './common.ts';

export const savedPaymentMethodStatuses = ['active', 'detached'] as const;

/**
 * A payment method saved for a customer at one gateway account (CONTRACT.md, second round: Saved
 * payment methods). Paygate keeps only the gateway's reusable reference, which it never shows:
 * no card data, brand or last digits.
 */
export const SavedPaymentMethod = Type.Object(
  {
    id: IdOf('spm'),
    object: Type.Literal('saved_payment_method'),
    customer_id: IdOf('cus'),
    gateway_id: Type.String({
      description: 'the gateway account that keeps the method; only it can charge it',
    }),
    status: Type.Enum(savedPaymentMethodStatuses, {
      description: 'active: it can be charged; detached: removed, here and at the gateway, for good',
    }),
    livemode: Livemode,
    created_at: Timestamp,
    version: ResourceVersion,
  },
  { description: "A customer's payment method, saved at a gateway with the payer's consent" },
);
export type SavedPaymentMethod = Static<typeof SavedPaymentMethod>;

export const SavedPaymentMethodIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** The most saved methods one list page holds, and how many when `limit` is omitted. */
export const SAVED_PAYMENT_METHOD_LIST_MAX_LIMIT = 100;
export const SAVED_PAYMENT_METHOD_LIST_DEFAULT_LIMIT = 20;

export const ListSavedPaymentMethodsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SAVED_PAYMENT_METHOD_LIST_MAX_LIMIT,
        default: SAVED_PAYMENT_METHOD_LIST_DEFAULT_LIMIT,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; the next_cursor of the previous page',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListSavedPaymentMethodsQuery = Static<typeof ListSavedPaymentMethodsQuery>;

export const SavedPaymentMethodList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(SavedPaymentMethod),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type SavedPaymentMethodList = Static<typeof SavedPaymentMethodList>;
