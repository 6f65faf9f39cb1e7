import { eventTypes, webhookDeliveryStatuses } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { webhookDeliveryResource, webhookEndpointResource } from '../../../app/resources/operator.ts';
import { tenantDelivery, tenantEndpoint } from '../../../app/webhooks/endpoint-lookups.ts';
import { listTenantWebhookEndpoints } from '../../../app/webhooks/list-webhook-endpoints.ts';
import { searchDeliveryLog } from '../../../app/webhooks/search-delivery-log.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { ValidationError } from '../../../domain/errors.ts';
import { fill, type Language, t } from '../../../i18n/i18n.ts';
import { countOf } from '../../kit/format.ts';
import { problemText } from '../../kit/problems.ts';
import { statusLabel } from '../../kit/status-badge.ts';
import { dashboardPage, html, pageFrame, text } from '../page-kit.ts';
import type { DashboardScope } from '../scope.ts';
import {
  type DeliveryLogFilter,
  type DeliveryLogView,
  type FormOutcome,
  type RefusedForm,
  webhookDeliveryPage,
  webhookEndpointPage,
  webhooksPage,
} from './page.ts';

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

/** The webhooks page of `scope`'s mode, its delivery log searched by `query`; status 400 for a bad search. */
export async function webhooksPageOf(
  ctx: AppContext,
  scope: DashboardScope,
  query: unknown,
  outcome: FormOutcome = {},
): Promise<{ body: string; status: number }> {
  const endpoints = (await listTenantWebhookEndpoints(ctx, scope)).map((e) => webhookEndpointResource(e));
  const filter: DeliveryLogFilter = {
    endpoint_id: text(query, 'endpoint_id'),
    event_id: text(query, 'event_id'),
    event_type: text(query, 'event_type'),
    status: text(query, 'status'),
    limit: text(query, 'limit'),
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
        cursor: text(query, 'cursor'),
        before: text(query, 'before'),
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
  const frame = await pageFrame(ctx, scope, `/dashboard/${scope.mode}/webhooks`, t(scope.locale).webhooks);
  return {
    body: webhooksPage(frame, endpoints, roleAllows(scope.role, 'operate'), log, outcome),
    status: 'error' in log ? 400 : 200,
  };
}

/**
 * The status line of an endpoint page reached by an action's redirect: said only when the
 * endpoint is in the state the action left it in (a hand-made link claims nothing).
 */
function endpointNotice(
  scope: DashboardScope,
  e: ReturnType<typeof webhookEndpointResource>,
  query: unknown,
) {
  const m = t(scope.locale);
  const resent = text(query, 'resent');
  if (text(query, 'disabled') === '1' && e.status === 'disabled') return m.endpointDisabledNotice;
  if (text(query, 'enabled') === '1' && e.status !== 'disabled') return m.endpointEnabledNotice;
  if (text(query, 'saved') === '1') return fill(m.endpointSavedNotice, { url: e.url });
  if (text(query, 'rotated') === '1' && e.rotation_started_at) return m.rotationOpenedNotice;
  if (text(query, 'rotation_closed') === '1' && !e.rotation_started_at) return m.rotationClosedNotice;
  if (resent !== undefined && /^\d{1,9}$/.test(resent))
    return countOf(scope.locale, Number(resent), m.resentNoticeOne, m.resentNoticeOther);
  return undefined;
}

/** One endpoint's page: its status line from `query`, or a form refused. */
export async function endpointPageOf(
  ctx: AppContext,
  scope: DashboardScope,
  id: string,
  query: unknown,
  refused?: RefusedForm,
): Promise<string> {
  const endpoint = webhookEndpointResource(await tenantEndpoint(ctx, scope, id));
  const frame = await pageFrame(ctx, scope, `/dashboard/${scope.mode}/webhooks/${endpoint.id}`, endpoint.url);
  return webhookEndpointPage(frame, endpoint, roleAllows(scope.role, 'operate'), {
    notice: refused ? undefined : endpointNotice(scope, endpoint, query),
    refused,
  });
}

/** One delivery's page: the status line of a test event or a retry, or the retry refused. */
export async function deliveryPageOf(
  ctx: AppContext,
  scope: DashboardScope,
  id: string,
  query: unknown,
  refused?: RefusedForm,
): Promise<string> {
  const m = t(scope.locale);
  const delivery = webhookDeliveryResource(await tenantDelivery(ctx, scope, id));
  const endpoint = await tenantEndpoint(ctx, scope, delivery.endpoint_id);
  const frame = await pageFrame(
    ctx,
    scope,
    `/dashboard/${scope.mode}/webhooks/deliveries/${delivery.id}`,
    delivery.id,
  );
  const notice =
    text(query, 'test_event') === '1'
      ? fill(m.testSentNotice, { event: delivery.event_id })
      : text(query, 'retried') === '1'
        ? fill(m.retriedNotice, { status: statusLabel(delivery.status, scope.locale) })
        : undefined;
  return webhookDeliveryPage(frame, delivery, endpoint.url, roleAllows(scope.role, 'operate'), {
    notice: refused ? undefined : notice,
    refused,
  });
}

/** The webhooks pages: endpoints and the delivery log, one endpoint, one delivery. */
export async function dashboardWebhookPageRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  dashboardPage(app, ctx, '/dashboard/:mode/webhooks', async (request, reply, { scope }) => {
    const shown = await webhooksPageOf(ctx, scope, request.query);
    return html(reply, shown.body, shown.status);
  });

  dashboardPage<{ Params: { id: string } }>(
    app,
    ctx,
    '/dashboard/:mode/webhooks/:id',
    async (request, reply, { scope }) =>
      html(reply, await endpointPageOf(ctx, scope, request.params.id, request.query)),
  );

  dashboardPage<{ Params: { id: string } }>(
    app,
    ctx,
    '/dashboard/:mode/webhooks/deliveries/:id',
    async (request, reply, { scope }) =>
      html(reply, await deliveryPageOf(ctx, scope, request.params.id, request.query)),
  );
}
