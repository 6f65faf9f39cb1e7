import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { createApiKey, createMerchant } from '../../../app/create-merchant.ts';
import { apiKeyResource, merchantResource } from '../../../app/resources/operator.ts';

export async function merchantAdminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const create = operations.adminCreateMerchant;
  api.post(
    routePath(create),
    { schema: { body: create.body }, config: { credential: 'admin', rateLimit: false } },
    async (request, reply) => {
      return reply.code(201).send(merchantResource(await createMerchant(ctx, request.body.name)));
    },
  );

  const createKey = operations.adminCreateApiKey;
  api.post(
    routePath(createKey),
    {
      schema: { params: createKey.params, body: createKey.body },
      config: { credential: 'admin', rateLimit: false },
    },
    async (request, reply) => {
      const created = await createApiKey(ctx, request.params.id, {
        livemode: request.body.livemode,
        kind: request.body.kind,
        // Permissions narrow what a secret key may do; a publishable key is already limited.
        permissions: request.body.permissions ?? null,
      });
      return reply.code(201).send(apiKeyResource(created));
    },
  );
}
