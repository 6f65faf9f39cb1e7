import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditedDashboardChange } from '../../../app/dashboard/audit-dashboard-action.ts';
import { listResource } from '../../../app/resources/list.ts';
import { webhookEndpointResource } from '../../../app/resources/operator.ts';
import { createWebhookEndpoint } from '../../../app/webhooks/create-webhook-endpoint.ts';
import { disableWebhookEndpoint } from '../../../app/webhooks/disable-webhook-endpoint.ts';
import { tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { listTenantWebhookEndpoints } from '../../../app/webhooks/list-webhook-endpoints.ts';
import type { RetrySender } from '../../../app/webhooks/retry-webhook-delivery.ts';
import type { TenantScope } from '../../../domain/tenant.ts';
import { route } from '../../../http/declare-route.ts';
import { onOwn } from '../on-own.ts';
import { scopeOf } from '../scope.ts';
import { dashboardWebhookDeliveryRoutes } from './deliveries.ts';
import { dashboardWebhookEndpointActionRoutes } from './endpoint-actions.ts';
import { dashboardWebhookFormRoutes } from './forms.ts';
import { dashboardWebhookPageRoutes } from './page-routes.ts';

/** Webhook endpoints of the signed-in user's merchant, in the mode the path names. */
export async function dashboardWebhookRoutes(
  app: FastifyInstance,
  { ctx, retrySender }: { ctx: AppContext; retrySender: RetrySender },
): Promise<void> {
  const ownEndpoint = (scope: TenantScope, id: string) => tenantEndpoint(ctx, scope, id);

  route(app, operations.dashboardListWebhookEndpoints, async (request) => {
    const found = await listTenantWebhookEndpoints(ctx, scopeOf(request));
    return listResource(found.map((endpoint) => webhookEndpointResource(endpoint)));
  });

  route(app, operations.dashboardCreateWebhookEndpoint, async (request, reply) => {
    const scope = scopeOf(request);
    const { endpoint, secret } = await auditedDashboardChange(
      ctx,
      scope,
      'webhook_endpoint.created',
      (audited) =>
        createWebhookEndpoint(audited, scope.merchantId, {
          url: request.body.url,
          livemode: scope.livemode,
          enabledEvents: request.body.enabled_events,
        }),
      (created) => created.endpoint.id,
    );
    return reply.code(201).send(webhookEndpointResource(endpoint, secret));
  });

  route(app, operations.dashboardDisableWebhookEndpoint, async (request) =>
    webhookEndpointResource(
      await onOwn(ctx, request, request.params.id, ownEndpoint, 'webhook_endpoint.disabled', (audited) =>
        disableWebhookEndpoint(audited, request.params.id),
      ),
    ),
  );

  await app.register(dashboardWebhookEndpointActionRoutes, { ctx });
  await app.register(dashboardWebhookDeliveryRoutes, { ctx, retrySender });
  await app.register(dashboardWebhookPageRoutes, { ctx });
  await app.register(dashboardWebhookFormRoutes, { ctx, retrySender });
}
