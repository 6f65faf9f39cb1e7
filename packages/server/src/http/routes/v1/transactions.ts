import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { listTransactions, type TransactionListPage } from '../../../app/transactions/list-transactions.ts';
import { route } from '../../declare-route.ts';
import { principalOf } from '../../principal.ts';

export async function transactionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  route(app, operations.listTransactions, async (request, reply) => {
    const page = await listTransactions(ctx, principalOf(request), request.query);
    return reply.type('application/json; charset=utf-8').send(listBody(page));
  });
}

/**
 * The contract's TransactionList around rows that are JSON text already: concatenated, never
 * parsed and serialised again (the rows are most of the bytes of the API's widest answer).
 */
export function listBody(page: TransactionListPage): string {
  return `{"object":"list","data":[${page.itemsJson.join(',')}],"has_more":${page.hasMore},"next_cursor":${JSON.stringify(page.nextCursor)}}`;
}
