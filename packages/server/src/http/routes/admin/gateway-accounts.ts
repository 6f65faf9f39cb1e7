import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import {
  addGatewayAccount,
  listGatewayAccounts,
  retrieveGatewayAccount,
  rotateGatewayAccountCredentials,
  setGatewayAccountStatus,
} from '../../../app/gateways/accounts.ts';

/** A merchant's own gateway accounts in the back office: add, list, retrieve, disable, enable, rotate. */
export async function gatewayAccountAdminRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { credential: 'admin' as const, rateLimit: false };

  const create = operations.adminCreateGatewayAccount;
  api.post(
    routePath(create),
    { schema: { params: create.params, body: create.body, response: responseSchemas(create) }, config },
    async (request, reply) =>
      reply.code(201).send(await addGatewayAccount(ctx, request.params.id, request.body)),
  );

  const list = operations.adminListGatewayAccounts;
  api.get(
    routePath(list),
    {
      schema: { params: list.params, querystring: list.querystring, response: responseSchemas(list) },
      config,
    },
    (request) => listGatewayAccounts(ctx, request.params.id, request.query),
  );

  const retrieve = operations.adminRetrieveGatewayAccount;
  api.get(
    routePath(retrieve),
    {
      schema: {
        params: retrieve.params,
        querystring: retrieve.querystring,
        response: responseSchemas(retrieve),
      },
      config,
    },
    (request) => retrieveGatewayAccount(ctx, request.params.id, request.params.account_id),
  );

  for (const [operation, status] of [
    [operations.adminDisableGatewayAccount, 'disabled'],
    [operations.adminEnableGatewayAccount, 'enabled'],
  ] as const) {
    api.post(
      routePath(operation),
      { schema: { params: operation.params, response: responseSchemas(operation) }, config },
      (request) => setGatewayAccountStatus(ctx, request.params.id, request.params.account_id, status),
    );
  }

  const rotate = operations.adminRotateGatewayAccountCredentials;
  api.post(
    routePath(rotate),
    { schema: { params: rotate.params, body: rotate.body, response: responseSchemas(rotate) }, config },
    (request) =>
      rotateGatewayAccountCredentials(ctx, request.params.id, request.params.account_id, request.body),
  );
}
