import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { createApiKey, createMerchant } from '../../../app/merchants/create-merchant.ts';
import { listMerchants } from '../../../app/merchants/list-merchants.ts';
import { retrieveMerchant } from '../../../app/merchants/retrieve-merchant.ts';
import { setMerchantEnabled } from '../../../app/merchants/set-merchant-enabled.ts';
import { updateMerchant } from '../../../app/merchants/update-merchant.ts';
import { createdApiKeyResource, createdMerchantResource } from '../../../app/resources/operator.ts';
import { route } from '../../declare-route.ts';
import { creatingRoute } from './creating-route.ts';

export async function merchantAdminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  creatingRoute(app, ctx, operations.adminCreateMerchant, async (request, keyed) => ({
    status: 201,
    body: createdMerchantResource(await createMerchant(keyed, request.body.name)),
  }));
  creatingRoute(app, ctx, operations.adminCreateApiKey, async (request, keyed) => {
    const created = await createApiKey(keyed, request.params.id, {
      livemode: request.body.livemode,
      kind: request.body.kind,
      // Permissions narrow what a secret key may do; a publishable key is already limited.
      permissions: request.body.permissions ?? null,
    });
    return { status: 201, body: createdApiKeyResource(created) };
  });
}

/** Reading and changing merchants: list, retrieve, rename, disable and enable. */
export async function merchantManagementRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.adminListMerchants, (request) => listMerchants(ctx, request.query));

  route(app, operations.adminRetrieveMerchant, (request) => retrieveMerchant(ctx, request.params.id));

  route(app, operations.adminUpdateMerchant, (request) =>
    updateMerchant(ctx, request.params.id, request.body),
  );

  route(app, operations.adminDisableMerchant, (request) => setMerchantEnabled(ctx, request.params.id, false));

  route(app, operations.adminEnableMerchant, (request) => setMerchantEnabled(ctx, request.params.id, true));
}
