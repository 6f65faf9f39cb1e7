import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { createApiKey, createMerchant } from '../../../app/merchants/create-merchant.ts';
import { listMerchants } from '../../../app/merchants/list-merchants.ts';
import { retrieveMerchant } from '../../../app/merchants/retrieve-merchant.ts';
import { setMerchantEnabled } from '../../../app/merchants/set-merchant-enabled.ts';
import { updateMerchant } from '../../../app/merchants/update-merchant.ts';
import { createdApiKeyResource, createdMerchantResource } from '../../../app/resources/operator.ts';

export async function merchantAdminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const create = operations.adminCreateMerchant;
  api.post(
    routePath(create),
    {
      schema: { body: create.body, response: responseSchemas(create) },
      config: { credential: 'admin', rateLimit: false },
    },
    async (request, reply) => {
      return reply.code(201).send(createdMerchantResource(await createMerchant(ctx, request.body.name)));
    },
  );

  const createKey = operations.adminCreateApiKey;
  api.post(
    routePath(createKey),
    {
      schema: { params: createKey.params, body: createKey.body, response: responseSchemas(createKey) },
      config: { credential: 'admin', rateLimit: false },
    },
    async (request, reply) => {
      const created = await createApiKey(ctx, request.params.id, {
        livemode: request.body.livemode,
        kind: request.body.kind,
        // Permissions narrow what a secret key may do; a publishable key is already limited.
        permissions: request.body.permissions ?? null,
      });
      return reply.code(201).send(createdApiKeyResource(created));
    },
  );
}

/** Reading and changing merchants: list, retrieve, rename, disable and enable. */
export async function merchantManagementRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { credential: 'admin' as const, rateLimit: false };

  const list = operations.adminListMerchants;
  api.get(
    routePath(list),
    { schema: { querystring: list.querystring, response: responseSchemas(list) }, config },
    (request) => listMerchants(ctx, request.query),
  );

  const retrieve = operations.adminRetrieveMerchant;
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
    (request) => retrieveMerchant(ctx, request.params.id),
  );

  const update = operations.adminUpdateMerchant;
  api.post(
    routePath(update),
    { schema: { params: update.params, body: update.body, response: responseSchemas(update) }, config },
    (request) => updateMerchant(ctx, request.params.id, request.body),
  );

  const disable = operations.adminDisableMerchant;
  api.post(
    routePath(disable),
    { schema: { params: disable.params, response: responseSchemas(disable) }, config },
    (request) => setMerchantEnabled(ctx, request.params.id, false),
  );

  const enable = operations.adminEnableMerchant;
  api.post(
    routePath(enable),
    { schema: { params: enable.params, response: responseSchemas(enable) }, config },
    (request) => setMerchantEnabled(ctx, request.params.id, true),
  );
}
