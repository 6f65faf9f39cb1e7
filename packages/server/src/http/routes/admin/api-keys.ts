import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { listApiKeys } from '../../../app/api-keys/list-api-keys.ts';
import { retrieveApiKey } from '../../../app/api-keys/retrieve-api-key.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import { rollApiKey } from '../../../app/api-keys/roll-api-key.ts';
import type { AppContext } from '../../../app/context.ts';

/** A merchant's API keys in the back office: list, retrieve, revoke and roll (creation is with the merchant's routes). */
export async function apiKeyAdminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { credential: 'admin' as const, rateLimit: false };

  const list = operations.adminListApiKeys;
  api.get(
    routePath(list),
    {
      schema: { params: list.params, querystring: list.querystring, response: responseSchemas(list) },
      config,
    },
    (request) => listApiKeys(ctx, request.params.id, request.query),
  );

  const retrieve = operations.adminRetrieveApiKey;
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
    (request) => retrieveApiKey(ctx, request.params.id),
  );

  const revoke = operations.adminRevokeApiKey;
  api.post(
    routePath(revoke),
    { schema: { params: revoke.params, response: responseSchemas(revoke) }, config },
    (request) => revokeApiKey(ctx, request.params.id),
  );

  const roll = operations.adminRollApiKey;
  api.post(
    routePath(roll),
    { schema: { params: roll.params, response: responseSchemas(roll) }, config },
    async (request, reply) => reply.code(201).send(await rollApiKey(ctx, request.params.id)),
  );
}
