import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { listApiKeysOfTenant } from '../../../app/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import { rollApiKey } from '../../../app/api-keys/roll-api-key.ts';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { createApiKey } from '../../../app/merchants/create-merchant.ts';
import { createdApiKeyResource } from '../../../app/resources/operator.ts';
import { apiKeysPage } from '../../../dashboard/api-keys-page.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { modePage } from './page-kit.ts';
import { scopeOf } from './scope.ts';

/**
 * API keys of the signed-in user's merchant in the switch's mode: list, create, roll (with a
 * grace period) and revoke, through the operator API's use cases, each audited in its transaction.
 */
export async function dashboardApiKeyRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const list = operations.dashboardListApiKeys;
  api.get(
    routePath(list),
    { schema: { params: list.params, response: responseSchemas(list) }, config: { dashboard: 'read' } },
    async (request) => ({ object: 'list' as const, data: await listApiKeysOfTenant(ctx, scopeOf(request)) }),
  );

  const create = operations.dashboardCreateApiKey;
  api.post(
    routePath(create),
    {
      schema: { params: create.params, body: create.body, response: responseSchemas(create) },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const created = await createApiKey(
        ctx,
        scope.merchantId,
        { livemode: scope.livemode, kind: request.body.kind, permissions: request.body.permissions ?? null },
        auditDashboardAction(ctx, scope, 'api_key.created'),
      );
      return reply.code(201).send(createdApiKeyResource(created));
    },
  );

  const roll = operations.dashboardRollApiKey;
  api.post(
    routePath(roll),
    {
      schema: { params: roll.params, body: roll.body, response: responseSchemas(roll) },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const audit = auditDashboardAction(ctx, scope, 'api_key.rolled');
      const rolled = await rollApiKey(ctx, request.params.id, {
        scope,
        graceSeconds: request.body?.expires_in_seconds ?? 0,
        audit: (tx) => audit(tx, request.params.id),
      });
      return reply.code(201).send(rolled);
    },
  );

  const revoke = operations.dashboardRevokeApiKey;
  api.post(
    routePath(revoke),
    {
      schema: { params: revoke.params, response: responseSchemas(revoke) },
      config: { dashboard: 'operate' },
    },
    async (request) => {
      const scope = scopeOf(request);
      const audit = auditDashboardAction(ctx, scope, 'api_key.revoked');
      return revokeApiKey(ctx, request.params.id, { scope, audit: (tx) => audit(tx, request.params.id) });
    },
  );

  modePage(app, ctx, 'api-keys', 'apiKeys', async ({ scope, frame }) =>
    apiKeysPage(frame, await listApiKeysOfTenant(ctx, scope), roleAllows(scope.role, 'operate')),
  );
}
