import { eventTypes, webhookDeliveryStatuses } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { webhookDeliveryResource, webhookEndpointResource } from '../../../app/resources/operator.ts';
import { tenantDelivery, tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { listTenantWebhookEndpoints } from '../../../app/webhooks/list-webhook-endpoints.ts';
import { searchDeliveryLog } from '../../../app/webhooks/search-delivery-log.ts';
import { fill, type Language, t } from '../../../dashboard/i18n.ts';
import { problemText } from '../../../dashboard/problems.ts';
import {
  type DeliveryLogFilter,
  type DeliveryLogView,
  webhookDeliveryPage,
  webhookEndpointPage,
  webhooksPage,
} from '../../../dashboard/webhooks-pages.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { ValidationError } from '../../../domain/errors.ts';
import { dashboardPage, html, text } from './page-kit.ts';

type DeliveryStatus = (typeof webhookDeliveryStatuses)[number];

const isStatus = (value: string): value is DeliveryStatus =>
  (webhookDeliveryStatuses as readonly string[]).includes(value);

/** A search value the log cannot hold, said in the page rather than silently matching nothing. */
function filterProblem(filter: DeliveryLogFilter, lang: Language): string | null {
  const m = t(lang);
  const oneOf = (field: string, values: readonly string[]) =>
    fill(m.problemField, { field, message: fill(m.problemOneOf, { values: values.join(', ') }) });
  if (filter.status !== undefined && !isStatus(filter.status))
    return oneOf(m.state.toLowerCase(), webhookDeliveryStatuses);
  if (filter.event_type !== undefined && !(eventTypes as readonly string[]).includes(filter.event_type))
    return oneOf(m.type.toLowerCase(), eventTypes);
  if (filter.limit !== undefined && !/^([1-9]\d?|100)$/.test(filter.limit))
    return fill(m.problemField, { field: 'limit', message: '1 – 100' });
  return null;
}

/** The webhooks pages: endpoints and the delivery log, one endpoint, one delivery. */
export async function dashboardWebhookPageRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  dashboardPage(app, ctx, '/dashboard/:mode/webhooks', async (request, reply, { scope, frame: frameOf }) => {
    const endpoints = (await listTenantWebhookEndpoints(ctx, scope)).map((e) => webhookEndpointResource(e));
    const filter: DeliveryLogFilter = {
      endpoint_id: text(request.query, 'endpoint_id'),
      event_id: text(request.query, 'event_id'),
      event_type: text(request.query, 'event_type'),
      status: text(request.query, 'status'),
      limit: text(request.query, 'limit'),
    };
    let log: DeliveryLogView;
    const problem = filterProblem(filter, scope.locale);
    if (problem) log = { filter, error: problem };
    else
      try {
        const found = await searchDeliveryLog(ctx, scope, {
          endpointId: filter.endpoint_id,
          eventId: filter.event_id,
          eventType: filter.event_type,
          status: filter.status !== undefined && isStatus(filter.status) ? filter.status : undefined,
          limit: filter.limit === undefined ? undefined : Number(filter.limit),
          cursor: text(request.query, 'cursor'),
          before: text(request.query, 'before'),
        });
        log = {
          filter,
          deliveries: found.deliveries.map(webhookDeliveryResource),
          previous: found.previousCursor,
          next: found.nextCursor,
        };
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        log = { filter, error: problemText(scope.locale, error) };
      }
    const frame = await frameOf(`/dashboard/${scope.mode}/webhooks`, t(scope.locale).webhooks);
    return html(
      reply,
      webhooksPage(frame, endpoints, roleAllows(scope.role, 'operate'), log),
      'error' in log ? 400 : 200,
    );
  });

  dashboardPage<{ Params: { id: string } }>(
    app,
    ctx,
    '/dashboard/:mode/webhooks/:id',
    async (request, reply, { scope, frame: frameOf }) => {
      const { id } = request.params;
      const endpoint = await tenantEndpoint(ctx, scope, id);
      const frame = await frameOf(`/dashboard/${scope.mode}/webhooks/${id}`, endpoint.url);
      return html(
        reply,
        webhookEndpointPage(
          frame,
          webhookEndpointResource(endpoint),
          roleAllows(scope.role, 'operate'),
          text(request.query, 'disabled') === '1',
        ),
      );
    },
  );

  dashboardPage<{ Params: { id: string } }>(
    app,
    ctx,
    '/dashboard/:mode/webhooks/deliveries/:id',
    async (request, reply, { scope, frame: frameOf }) => {
      const { id } = request.params;
      const delivery = await tenantDelivery(ctx, scope, id);
      const endpoint = await tenantEndpoint(ctx, scope, delivery.delivery.endpointId);
      const frame = await frameOf(`/dashboard/${scope.mode}/webhooks/deliveries/${id}`, id);
      return html(
        reply,
        webhookDeliveryPage(
          frame,
          webhookDeliveryResource(delivery),
          endpoint.url,
          roleAllows(scope.role, 'operate'),
        ),
      );
    },
  );
}
