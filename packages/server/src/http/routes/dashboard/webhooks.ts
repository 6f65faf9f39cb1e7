import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { recordAudit } from '../../../app/dashboard-audit.ts';
import { webhookEndpointResource } from '../../../app/resources/operator.ts';
import {
  createWebhookEndpoint,
  disableTenantEndpoint,
  listTenantWebhookEndpoints,
} from '../../../app/webhook-endpoints.ts';
import { dashboardCallerOf } from '../../plugins/dashboard-auth.ts';

/** Webhook endpoints of the signed-in user's merchant, in the mode the path names. */
export async function dashboardWebhookRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const list = operations.dashboardListWebhookEndpoints;
  api.get(
    routePath(list),
    { schema: { params: list.params, response: responseSchemas(list) }, config: { dashboard: 'read' } },
    async (request) => {
      const { user } = dashboardCallerOf(request);
      const scope = { merchantId: user.merchant_id, livemode: request.params.mode === 'live' };
      const found = await listTenantWebhookEndpoints(ctx, scope);
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
      const { user } = dashboardCallerOf(request);
      const livemode = request.params.mode === 'live';
      const { endpoint, secret } = await createWebhookEndpoint(ctx, user.merchant_id, {
        url: request.body.url,
        livemode,
        enabledEvents: request.body.enabled_events,
      });
      await recordAudit(ctx.db, ctx.clock.now(), {
        merchantId: user.merchant_id,
        userId: user.id,
        action: 'webhook_endpoint.created',
        target: endpoint.id,
        livemode,
      });
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
    async (request) => {
      const { user } = dashboardCallerOf(request);
      const scope = { merchantId: user.merchant_id, livemode: request.params.mode === 'live' };
      const endpoint = await disableTenantEndpoint(ctx, scope, request.params.id);
      await recordAudit(ctx.db, ctx.clock.now(), {
        merchantId: user.merchant_id,
        userId: user.id,
        action: 'webhook_endpoint.disabled',
        target: endpoint.id,
        livemode: scope.livemode,
      });
      return webhookEndpointResource(endpoint);
    },
  );
}
