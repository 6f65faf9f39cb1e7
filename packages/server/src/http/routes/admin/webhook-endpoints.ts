import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { listResource } from '../../../app/resources/list.ts';
import {
  webhookDeliveryResource,
  webhookEndpointResource,
  webhookResendResource,
  webhookTestEventResource,
} from '../../../app/resources/operator.ts';
import { closeWebhookRotation } from '../../../app/webhooks/close-webhook-rotation.ts';
import { createWebhookEndpoint } from '../../../app/webhooks/create-webhook-endpoint.ts';
import { disableWebhookEndpoint } from '../../../app/webhooks/disable-webhook-endpoint.ts';
import { enableEndpoint } from '../../../app/webhooks/enable-webhook-endpoint.ts';
import { listEndpointDeliveries } from '../../../app/webhooks/list-endpoint-deliveries.ts';
import { listWebhookEndpoints } from '../../../app/webhooks/list-webhook-endpoints.ts';
import { resendFailedDeliveries } from '../../../app/webhooks/resend-failed-deliveries.ts';
import { retrieveWebhookEndpoint } from '../../../app/webhooks/retrieve-webhook-endpoint.ts';
import { type RetrySender, retryDelivery } from '../../../app/webhooks/retry-webhook-delivery.ts';
import { rotateWebhookSecret } from '../../../app/webhooks/rotate-webhook-secret.ts';
import { sendTestWebhookEvent } from '../../../app/webhooks/send-test-webhook-event.ts';
import { updateWebhookEndpoint } from '../../../app/webhooks/update-webhook-endpoint.ts';
import { route } from '../../declare-route.ts';
import { creatingRoute } from './creating-route.ts';

/** The operator's webhook routes. Manual retries are sent from this process, with its retry sender. */
export async function webhookAdminRoutes(
  app: FastifyInstance,
  { ctx, retrySender: sender }: { ctx: AppContext; retrySender: RetrySender },
): Promise<void> {
  const _config = { credential: 'admin' as const, rateLimit: false };
  creatingRoute(app, ctx, operations.adminCreateWebhookEndpoint, async (request, keyed) => {
    const { endpoint, secret } = await createWebhookEndpoint(keyed, request.params.id, {
      url: request.body.url,
      livemode: request.body.livemode,
      enabledEvents: request.body.enabled_events,
    });
    return { status: 201, body: webhookEndpointResource(endpoint, secret) };
  });
  route(app, operations.adminRetrieveWebhookEndpoint, async (request) =>
    webhookEndpointResource(await retrieveWebhookEndpoint(ctx, request.params.id)),
  );
  route(app, operations.adminRotateWebhookSecret, async (request) => {
    const { endpoint, secret } = await rotateWebhookSecret(ctx, request.params.id);
    return webhookEndpointResource(endpoint, secret);
  });

  route(app, operations.adminCloseWebhookRotation, async (request) =>
    webhookEndpointResource(await closeWebhookRotation(ctx, request.params.id)),
  );
  route(app, operations.adminEnableWebhookEndpoint, async (request) =>
    webhookEndpointResource(await enableEndpoint(ctx, request.params.id)),
  );

  route(app, operations.adminListWebhookDeliveries, async (request) => {
    const deliveries = await listEndpointDeliveries(ctx, request.params.id, request.query.limit ?? 20);
    return listResource(deliveries.map(webhookDeliveryResource));
  });
  route(app, operations.adminResendFailedWebhooks, async (request) => {
    const queued = await resendFailedDeliveries(ctx, request.params.id, request.body.since);
    return webhookResendResource(request.params.id, queued);
  });
  creatingRoute(app, ctx, operations.adminSendTestWebhookEvent, async (request, keyed) => {
    // No body at all is the default type (Fastify leaves the body undefined then, whatever the schema).
    const type = request.body?.type ?? 'payment_intent.succeeded';
    const sent = await sendTestWebhookEvent(keyed, request.params.id, type);
    return {
      status: 200,
      body: webhookTestEventResource(request.params.id, sent),
    };
  });
  route(app, operations.adminRetryWebhookDelivery, async (request) =>
    webhookDeliveryResource(await retryDelivery(ctx, sender, request.params.id, request.log)),
  );
}

/** Listing, changing and disabling endpoints (the operator's "delete": the history stays). */
export async function webhookEndpointManagementRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const _config = { credential: 'admin' as const, rateLimit: false };

  route(app, operations.adminListWebhookEndpoints, async (request) => {
    const page = await listWebhookEndpoints(ctx, request.params.id, request.query);
    return { ...page, data: page.data.map((endpoint) => webhookEndpointResource(endpoint)) };
  });

  route(app, operations.adminUpdateWebhookEndpoint, async (request) =>
    webhookEndpointResource(
      await updateWebhookEndpoint(ctx, request.params.id, {
        url: request.body.url,
        enabledEvents: request.body.enabled_events,
      }),
    ),
  );

  route(app, operations.adminDisableWebhookEndpoint, async (request) =>
    webhookEndpointResource(await disableWebhookEndpoint(ctx, request.params.id)),
  );
}
