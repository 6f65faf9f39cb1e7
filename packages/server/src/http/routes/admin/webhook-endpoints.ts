import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operations, responseSchemas, routePath } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { webhookDeliveryResource, webhookEndpointResource } from '../../../app/resources/operator.ts';
import { disableWebhookEndpoint } from '../../../app/webhooks/disable-webhook-endpoint.ts';
import {
  closeWebhookRotation,
  createWebhookEndpoint,
  enableEndpoint,
  listEndpointDeliveries,
  resendFailedDeliveries,
  retrieveWebhookEndpoint,
  retryDelivery,
  rotateWebhookSecret,
} from '../../../app/webhooks/endpoints.ts';
import { listWebhookEndpoints } from '../../../app/webhooks/list-webhook-endpoints.ts';
import { sendTestWebhookEvent } from '../../../app/webhooks/send-test-webhook-event.ts';
import { updateWebhookEndpoint } from '../../../app/webhooks/update-webhook-endpoint.ts';
import { createWebhookSender, type SenderOptions } from '../../../webhooks/sender.ts';

/** The operator's webhook routes. Manual retries are sent from this process, with its own sender. */
export async function webhookAdminRoutes(
  app: FastifyInstance,
  { ctx, sender: senderOptions }: { ctx: AppContext; sender?: SenderOptions },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const sender = createWebhookSender({ testAllowsLoopback: ctx.testWebhooksAllowLoopback, ...senderOptions });
  app.addHook('onClose', () => sender.close());
  const config = { credential: 'admin' as const, rateLimit: false };

  const create = operations.adminCreateWebhookEndpoint;
  api.post(
    routePath(create),
    { schema: { params: create.params, body: create.body, response: responseSchemas(create) }, config },
    async (request, reply) => {
      const { endpoint, secret } = await createWebhookEndpoint(ctx, request.params.id, {
        url: request.body.url,
        livemode: request.body.livemode,
        enabledEvents: request.body.enabled_events,
      });
      return reply.code(201).send(webhookEndpointResource(endpoint, secret));
    },
  );

  const retrieve = operations.adminRetrieveWebhookEndpoint;
  api.get(
    routePath(retrieve),
    { schema: { params: retrieve.params, response: responseSchemas(retrieve) }, config },
    async (request) => webhookEndpointResource(await retrieveWebhookEndpoint(ctx, request.params.id)),
  );

  const rotate = operations.adminRotateWebhookSecret;
  api.post(
    routePath(rotate),
    { schema: { params: rotate.params, response: responseSchemas(rotate) }, config },
    async (request) => {
      const { endpoint, secret } = await rotateWebhookSecret(ctx, request.params.id);
      return webhookEndpointResource(endpoint, secret);
    },
  );

  const close = operations.adminCloseWebhookRotation;
  api.post(
    routePath(close),
    { schema: { params: close.params, response: responseSchemas(close) }, config },
    async (request) => webhookEndpointResource(await closeWebhookRotation(ctx, request.params.id)),
  );

  const enable = operations.adminEnableWebhookEndpoint;
  api.post(
    routePath(enable),
    { schema: { params: enable.params, response: responseSchemas(enable) }, config },
    async (request) => webhookEndpointResource(await enableEndpoint(ctx, request.params.id)),
  );

  const list = operations.adminListWebhookDeliveries;
  api.get(
    routePath(list),
    {
      schema: { params: list.params, querystring: list.querystring, response: responseSchemas(list) },
      config,
    },
    async (request) => {
      const deliveries = await listEndpointDeliveries(ctx, request.params.id, request.query.limit ?? 20);
      return { object: 'list', data: deliveries.map(webhookDeliveryResource) };
    },
  );

  const resend = operations.adminResendFailedWebhooks;
  api.post(
    routePath(resend),
    { schema: { params: resend.params, body: resend.body, response: responseSchemas(resend) }, config },
    async (request) => {
      const queued = await resendFailedDeliveries(ctx, request.params.id, request.body.since);
      return { object: 'webhook_resend', endpoint_id: request.params.id, queued };
    },
  );

  const sendTest = operations.adminSendTestWebhookEvent;
  api.post(
    routePath(sendTest),
    { schema: { params: sendTest.params, body: sendTest.body, response: responseSchemas(sendTest) }, config },
    async (request) => {
      const type = request.body.type ?? 'payment_intent.succeeded';
      const sent = await sendTestWebhookEvent(ctx, request.params.id, type);
      return {
        object: 'webhook_test_event',
        endpoint_id: request.params.id,
        event_id: sent.eventId,
        delivery_id: sent.deliveryId,
      };
    },
  );

  const retry = operations.adminRetryWebhookDelivery;
  api.post(
    routePath(retry),
    { schema: { params: retry.params, response: responseSchemas(retry) }, config },
    async (request) =>
      webhookDeliveryResource(await retryDelivery(ctx, sender, request.params.id, request.log)),
  );
}

/** Listing, changing and disabling endpoints (the operator's "delete": the history stays). */
export async function webhookEndpointManagementRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { credential: 'admin' as const, rateLimit: false };

  const list = operations.adminListWebhookEndpoints;
  api.get(
    routePath(list),
    {
      schema: { params: list.params, querystring: list.querystring, response: responseSchemas(list) },
      config,
    },
    async (request) => {
      const page = await listWebhookEndpoints(ctx, request.params.id, request.query);
      return { ...page, data: page.data.map((endpoint) => webhookEndpointResource(endpoint)) };
    },
  );

  const update = operations.adminUpdateWebhookEndpoint;
  api.post(
    routePath(update),
    { schema: { params: update.params, body: update.body, response: responseSchemas(update) }, config },
    async (request) =>
      webhookEndpointResource(
        await updateWebhookEndpoint(ctx, request.params.id, {
          url: request.body.url,
          enabledEvents: request.body.enabled_events,
        }),
      ),
  );

  const disable = operations.adminDisableWebhookEndpoint;
  api.post(
    routePath(disable),
    { schema: { params: disable.params, response: responseSchemas(disable) }, config },
    async (request) => webhookEndpointResource(await disableWebhookEndpoint(ctx, request.params.id)),
  );
}
