import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import {
  webhookEndpointResource,
  webhookEndpointSecretResource,
  webhookResendResource,
  webhookTestEventResource,
} from '../../../app/resources/operator.ts';
import { closeWebhookRotation } from '../../../app/webhooks/close-webhook-rotation.ts';
import { enableEndpoint } from '../../../app/webhooks/enable-webhook-endpoint.ts';
import { tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { resendFailedDeliveries } from '../../../app/webhooks/resend-failed-deliveries.ts';
import { revealWebhookSecret } from '../../../app/webhooks/reveal-webhook-secret.ts';
import {
  DEFAULT_ROTATION_SECONDS,
  rotateWebhookSecret,
} from '../../../app/webhooks/rotate-webhook-secret.ts';
import { sendTestWebhookEvent } from '../../../app/webhooks/send-test-webhook-event.ts';
import { updateWebhookEndpoint } from '../../../app/webhooks/update-webhook-endpoint.ts';
import type { TenantScope } from '../../../domain/tenant.ts';
import { route } from '../../../http/declare-route.ts';
import { onOwn } from '../on-own.ts';
import { scopeOf } from '../scope.ts';

/**
 * One endpoint's actions on the webhooks page. Each checks that the endpoint is the caller's
 * (merchant and mode), calls the operator's use case for it, and records the action.
 */
export async function dashboardWebhookEndpointActionRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  endpointStateRoutes(app, ctx);
  endpointSecretRoutes(app, ctx);
  endpointDeliveryRoutes(app, ctx);
}

const own = (ctx: AppContext) => (scope: TenantScope, id: string) => tenantEndpoint(ctx, scope, id);

/** One endpoint: read, change, enable. */
function endpointStateRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, operations.dashboardRetrieveWebhookEndpoint, async (request) =>
    webhookEndpointResource(await own(ctx)(scopeOf(request), request.params.id)),
  );

  route(app, operations.dashboardUpdateWebhookEndpoint, async (request) =>
    webhookEndpointResource(
      await onOwn(ctx, request, request.params.id, own(ctx), 'webhook_endpoint.updated', (audited) =>
        updateWebhookEndpoint(audited, request.params.id, {
          url: request.body.url,
          enabledEvents: request.body.enabled_events,
        }),
      ),
    ),
  );

  route(app, operations.dashboardEnableWebhookEndpoint, async (request) =>
    webhookEndpointResource(
      await onOwn(ctx, request, request.params.id, own(ctx), 'webhook_endpoint.enabled', (audited) =>
        enableEndpoint(audited, request.params.id),
      ),
    ),
  );
}

/** Its signing secret: revealed, rotated, the rotation closed (answered no-store). */
function endpointSecretRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, operations.dashboardRevealWebhookSecret, async (request, reply) => {
    const secret = await onOwn(
      ctx,
      request,
      request.params.id,
      own(ctx),
      'webhook_endpoint.secret_revealed',
      (audited) => revealWebhookSecret(audited, scopeOf(request), request.params.id),
    );
    reply.header('cache-control', 'no-store');
    return webhookEndpointSecretResource(request.params.id, secret);
  });

  route(app, operations.dashboardRotateWebhookSecret, async (request, reply) => {
    const { endpoint, secret } = await onOwn(
      ctx,
      request,
      request.params.id,
      own(ctx),
      'webhook_endpoint.rotation_opened',
      (audited) =>
        rotateWebhookSecret(audited, request.params.id, {
          expiresInSeconds: request.body?.expires_in_seconds ?? DEFAULT_ROTATION_SECONDS,
        }),
    );
    reply.header('cache-control', 'no-store');
    return webhookEndpointResource(endpoint, secret);
  });

  route(app, operations.dashboardCloseWebhookRotation, async (request) =>
    webhookEndpointResource(
      await onOwn(ctx, request, request.params.id, own(ctx), 'webhook_endpoint.rotation_closed', (audited) =>
        closeWebhookRotation(audited, request.params.id),
      ),
    ),
  );
}

/** Its deliveries: the failed resent, a test event sent. */
function endpointDeliveryRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, operations.dashboardResendFailedWebhooks, async (request) => {
    const queued = await onOwn(
      ctx,
      request,
      request.params.id,
      own(ctx),
      'webhook_endpoint.failed_resent',
      (audited) => resendFailedDeliveries(audited, request.params.id, request.body.since),
    );
    return webhookResendResource(request.params.id, queued);
  });

  route(app, operations.dashboardSendTestWebhookEvent, async (request) => {
    const sent = await onOwn(
      ctx,
      request,
      request.params.id,
      own(ctx),
      'webhook_endpoint.test_event_sent',
      (audited) =>
        sendTestWebhookEvent(audited, request.params.id, request.body?.type ?? 'payment_intent.succeeded'),
    );
    return webhookTestEventResource(request.params.id, sent);
  });
}
