import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { auditDashboardAction } from '../../../app/dashboard/audit-dashboard-action.ts';
import { browsePageResource } from '../../../app/resources/list.ts';
import { webhookDeliveryResource } from '../../../app/resources/operator.ts';
import { tenantDelivery } from '../../../app/webhooks/endpoint-lookups.ts';
import { type RetrySender, retryDelivery } from '../../../app/webhooks/retry-webhook-delivery.ts';
import { searchDeliveryLog } from '../../../app/webhooks/search-delivery-log.ts';
import { route } from '../../../http/declare-route.ts';
import { scopeOf } from '../scope.ts';

/**
 * The delivery log: search, one delivery's attempts, a manual retry. A retry is attempted from
 * this process, with the process's retry sender, exactly as the operator's retry is.
 */
export async function dashboardWebhookDeliveryRoutes(
  app: FastifyInstance,
  { ctx, retrySender: sender }: { ctx: AppContext; retrySender: RetrySender },
): Promise<void> {
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
    return browsePageResource(found.deliveries.map(webhookDeliveryResource), found);
  });

  route(app, operations.dashboardRetrieveWebhookDelivery, async (request) =>
    webhookDeliveryResource(await tenantDelivery(ctx, scopeOf(request), request.params.id)),
  );

  // The attempt is sent now, outside any transaction: the audit line goes with the claim's.
  route(app, operations.dashboardRetryWebhookDelivery, async (request) => {
    const scope = scopeOf(request);
    const { id } = request.params;
    await tenantDelivery(ctx, scope, id);
    return webhookDeliveryResource(
      await retryDelivery(ctx, sender, id, request.log, (tx) =>
        auditDashboardAction(ctx, scope, 'webhook_delivery.retried')(tx, id),
      ),
    );
  });
}
