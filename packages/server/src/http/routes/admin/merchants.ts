import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { createMerchant, issueApiKey } from '../../../app/create-merchant.ts';
import { NotFoundError } from '../../../domain/errors.ts';
import { findMerchant } from '../../../storage/repositories/merchants.ts';

export async function merchantAdminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const create = operations.adminCreateMerchant;
  api.post(
    routePath(create),
    { schema: { body: create.body }, config: { credential: 'admin', rateLimit: false } },
    async (request, reply) => {
      const { merchant, keys } = await createMerchant(ctx, request.body.name);
      return reply.code(201).send({
        id: merchant.id,
        object: 'merchant',
        name: merchant.name,
        created_at: merchant.created_at.toISOString(),
        api_keys: {
          secret_test: keys.secretTest,
          publishable_test: keys.publishableTest,
          secret_live: keys.secretLive,
          publishable_live: keys.publishableLive,
        },
      });
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
      const created = await ctx.db.transaction(async (tx) => {
        const merchant = await findMerchant(tx, request.params.id);
        if (!merchant) throw new NotFoundError('merchant', request.params.id);
        return issueApiKey(tx, ctx.clock.now(), merchant.id, {
          livemode: request.body.livemode,
          kind: request.body.kind,
          // Permissions narrow what a secret key may do; a publishable key is already limited.
          permissions: request.body.permissions ?? null,
        });
      });
      return reply.code(201).send({
        id: created.id,
        object: 'api_key',
        merchant_id: created.merchantId,
        livemode: created.livemode,
        kind: created.kind,
        permissions: created.permissions,
        key_hint: created.keyHint,
        created_at: created.createdAt.toISOString(),
        key: created.key,
      });
    },
  );
}
