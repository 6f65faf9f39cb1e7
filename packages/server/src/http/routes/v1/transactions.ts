import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { listTransactions } from '../../../app/list-transactions.ts';
import { principalOf } from '../../plugins/auth.ts';

export async function transactionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const list = operations.listTransactions;
  api.get(
    routePath(list),
    {
      schema: { querystring: list.querystring },
      config: { credential: list.credential, permission: 'transactions:read' },
    },
    async (request) => listTransactions(ctx, principalOf(request), request.query),
  );
}
