import { type EventSearchQuery, eventTypes, operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { retrieveEvent } from '../../../app/events/retrieve-event.ts';
import { exportEventsCsv, searchEvents } from '../../../app/events/search-events.ts';
import {
  dashboardEventDetailResource,
  dashboardEventResource,
} from '../../../app/resources/dashboard-event.ts';
import { browsePageResource } from '../../../app/resources/list.ts';
import { roleAllows } from '../../../domain/dashboard-roles.ts';
import { AppError, ValidationError } from '../../../domain/errors.ts';
import { route } from '../../../http/declare-route.ts';
import { t } from '../../../i18n/i18n.ts';
import { problemText } from '../../kit/problems.ts';
import { sendCsv } from '../csv-download.ts';
import { dashboardPage, html, text } from '../page-kit.ts';
import { dayBound, pageLimit } from '../payments/search.ts';
import { scopeOf } from '../scope.ts';
import { type EventsPageFilter, type EventsView, eventDetailPage, eventsPage } from './page.ts';

const FILTER_FIELDS = ['type', 'object_id', 'from', 'to', 'limit'] as const;

const isEventType = (value: string): value is NonNullable<EventSearchQuery['type']> =>
  (eventTypes as readonly string[]).includes(value);

/**
 * The page's form fields (strings) as the API's query: the same filters, the same checks (a type
 * the page has no schema for is refused here, as the API's schema refuses it).
 */
function queryOfPage(
  filter: EventsPageFilter,
  cursors: { cursor: string | undefined; before: string | undefined },
): EventSearchQuery {
  const typed = filter.type?.trim();
  if (typed && !isEventType(typed))
    throw new ValidationError('type', `must be one of ${eventTypes.join(', ')}`);
  const type = typed && isEventType(typed) ? typed : undefined;
  const limit = pageLimit(filter.limit);
  return {
    ...(type ? { type } : {}),
    ...(filter.object_id ? { object_id: filter.object_id.trim().slice(0, 64) } : {}),
    ...(filter.from ? { from: dayBound(filter.from, 'from') } : {}),
    ...(filter.to ? { to: dayBound(filter.to, 'to') } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(cursors.cursor ? { cursor: cursors.cursor } : {}),
    ...(cursors.before ? { before: cursors.before } : {}),
  };
}

/**
 * The events: the API's search (keyset pages both ways), the CSV of the same filters and one
 * event, and the pages that show them.
 */
export async function dashboardEventRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardSearchEvents, async (request) => {
    const found = await searchEvents(ctx, scopeOf(request), request.query);
    return browsePageResource(found.events.map(dashboardEventResource), found);
  });

  // A stream of CSV text, which Fastify sends as it is (the schema is there for the OpenAPI
  // document and the route table), as the payments' export.
  route(app, operations.dashboardExportEvents, async (request, reply) => {
    const scope = scopeOf(request);
    const csv = exportEventsCsv(ctx, scope, request.query);
    return sendCsv(reply, ctx.clock.now(), `events-${scope.mode}`, csv);
  });

  route(app, operations.dashboardRetrieveEvent, async (request) =>
    dashboardEventDetailResource(await retrieveEvent(ctx, scopeOf(request), request.params.id)),
  );

  dashboardPage(app, ctx, '/dashboard/:mode/events', async (request, reply, { scope, frame: frameOf }) => {
    const frame = await frameOf(`/dashboard/${scope.mode}/events`, t(scope.locale).events);
    const filter: EventsPageFilter = {};
    for (const field of FILTER_FIELDS) {
      const value = text(request.query, field);
      if (value !== undefined) filter[field] = value;
    }
    let view: EventsView;
    try {
      const query = queryOfPage(filter, {
        cursor: text(request.query, 'cursor'),
        before: text(request.query, 'before'),
      });
      const found = await searchEvents(ctx, scope, query);
      const { cursor: _next, before: _previous, limit: _limit, ...filtered } = query;
      view = {
        events: found.events.map(dashboardEventResource),
        nextCursor: found.nextCursor,
        previousCursor: found.previousCursor,
        exportQuery: Object.fromEntries(Object.entries(filtered).map(([k, v]) => [k, String(v)])),
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return html(
        reply,
        eventsPage(frame, filter, { error: problemText(scope.locale, error) }),
        error.status,
      );
    }
    return html(reply, eventsPage(frame, filter, view));
  });

  dashboardPage<{ Params: { id: string } }>(
    app,
    ctx,
    '/dashboard/:mode/events/:id',
    async (request, reply, { scope, frame: frameOf }) => {
      const { id } = request.params;
      const event = dashboardEventDetailResource(await retrieveEvent(ctx, scope, id));
      const frame = await frameOf(`/dashboard/${scope.mode}/events/${id}`, event.type);
      return html(reply, eventDetailPage(frame, event, roleAllows(scope.role, 'operate')));
    },
  );
}
