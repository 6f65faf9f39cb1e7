import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { createMerchant, issueApiKey } from '../../../app/create-merchant.ts';
import { listMerchants } from '../../../app/list-merchants.ts';
import { retrieveMerchant } from '../../../app/retrieve-merchant.ts';
import { setMerchantEnabled } from '../../../app/set-merchant-enabled.ts';
import { updateMerchant } from '../../../app/update-merchant.ts';
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
        revoked_at: null,
        key: created.key,
      });
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
  api.get(routePath(list), { schema: { querystring: list.querystring }, config }, (request) =>
    listMerchants(ctx, request.query),
  );

  const retrieve = operations.adminRetrieveMerchant;
  api.get(
    routePath(retrieve),
    { schema: { params: retrieve.params, querystring: retrieve.querystring }, config },
    (request) => retrieveMerchant(ctx, request.params.id),
  );

  const update = operations.adminUpdateMerchant;
  api.post(routePath(update), { schema: { params: update.params, body: update.body }, config }, (request) =>
    updateMerchant(ctx, request.params.id, request.body),
  );

  const disable = operations.adminDisableMerchant;
  api.post(routePath(disable), { schema: { params: disable.params }, config }, (request) =>
    setMerchantEnabled(ctx, request.params.id, false),
  );

  const enable = operations.adminEnableMerchant;
  api.post(routePath(enable), { schema: { params: enable.params }, config }, (request) =>
    setMerchantEnabled(ctx, request.params.id, true),
  );
}
