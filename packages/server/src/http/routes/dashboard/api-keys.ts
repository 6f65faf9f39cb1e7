import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import { listApiKeysOfTenant } from '../../../app/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../../app/api-keys/revoke-api-key.ts';
import { rollApiKey } from '../../../app/api-keys/roll-api-key.ts';
import type { AppContext } from '../../../app/context.ts';
import { recordAudit } from '../../../app/dashboard/audit.ts';
import { createApiKey } from '../../../app/merchants/create-merchant.ts';
import { createdApiKeyResource } from '../../../app/resources/operator.ts';
import { apiKeysPage } from '../../../dashboard/api-keys-page.ts';
import { t } from '../../../dashboard/i18n.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import type { Queryable } from '../../../storage/db.ts';
import { dashboardCallerOf } from '../../plugins/dashboard-auth.ts';
import { modePage } from './page-kit.ts';

/**
 * API keys of the signed-in user's merchant in the switch's mode: list, create, roll (with a
 * grace period) and revoke, through the operator API's use cases, each audited in its transaction.
 */
export async function dashboardApiKeyRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  function audited(user: { id: string; merchant_id: string }, livemode: boolean, action: string) {
    return (tx: Queryable, target: string) =>
      recordAudit(tx, ctx.clock.now(), {
        merchantId: user.merchant_id,
        userId: user.id,
        action,
        target,
        livemode,
      });
  }

  const list = operations.dashboardListApiKeys;
  api.get(
    routePath(list),
    { schema: { params: list.params, response: responseSchemas(list) }, config: { dashboard: 'read' } },
    async (request) => {
      const { user } = dashboardCallerOf(request);
      const scope = { merchantId: user.merchant_id, livemode: request.params.mode === 'live' };
      return { object: 'list' as const, data: await listApiKeysOfTenant(ctx, scope) };
    },
  );

  const create = operations.dashboardCreateApiKey;
  api.post(
    routePath(create),
    {
      schema: { params: create.params, body: create.body, response: responseSchemas(create) },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const { user } = dashboardCallerOf(request);
      const livemode = request.params.mode === 'live';
      const created = await createApiKey(
        ctx,
        user.merchant_id,
        { livemode, kind: request.body.kind, permissions: request.body.permissions ?? null },
        audited(user, livemode, 'api_key.created'),
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
      const { user } = dashboardCallerOf(request);
      const scope = { merchantId: user.merchant_id, livemode: request.params.mode === 'live' };
      const rolled = await rollApiKey(ctx, request.params.id, {
        scope,
        graceSeconds: request.body?.expires_in_seconds ?? 0,
        audit: (tx) => audited(user, scope.livemode, 'api_key.rolled')(tx, request.params.id),
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
      const { user } = dashboardCallerOf(request);
      const scope = { merchantId: user.merchant_id, livemode: request.params.mode === 'live' };
      return revokeApiKey(ctx, request.params.id, {
        scope,
        audit: (tx) => audited(user, scope.livemode, 'api_key.revoked')(tx, request.params.id),
      });
    },
  );

  modePage(
    app,
    ctx,
    'api-keys',
    (lang) => t(lang).apiKeys,
    async ({ found, mode, frame }) => {
      const keys = await listApiKeysOfTenant(ctx, {
        merchantId: found.user.merchant_id,
        livemode: mode === 'live',
      });
      return apiKeysPage(frame, keys, roleAllows(found.user.role, 'operate'));
    },
  );
}
