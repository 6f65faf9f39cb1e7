import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { revealWebhookSecret, tenantEndpoint } from '../../../app/dashboard-webhooks.ts';
import { webhookEndpointResource } from '../../../app/resources/operator.ts';
import { sendTestWebhookEvent } from '../../../app/send-test-webhook-event.ts';
import { updateWebhookEndpoint } from '../../../app/update-webhook-endpoint.ts';
import {
  closeWebhookRotation,
  DEFAULT_ROTATION_SECONDS,
  enableEndpoint,
  resendFailedDeliveries,
  rotateWebhookSecret,
} from '../../../app/webhook-endpoints.ts';
import { auditWebhookAction, webhookScopeOf } from './webhooks.ts';

/**
 * One endpoint's actions on the webhooks page. Each checks that the endpoint is the caller's
 * (merchant and mode), calls the operator's use case for it, and records the action.
 */
export async function dashboardWebhookEndpointActionRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const retrieve = operations.dashboardRetrieveWebhookEndpoint;
  api.get(
    routePath(retrieve),
    {
      schema: { params: retrieve.params, response: { 200: retrieve.response } },
      config: { dashboard: 'read' },
    },
    async (request) =>
      webhookEndpointResource(
        await tenantEndpoint(ctx, webhookScopeOf(request, request.params.mode), request.params.id),
      ),
  );

  const update = operations.dashboardUpdateWebhookEndpoint;
  api.post(
    routePath(update),
    {
      schema: { params: update.params, body: update.body, response: { 200: update.response } },
      config: { dashboard: 'operate' },
    },
    async (request) => {
      const scope = webhookScopeOf(request, request.params.mode);
      await tenantEndpoint(ctx, scope, request.params.id);
      const endpoint = await updateWebhookEndpoint(ctx, request.params.id, {
        url: request.body.url,
        enabledEvents: request.body.enabled_events,
      });
      await auditWebhookAction(ctx, request, 'webhook_endpoint.updated', endpoint.id, scope.livemode);
      return webhookEndpointResource(endpoint);
    },
  );

  const enable = operations.dashboardEnableWebhookEndpoint;
  api.post(
    routePath(enable),
    {
      schema: { params: enable.params, response: { 200: enable.response } },
      config: { dashboard: 'operate' },
    },
    async (request) => {
      const scope = webhookScopeOf(request, request.params.mode);
      await tenantEndpoint(ctx, scope, request.params.id);
      const endpoint = await enableEndpoint(ctx, request.params.id);
      await auditWebhookAction(ctx, request, 'webhook_endpoint.enabled', endpoint.id, scope.livemode);
      return webhookEndpointResource(endpoint);
    },
  );

  const reveal = operations.dashboardRevealWebhookSecret;
  api.post(
    routePath(reveal),
    {
      schema: { params: reveal.params, response: { 200: reveal.response } },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const scope = webhookScopeOf(request, request.params.mode);
      const secret = await revealWebhookSecret(ctx, scope, request.params.id);
      await auditWebhookAction(
        ctx,
        request,
        'webhook_endpoint.secret_revealed',
        request.params.id,
        scope.livemode,
      );
      reply.header('cache-control', 'no-store');
      return { object: 'webhook_endpoint_secret' as const, endpoint_id: request.params.id, secret };
    },
  );

  const rotate = operations.dashboardRotateWebhookSecret;
  api.post(
    routePath(rotate),
    {
      schema: { params: rotate.params, body: rotate.body, response: { 200: rotate.response } },
      config: { dashboard: 'operate' },
    },
    async (request, reply) => {
      const scope = webhookScopeOf(request, request.params.mode);
      await tenantEndpoint(ctx, scope, request.params.id);
      const { endpoint, secret } = await rotateWebhookSecret(ctx, request.params.id, {
        expiresInSeconds: request.body?.expires_in_seconds ?? DEFAULT_ROTATION_SECONDS,
      });
      await auditWebhookAction(ctx, request, 'webhook_endpoint.rotation_opened', endpoint.id, scope.livemode);
      reply.header('cache-control', 'no-store');
      return webhookEndpointResource(endpoint, secret);
    },
  );

  const close = operations.dashboardCloseWebhookRotation;
  api.post(
    routePath(close),
    { schema: { params: close.params, response: { 200: close.response } }, config: { dashboard: 'operate' } },
    async (request) => {
      const scope = webhookScopeOf(request, request.params.mode);
      await tenantEndpoint(ctx, scope, request.params.id);
      const endpoint = await closeWebhookRotation(ctx, request.params.id);
      await auditWebhookAction(ctx, request, 'webhook_endpoint.rotation_closed', endpoint.id, scope.livemode);
      return webhookEndpointResource(endpoint);
    },
  );

  const resend = operations.dashboardResendFailedWebhooks;
  api.post(
    routePath(resend),
    {
      schema: { params: resend.params, body: resend.body, response: { 200: resend.response } },
      config: { dashboard: 'operate' },
    },
    async (request) => {
      const scope = webhookScopeOf(request, request.params.mode);
      await tenantEndpoint(ctx, scope, request.params.id);
      const queued = await resendFailedDeliveries(ctx, request.params.id, request.body.since);
      await auditWebhookAction(
        ctx,
        request,
        'webhook_endpoint.failed_resent',
        request.params.id,
        scope.livemode,
      );
      return { object: 'webhook_resend' as const, endpoint_id: request.params.id, queued };
    },
  );

  const sendTest = operations.dashboardSendTestWebhookEvent;
  api.post(
    routePath(sendTest),
    {
      schema: { params: sendTest.params, body: sendTest.body, response: { 200: sendTest.response } },
      config: { dashboard: 'operate' },
    },
    async (request) => {
      const scope = webhookScopeOf(request, request.params.mode);
      await tenantEndpoint(ctx, scope, request.params.id);
      const sent = await sendTestWebhookEvent(
        ctx,
        request.params.id,
        request.body?.type ?? 'payment_intent.succeeded',
      );
      await auditWebhookAction(
        ctx,
        request,
        'webhook_endpoint.test_event_sent',
        request.params.id,
        scope.livemode,
      );
      return {
        object: 'webhook_test_event' as const,
        endpoint_id: request.params.id,
        event_id: sent.eventId,
        delivery_id: sent.deliveryId,
      };
    },
  );
}
