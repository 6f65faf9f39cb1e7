import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { webhookDeliveryResource } from '../../../app/resources/operator.ts';
import { tenantDelivery } from '../../../app/webhooks/endpoint-lookups.ts';
import { retryDelivery } from '../../../app/webhooks/retry-webhook-delivery.ts';
import { searchDeliveryLog } from '../../../app/webhooks/search-delivery-log.ts';
import { createWebhookSender } from '../../../webhooks/sender.ts';
import { route } from '../../declare-route.ts';
import { onOwn } from './on-own.ts';
import { scopeOf } from './scope.ts';

/**
 * The delivery log: search, one delivery's attempts, a manual retry. A retry is attempted from
 * this process, with its own sender, exactly as the operator's retry is.
 */
export async function dashboardWebhookDeliveryRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  const sender = createWebhookSender({ testAllowsLoopback: ctx.testWebhooksAllowLoopback });
  app.addHook('onClose', () => sender.close());

  route(app, operations.dashboardSearchWebhookDeliveries, async (request) => {
    const found = await searchDeliveryLog(ctx, scopeOf(request), {
      endpointId: request.query.endpoint_id,
      eventId: request.query.event_id,
      eventType: request.query.event_type,
      status: request.query.status,
      limit: request.query.limit,
      cursor: request.query.cursor,
      before: request.query.before,
    });
    return {
      object: 'list' as const,
      data: found.deliveries.map(webhookDeliveryResource),
      has_more: found.hasMore,
      next_cursor: found.nextCursor,
      previous_cursor: found.previousCursor,
    };
  });

  route(app, operations.dashboardRetrieveWebhookDelivery, async (request) =>
    webhookDeliveryResource(await tenantDelivery(ctx, scopeOf(request), request.params.id)),
  );

  route(app, operations.dashboardRetryWebhookDelivery, async (request) =>
    webhookDeliveryResource(
      await onOwn(
        ctx,
        request,
        request.params.id,
        (scope, id) => tenantDelivery(ctx, scope, id),
        'webhook_delivery.retried',
        () => retryDelivery(ctx, sender, request.params.id, request.log),
      ),
    ),
  );
}
