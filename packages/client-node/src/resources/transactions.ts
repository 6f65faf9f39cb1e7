import type { RequestSender } from '../request-sender.ts';
import type { ListTransactionsParams, Transaction } from '../types.ts';
import { allPages } from './pages.ts';

export class Transactions {
  readonly #sender: RequestSender;

  constructor(sender: RequestSender) {
    this.#sender = sender;
  }

  /**
   * Every transaction matching the filters, newest first, fetched page by page as you iterate.
   * Nothing is requested until iteration starts; each page is one GET (retried like any GET).
   * @example
   * for await (const txn of paygate.transactions.list({ status: 'APPROVED', limit: 100 })) {
   *   reconcile(txn);
   * }
   */
  list(params: ListTransactionsParams = {}): AsyncIterable<Transaction> {
    return allPages<Transaction>(this.#sender, '/v1/transactions', {
      status: params.status,
      type: params.type,
      from: params.from instanceof Date ? params.from.toISOString() : params.from,
      to: params.to instanceof Date ? params.to.toISOString() : params.to,
      limit: params.limit,
    });
  }
}
