import { eventTypes, webhookDeliveryStatuses } from '@paygate/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { webhookDeliveryResource, webhookEndpointResource } from '../../../app/resources/operator.ts';
import { tenantDelivery, tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { listTenantWebhookEndpoints } from '../../../app/webhooks/list-webhook-endpoints.ts';
import { searchDeliveryLog } from '../../../app/webhooks/search-delivery-log.ts';
import { pickLanguage } from '../../../dashboard/i18n.ts';
import {
  type DeliveryLogFilter,
  webhookDeliveryPage,
  webhookEndpointPage,
  webhooksPage,
} from '../../../dashboard/webhooks-pages.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import type { DeliveryStatus } from '../../../storage/repositories/webhook-deliveries.ts';
import { frameOf, html, isMode, signedIn, text } from './page-kit.ts';

const isStatus = (value: string): value is DeliveryStatus =>
  (webhookDeliveryStatuses as readonly string[]).includes(value);

/** A search value the log cannot hold, said in the page rather than silently matching nothing. */
function filterProblem(filter: DeliveryLogFilter): string | null {
  if (filter.status !== undefined && !isStatus(filter.status))
    return `status must be one of ${webhookDeliveryStatuses.join(', ')}`;
  if (filter.event_type !== undefined && !(eventTypes as readonly string[]).includes(filter.event_type))
    return `event_type must be one of ${eventTypes.join(', ')}`;
  return null;
}

/**
 * The language, mode and signed-in user of a webhooks page; null once the reply is sent (404 for
 * a mode that is neither test nor live, else the redirect to sign-in).
 */
async function pageCaller(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { mode: string } }>,
  reply: FastifyReply,
) {
  const lang = pickLanguage(request.query, request.headers['accept-language']);
  const { mode } = request.params;
  if (!isMode(mode)) {
    await reply.code(404).type('text/plain').send('not found');
    return null;
  }
  const found = await signedIn(ctx, request, reply, lang);
  if (!found) return null;
  return { lang, mode, found, scope: { merchantId: found.user.merchant_id, livemode: mode === 'live' } };
}

/** The webhooks pages: endpoints and the delivery log, one endpoint, one delivery. */
export async function dashboardWebhookPageRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  app.get<{ Params: { mode: string } }>('/dashboard/:mode/webhooks', async (request, reply) => {
    const signed = await pageCaller(ctx, request, reply);
    if (!signed) return reply;
    const { lang, mode, found, scope } = signed;
    const endpoints = (await listTenantWebhookEndpoints(ctx, scope)).map((e) => webhookEndpointResource(e));
    const filter: DeliveryLogFilter = {
      endpoint_id: text(request.query, 'endpoint_id'),
      event_id: text(request.query, 'event_id'),
      event_type: text(request.query, 'event_type'),
      status: text(request.query, 'status'),
    };
    const problem = filterProblem(filter);
    const log = problem
      ? { filter, error: problem }
      : {
          filter,
          deliveries: (
            await searchDeliveryLog(ctx, scope, {
              endpointId: filter.endpoint_id,
              eventId: filter.event_id,
              eventType: filter.event_type,
              status: filter.status !== undefined && isStatus(filter.status) ? filter.status : undefined,
            })
          ).map(webhookDeliveryResource),
        };
    const frame = frameOf(lang, `/dashboard/${mode}/webhooks`, mode, found);
    return html(
      reply,
      webhooksPage(frame, endpoints, roleAllows(found.user.role, 'operate'), log),
      problem ? 400 : 200,
    );
  });

  app.get<{ Params: { mode: string; id: string } }>(
    '/dashboard/:mode/webhooks/:id',
    async (request, reply) => {
      const signed = await pageCaller(ctx, request, reply);
      if (!signed) return reply;
      const { lang, mode, found, scope } = signed;
      const { id } = request.params;
      const endpoint = await tenantEndpoint(ctx, scope, id);
      const frame = frameOf(lang, `/dashboard/${mode}/webhooks/${id}`, mode, found);
      return html(
        reply,
        webhookEndpointPage(
          { ...frame, title: endpoint.url },
          webhookEndpointResource(endpoint),
          roleAllows(found.user.role, 'operate'),
        ),
      );
    },
  );

  app.get<{ Params: { mode: string; id: string } }>(
    '/dashboard/:mode/webhooks/deliveries/:id',
    async (request, reply) => {
      const signed = await pageCaller(ctx, request, reply);
      if (!signed) return reply;
      const { lang, mode, found, scope } = signed;
      const { id } = request.params;
      const delivery = await tenantDelivery(ctx, scope, id);
      const endpoint = await tenantEndpoint(ctx, scope, delivery.delivery.endpointId);
      const frame = frameOf(lang, `/dashboard/${mode}/webhooks/deliveries/${id}`, mode, found);
      return html(
        reply,
        webhookDeliveryPage(
          { ...frame, title: id },
          webhookDeliveryResource(delivery),
          endpoint.url,
          roleAllows(found.user.role, 'operate'),
        ),
      );
    },
  );
}
