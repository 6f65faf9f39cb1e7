import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { listApiKeys } from '../../../app/api-keys/list-api-keys.ts';
import { retrieveApiKey } from '../../../app/api-keys/retrieve-api-key.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import { rollApiKey } from '../../../app/api-keys/roll-api-key.ts';
import type { AppContext } from '../../../app/context.ts';
import { route } from '../../declare-route.ts';
import { creatingRoute } from './creating-route.ts';

/** A merchant's API keys in the back office: list, retrieve, revoke and roll (creation is with the merchant's routes). */
export async function apiKeyAdminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  route(app, operations.adminListApiKeys, (request) => listApiKeys(ctx, request.params.id, request.query));

  route(app, operations.adminRetrieveApiKey, (request) => retrieveApiKey(ctx, request.params.id));

  route(app, operations.adminRevokeApiKey, (request) => revokeApiKey(ctx, request.params.id));

  creatingRoute(app, ctx, operations.adminRollApiKey, async (request, keyed) => ({
    status: 201,
    body: await rollApiKey(keyed, request.params.id),
  }));
}
