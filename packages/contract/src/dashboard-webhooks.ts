import { type Static, Type } from 'typebox';
import { IdOf } from './common.ts';
import { eventTypes } from './events.ts';
import { WebhookDelivery, webhookDeliveryStatuses } from './webhooks.ts';

/** The back office's webhooks page: what the dashboard API adds to the operator's webhook schemas. */
export const DashboardRotateSecretBody = Type.Object(
  {
    expires_in_seconds: Type.Optional(
      Type.Integer({
        minimum: 60,
        maximum: 604_800,
        default: 86_400,
        description:
          'The rotation closes by itself this long after it opens (default 24 h); close it by hand sooner',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DashboardRotateSecretBody = Static<typeof DashboardRotateSecretBody>;

export const RevealedWebhookSecret = Type.Object({
  object: Type.Literal('webhook_endpoint_secret'),
  endpoint_id: IdOf('we'),
  secret: Type.String({ description: 'The whsec_ secret that signs now (the newer one during a rotation)' }),
});

export const SearchWebhookDeliveriesQuery = Type.Object(
  {
    endpoint_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Exactly this event' })),
    event_type: Type.Optional(Type.Enum(eventTypes)),
    status: Type.Optional(Type.Enum(webhookDeliveryStatuses)),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; next_cursor: the older deliveries after it',
      }),
    ),
    before: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; previous_cursor: the newer deliveries before it (not with cursor)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SearchWebhookDeliveriesQuery = Static<typeof SearchWebhookDeliveriesQuery>;

/** A page of the dashboard's delivery log: keyset pages both ways. */
export const WebhookDeliveryLogPage = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(WebhookDelivery),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next (older) page; null on the last page',
  }),
  previous_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as before for the previous (newer) page; null on the first page',
  }),
});
