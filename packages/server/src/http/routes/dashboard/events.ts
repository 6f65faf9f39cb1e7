import { Readable } from 'node:stream';
import { operations } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app/context.ts';
import { retrieveEvent } from '../../../app/events/retrieve-event.ts';
import { exportEventsCsv, searchEvents } from '../../../app/events/search-events.ts';
import {
  dashboardEventDetailResource,
  dashboardEventResource,
} from '../../../app/resources/dashboard-event.ts';
import { route } from '../../declare-route.ts';
import { scopeOf } from './scope.ts';

/** The events API: search (keyset pages both ways), the CSV of the same filters, one event. */
export async function dashboardEventRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  route(app, operations.dashboardSearchEvents, async (request) => {
    const found = await searchEvents(ctx, scopeOf(request), request.query);
    return {
      object: 'list' as const,
      data: found.events.map(dashboardEventResource),
      has_more: found.hasMore,
      next_cursor: found.nextCursor,
      previous_cursor: found.previousCursor,
    };
  });

  // A stream of CSV text, which Fastify sends as it is (the schema is there for the OpenAPI
  // document and the route table), as the payments' export.
  route(app, operations.dashboardExportEvents, async (request, reply) => {
    const scope = scopeOf(request);
    const csv = exportEventsCsv(ctx, scope, request.query);
    const stamp = ctx.clock.now().toISOString().slice(0, 19).replaceAll(':', '');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="events-${scope.mode}-${stamp}.csv"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(Readable.from(csv));
  });

  route(app, operations.dashboardRetrieveEvent, async (request) =>
    dashboardEventDetailResource(await retrieveEvent(ctx, scopeOf(request), request.params.id)),
  );
}
