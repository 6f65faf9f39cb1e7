import { type Static, Type } from 'typebox';
import { IdOf, Timestamp } from './common.ts';
import { Dispute } from './dispute.ts';
import { PaymentIntent, PaymentIntentStatus } from './payment-intent.ts';
import { Refund } from './refund.ts';

export const PAYMENT_SEARCH_DEFAULT_LIMIT = 20;
export const PAYMENT_SEARCH_MAX_LIMIT = 100;

/** The filters of the payments page, its API and its CSV export (one set, one meaning). */
export const PaymentSearchFilters = {
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Exact payment intent id' })),
  status: Type.Optional(PaymentIntentStatus),
  amount_min: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 999_999_999_999, description: 'Inclusive, in minor units' }),
  ),
  amount_max: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 999_999_999_999, description: 'Inclusive, in minor units' }),
  ),
  currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after (inclusive)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before (exclusive)' })),
  metadata_key: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  metadata_value: Type.Optional(
    Type.String({ maxLength: 500, description: 'Only with metadata_key: the value that key must have' }),
  ),
};

export const PaymentSearchQuery = Type.Object(
  {
    ...PaymentSearchFilters,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: PAYMENT_SEARCH_MAX_LIMIT, default: PAYMENT_SEARCH_DEFAULT_LIMIT }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; next_cursor: the older payments after it',
      }),
    ),
    before: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; previous_cursor: the newer payments before it (not with cursor)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PaymentSearchQuery = Static<typeof PaymentSearchQuery>;

export const PaymentExportQuery = Type.Object(PaymentSearchFilters, { additionalProperties: false });

export const PaymentSearchResult = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(PaymentIntent),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  previous_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as before for the previous (newer) page; null on the first page',
  }),
});

export const PaymentCsv = Type.String({
  description:
    'RFC 4180 CSV, streamed: a header line, then one line per payment, newest first. Amounts are integers in minor units beside their currency; a cell that a spreadsheet would read as a formula starts with an apostrophe.',
});

/** The payment page: the intent, how it got where it is, and what it caused. */
export const PaymentDetail = Type.Object({
  object: Type.Literal('payment_detail'),
  payment_intent: PaymentIntent,
  timeline: Type.Array(
    Type.Object({
      status: PaymentIntentStatus,
      at: Timestamp,
      event_id: Type.Union([IdOf('evt'), Type.Null()], { description: 'null for the creation' }),
    }),
  ),
  attempts: Type.Array(
    Type.Object({
      attempt_number: Type.Integer({ minimum: 1 }),
      gateway_id: Type.String(),
      status: Type.String(),
      gateway_reference: Type.Union([Type.String(), Type.Null()]),
      failure_code: Type.Union([Type.String(), Type.Null()]),
      created_at: Timestamp,
      updated_at: Timestamp,
    }),
  ),
  refunds: Type.Array(Refund),
  disputes: Type.Array(Dispute),
  events: Type.Array(
    Type.Object({
      id: IdOf('evt'),
      type: Type.String(),
      created_at: Timestamp,
      deliveries: Type.Array(
        Type.Object({
          id: IdOf('wd'),
          endpoint_id: IdOf('we'),
          endpoint_url: Type.String(),
          status: Type.String(),
          attempt_count: Type.Integer({ minimum: 0 }),
          delivered_at: Type.Union([Timestamp, Type.Null()]),
        }),
      ),
    }),
  ),
});
