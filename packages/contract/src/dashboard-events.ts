import { type Static, Type } from 'typebox';
import { IdOf, Livemode, Timestamp } from './common.ts';
import { DashboardModeAndIdParams, DashboardModeParams } from './dashboard.ts';
import { eventTypes } from './events.ts';
import type { Operation } from './operations.ts';
import { webhookDeliveryStatuses } from './webhooks.ts';

export const EVENT_SEARCH_DEFAULT_LIMIT = 50;
export const EVENT_SEARCH_MAX_LIMIT = 100;

/** The filters of the events page, its API and its CSV export (one set, one meaning). */
export const EventSearchFilters = {
  type: Type.Optional(Type.Enum(eventTypes)),
  object_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        "Events about this resource; a payment intent's id also finds the events of its refunds and disputes",
    }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after (inclusive)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before (exclusive)' })),
};

export const EventSearchQuery = Type.Object(
  {
    ...EventSearchFilters,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: EVENT_SEARCH_MAX_LIMIT, default: EVENT_SEARCH_DEFAULT_LIMIT }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; next_cursor: the older events after it',
      }),
    ),
    before: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; previous_cursor: the newer events before it (not with cursor)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventSearchQuery = Static<typeof EventSearchQuery>;

export const EventExportQuery = Type.Object(EventSearchFilters, { additionalProperties: false });

const eventFields = {
  id: IdOf('evt'),
  object: Type.Literal('event'),
  type: Type.String(),
  livemode: Livemode,
  object_id: Type.String({ description: 'The resource the event is about (its data.object.id)' }),
  payment_intent_id: Type.Union([IdOf('pi'), Type.Null()], {
    description: 'The payment the resource belongs to (the intent itself, or a refund’s or dispute’s)',
  }),
  created_at: Timestamp,
};

/** How an event's deliveries stand, counted per state over the endpoints it was queued for. */
export const EventDeliveryCounts = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Endpoints the event was queued for' }),
  delivered: Type.Integer({ minimum: 0 }),
  pending: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
});

export const DashboardEvent = Type.Object({ ...eventFields, deliveries: EventDeliveryCounts });

/** A page of the dashboard's events: keyset pages both ways, as the delivery log. */
export const DashboardEventList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(DashboardEvent),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next (older) page; null on the last page',
  }),
  previous_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as before for the previous (newer) page; null on the first page',
  }),
});

/** One event: its payload as delivered, and its delivery to each endpoint. */
export const DashboardEventDetail = Type.Object({
  ...eventFields,
  payload: Type.String({ description: 'The exact JSON text that was signed and delivered' }),
  deliveries: Type.Array(
    Type.Object({
      id: IdOf('wd'),
      endpoint_id: IdOf('we'),
      endpoint_url: Type.String(),
      status: Type.Enum(webhookDeliveryStatuses),
      attempt_count: Type.Integer({ minimum: 0 }),
      delivered_at: Type.Union([Timestamp, Type.Null()]),
    }),
  ),
});

export const EventCsv = Type.String({
  description:
    'RFC 4180 CSV, streamed: a header line, then one line per event, newest first, with its delivery counts; a cell that a spreadsheet would read as a formula starts with an apostrophe.',
});

const eventsPath = '/dashboard/api/v1/{mode}/events';

/** The events page's operations: the mode's events, searched, exported and one by one. */
export const dashboardEventOperations = {
  dashboardSearchEvents: {
    method: 'GET',
    path: eventsPath,
    summary: 'The events of this mode, newest first, searched by type, resource and creation time',
    credential: 'session',
    dashboardAccess: 'read',
    params: DashboardModeParams,
    querystring: EventSearchQuery,
    response: DashboardEventList,
    tag: 'Dashboard',
  },
  dashboardExportEvents: {
    method: 'GET',
    path: `${eventsPath}/export.csv`,
    summary: 'Every event the same filters find, as CSV (streamed)',
    credential: 'session',
    dashboardAccess: 'read',
    params: DashboardModeParams,
    querystring: EventExportQuery,
    response: EventCsv,
    responseMediaType: 'text/csv',
    tag: 'Dashboard',
  },
  dashboardRetrieveEvent: {
    method: 'GET',
    path: `${eventsPath}/{id}`,
    summary: 'One event with its payload as delivered and its delivery to each endpoint',
    credential: 'session',
    dashboardAccess: 'read',
    params: DashboardModeAndIdParams,
    response: DashboardEventDetail,
    tag: 'Dashboard',
  },
} satisfies Record<string, Operation>;
