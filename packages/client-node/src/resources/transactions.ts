import type { RequestSender } from '../request-sender.ts';
import type { ListTransactionsParams, Transaction } from '../types.ts';

interface TransactionPage {
  data: Transaction[];
  has_more: boolean;
  next_cursor: string | null;
}

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
    const sender = this.#sender;
    const query = {
      status: params.status,
      type: params.type,
      from: params.from instanceof Date ? params.from.toISOString() : params.from,
      to: params.to instanceof Date ? params.to.toISOString() : params.to,
      limit: params.limit,
    };
    return {
      async *[Symbol.asyncIterator]() {
        let cursor: string | undefined;
        for (;;) {
          const { body } = await sender.request<TransactionPage>({
            method: 'GET',
            path: '/v1/transactions',
            query: { ...query, cursor },
          });
          yield* body.data;
          // A page that claims more but gives no cursor ends the walk rather than looping forever.
          if (!body.has_more || typeof body.next_cursor !== 'string' || body.next_cursor === '') return;
          cursor = body.next_cursor;
        }
      },
    };
  }
}
