import { type Static, Type } from 'typebox';
import { IdOf, Livemode, Timestamp } from './common.ts';
import { eventTypes } from './events.ts';

// The operator API for webhook endpoints and their deliveries (CONTRACT.md, "Operator interface").

export const webhookEndpointStatuses = ['enabled', 'failing', 'disabled'] as const;
export const webhookDeliveryStatuses = ['PENDING', 'DELIVERED', 'FAILED'] as const;

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'https URL (test mode: also http on a loopback host)',
    }),
    livemode: Livemode,
    enabled_events: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
        description: "Event types to receive; ['*'] (the default) means every type, also types added later",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBody>;

export const WebhookEndpoint = Type.Object({
  id: IdOf('we'),
  object: Type.Literal('webhook_endpoint'),
  merchant_id: IdOf('acct'),
  url: Type.String(),
  livemode: Livemode,
  enabled_events: Type.Array(Type.String()),
  status: Type.Enum(webhookEndpointStatuses, {
    description:
      'enabled; failing after 24 h of continuous failure; disabled after 3 days and 10 FAILED deliveries',
  }),
  failing_since: Type.Union([Timestamp, Type.Null()]),
  rotation_started_at: Type.Union([Timestamp, Type.Null()], {
    description: 'Set while a secret rotation is open (two v1 signatures are sent)',
  }),
  rotation_expires_at: Type.Union([Timestamp, Type.Null()], {
    description: 'While a rotation is open: when it closes by itself (null: only when closed by hand)',
  }),
  created_at: Timestamp,
  secret: Type.Optional(
    Type.String({ description: 'whsec_ signing secret: returned in full only at creation and rotation' }),
  ),
});

export const WebhookAttempt = Type.Object({
  attempt_number: Type.Integer({ minimum: 1 }),
  schedule_slot: Type.Union([Type.Integer({ minimum: 1, maximum: 6 }), Type.Null()], {
    description: 'Which of the six scheduled attempts this was; null for a manual attempt',
  }),
  attempted_at: Timestamp,
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  latency_ms: Type.Integer({ minimum: 0 }),
  error: Type.Union([Type.String(), Type.Null()]),
  response_excerpt: Type.Union([Type.String(), Type.Null()], { description: 'At most the first 4 KiB' }),
  request_headers: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
    description: 'The headers sent with the attempt (never its body); null on attempts recorded before 1.1',
  }),
  response_headers: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
    description: "The receiver's response headers (at most 40, 4 KiB in all); null when no response came",
  }),
});

export const WebhookDelivery = Type.Object({
  id: IdOf('wd'),
  object: Type.Literal('webhook_delivery'),
  endpoint_id: IdOf('we'),
  event_id: IdOf('evt'),
  event_type: Type.String(),
  status: Type.Enum(webhookDeliveryStatuses),
  attempts_made: Type.Integer({ minimum: 0, maximum: 6, description: 'Scheduled attempts made' }),
  next_attempt_at: Type.Union([Timestamp, Type.Null()]),
  delivered_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
  attempts: Type.Array(WebhookAttempt),
});

export const WebhookDeliveryList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(WebhookDelivery),
});

export const WebhookEndpointIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const WebhookDeliveryIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ListWebhookDeliveriesQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) },
  { additionalProperties: false },
);

export const ResendFailedBody = Type.Object(
  {
    since: Type.String({
      format: 'date-time',
      description: 'Resend FAILED deliveries created at or after this instant',
    }),
  },
  { additionalProperties: false },
);

export const ResendFailedResult = Type.Object({
  object: Type.Literal('webhook_resend'),
  endpoint_id: IdOf('we'),
  queued: Type.Integer({ minimum: 0, description: 'FAILED deliveries queued for one attempt each' }),
});

export const SendTestEventBody = Type.Object(
  {
    type: Type.Optional(
      Type.Enum(eventTypes, {
        default: 'payment_intent.succeeded',
        description: 'The event type of the sample event (default payment_intent.succeeded)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SendTestEventBody = Static<typeof SendTestEventBody>;

export const SendTestEventResult = Type.Object({
  object: Type.Literal('webhook_test_event'),
  endpoint_id: IdOf('we'),
  event_id: IdOf('evt'),
  delivery_id: IdOf('wd'),
});

/** Change where an endpoint receives events and which ones; what is not given stays as it is. */
export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(CreateWebhookEndpointBody.properties.url),
    enabled_events: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBody>;

export const WebhookEndpointList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(WebhookEndpoint),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
