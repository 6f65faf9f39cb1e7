import { type Static, Type } from 'typebox';
import { AmountMinor, IdOf, Livemode, Timestamp } from './common.ts';

export const transactionTypes = ['PAYMENT', 'REFUND', 'DISPUTE', 'DISPUTE_REVERSAL'] as const;
export const transactionStatuses = ['PENDING', 'APPROVED', 'DECLINED'] as const;
export const TransactionType = Type.Enum(transactionTypes);
export const TransactionStatus = Type.Enum(transactionStatuses);

export const TRANSACTION_LIST_DEFAULT_LIMIT = 20;
export const TRANSACTION_LIST_MAX_LIMIT = 100;

/**
 * One ledger line: a PAYMENT per confirmed intent, a REFUND per refund, settling with it; a
 * DISPUTE for an amount a chargeback took back and a DISPUTE_REVERSAL for one a won dispute
 * returned (both APPROVED when written: the gateway already moved the money).
 */
export const Transaction = Type.Object(
  {
    id: IdOf('txn'),
    object: Type.Literal('transaction'),
    type: TransactionType,
    status: TransactionStatus,
    amount_minor: AmountMinor,
    currency: Type.String({ description: 'ISO 4217 code, upper case' }),
    payment_intent_id: IdOf('pi'),
    refund_id: Type.Union([IdOf('re'), Type.Null()], { description: 'null except for REFUND' }),
    gateway_id: Type.String(),
    livemode: Livemode,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'One ledger line: a PAYMENT, a REFUND, a DISPUTE or a DISPUTE_REVERSAL' },
);
export type Transaction = Static<typeof Transaction>;

export const ListTransactionsQuery = Type.Object(
  {
    status: Type.Optional(TransactionStatus),
    type: Type.Optional(TransactionType),
    from: Type.Optional(
      Type.String({ format: 'date-time', description: 'Inclusive lower bound, ISO 8601 instant' }),
    ),
    to: Type.Optional(
      Type.String({ format: 'date-time', description: 'Exclusive upper bound, ISO 8601 instant' }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TRANSACTION_LIST_MAX_LIMIT,
        default: TRANSACTION_LIST_DEFAULT_LIMIT,
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
export type ListTransactionsQuery = Static<typeof ListTransactionsQuery>;

export const TransactionList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Transaction),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type TransactionList = Static<typeof TransactionList>;
