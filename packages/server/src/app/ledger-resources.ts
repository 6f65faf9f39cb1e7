import type { Refund, Transaction } from '@paygate/contract';
import type { RefundRecord } from '../storage/repositories/refunds.ts';
import type { TransactionRecord } from '../storage/repositories/transactions.ts';

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
    created_at: refund.createdAt.toISOString(),
  };
}

/** A transaction as the list shows it (CONTRACT.md "Transaction"). */
export function transactionResource(txn: TransactionRecord): Transaction {
  return {
    id: txn.id,
    object: 'transaction',
    type: txn.type,
    status: txn.status,
    amount_minor: txn.amountMinor,
    currency: txn.currency,
    payment_intent_id: txn.paymentIntentId,
    refund_id: txn.refundId,
    gateway_id: txn.gatewayId,
    livemode: txn.livemode,
    created_at: txn.createdAt.toISOString(),
    updated_at: txn.updatedAt.toISOString(),
  };
}
