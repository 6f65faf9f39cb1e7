import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { recordAudit } from '../../../app/dashboard/audit.ts';
import { webhookEndpointResource } from '../../../app/resources/operator.ts';
import { createWebhookEndpoint } from '../../../app/webhooks/create-webhook-endpoint.ts';
import { disableWebhookEndpoint } from '../../../app/webhooks/disable-webhook-endpoint.ts';
import { tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { listTenantWebhookEndpoints } from '../../../app/webhooks/list-webhook-endpoints.ts';
import type { TenantScope } from '../../../domain/tenant.ts';
import { dashboardCallerOf } from '../../plugins/dashboard-auth.ts';
import { dashboardWebhookDeliveryRoutes } from './webhooks-deliveries.ts';
import { dashboardWebhookEndpointActionRoutes } from './webhooks-endpoint-actions.ts';
import { dashboardWebhookPageRoutes } from './webhooks-pages.ts';

/** The caller's merchant in the mode the path names. */
export function webhookScopeOf(request: FastifyRequest, mode: 'test' | 'live'): TenantScope {
  return { merchantId: dashboardCallerOf(request).user.merchant_id, livemode: mode === 'live' };
}

/**
 * Records a webhook action in the audit log, right after the operator use case it called
 * committed (those use cases open their own transactions).
 */
export async function auditWebhookAction(
  ctx: AppContext,
  request: FastifyRequest,
  action: string,
  target: string,
  livemode: boolean,
): Promise<void> {
  const { user } = dashboardCallerOf(request);
  await recordAudit(ctx.db, ctx.clock.now(), {
    merchantId: user.merchant_id,
    userId: user.id,
    action,
    target,
    livemode,
  });
}

/**
 * Runs `change` (an operator use case) on the caller's own endpoint or delivery `id`, and records
 * `action` once it has committed. `own` checks the id belongs to the caller's merchant and mode
 * (404 otherwise, before anything changes).
 */
export async function onOwn<T>(
  ctx: AppContext,
  request: FastifyRequest,
  params: { mode: 'test' | 'live'; id: string },
  own: (scope: TenantScope, id: string) => Promise<unknown>,
  action: string,
  change: () => Promise<T>,
): Promise<T> {
  const scope = webhookScopeOf(request, params.mode);
  await own(scope, params.id);
  const result = await change();
  await auditWebhookAction(ctx, request, action, params.id, scope.livemode);
  return result;
}

/** Webhook endpoints of the signed-in user's merchant, in the mode the path names. */
export async function dashboardWebhookRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ownEndpoint = (scope: TenantScope, id: string) => tenantEndpoint(ctx, scope, id);

  const list = operations.dashboardListWebhookEndpoints;
  api.get(
    routePath(list),
    { schema: { params: list.params, response: responseSchemas(list) }, config: { dashboard: 'read' } },
    async (request) => {
      const found = await listTenantWebhookEndpoints(ctx, webhookScopeOf(request, request.params.mode));
      return { object: 'list' as const, data: found.map((endpoint) => webhookEndpointResource(endpoint)) };
    },
  );

  const create = operations.dashboardCreateWebhookEndpoint;
  api.post(
    routePath(create),
    {
      schema: { params: create.params, body: create.body, response: responseSchemas(create) },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const scope = webhookScopeOf(request, request.params.mode);
      const { endpoint, secret } = await createWebhookEndpoint(ctx, scope.merchantId, {
        url: request.body.url,
        livemode: scope.livemode,
        enabledEvents: request.body.enabled_events,
      });
      await auditWebhookAction(ctx, request, 'webhook_endpoint.created', endpoint.id, scope.livemode);
      return reply.code(201).send(webhookEndpointResource(endpoint, secret));
    },
  );

  const disable = operations.dashboardDisableWebhookEndpoint;
  api.post(
    routePath(disable),
    {
      schema: { params: disable.params, response: responseSchemas(disable) },
      config: { dashboard: 'operate' },
    },
    async (request) =>
      webhookEndpointResource(
        await onOwn(ctx, request, request.params, ownEndpoint, 'webhook_endpoint.disabled', () =>
          disableWebhookEndpoint(ctx, request.params.id),
        ),
      ),
  );

  await app.register(dashboardWebhookEndpointActionRoutes, { ctx });
  await app.register(dashboardWebhookDeliveryRoutes, { ctx });
  await app.register(dashboardWebhookPageRoutes, { ctx });
}
