import { type Static, Type } from 'typebox';
import { IdOf, Timestamp } from './common.ts';
import { CreateWebhookEndpointBody, WebhookEndpoint } from './webhooks.ts';

/** The merchant back office's API (cookie session; every change also carries X-CSRF-Token). */
export const DashboardRole = Type.Union([
  Type.Literal('owner'),
  Type.Literal('developer'),
  Type.Literal('viewer'),
]);

export const DashboardModeParams = Type.Object(
  {
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')], {
      description: 'Which data: test or live',
    }),
  },
  { additionalProperties: false },
);
export const DashboardModeAndIdParams = Type.Object(
  {
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    id: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);

export const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
    totp_code: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'With two-step sign-in on: the authenticator code, or one recovery code',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

export const DashboardSession = Type.Object({
  object: Type.Literal('dashboard_session'),
  user: Type.Object({
    id: IdOf('usr'),
    email: Type.String(),
    role: DashboardRole,
    merchant_id: IdOf('acct'),
  }),
  csrf_token: Type.String({ description: 'Send back in X-CSRF-Token on every POST' }),
  expires_at: Timestamp,
});

export const AcceptInvitationBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 100 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);

export const InviteUserBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), role: DashboardRole },
  { additionalProperties: false },
);
export const InviteOwnerBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }) },
  { additionalProperties: false },
);

export const Invitation = Type.Object({
  object: Type.Literal('dashboard_invitation'),
  email: Type.String(),
  role: DashboardRole,
  expires_at: Timestamp,
  token: Type.String({ description: 'Shown once: the invitee accepts with it and sets a password' }),
  accept_url: Type.String({
    description:
      'The link to give the invitee: the accept page with the token in its #fragment (never sent to a server)',
  }),
});

export const DashboardUserList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({ id: IdOf('usr'), email: Type.String(), role: DashboardRole, created_at: Timestamp }),
  ),
});

export const AuditLogQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; next_cursor: the older entries after it',
      }),
    ),
    before: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; previous_cursor: the newer entries before it (not with cursor)',
      }),
    ),
    action: Type.Optional(
      Type.String({ maxLength: 100, description: 'Only this action, e.g. refund.created' }),
    ),
    user_email: Type.Optional(Type.String({ maxLength: 254, description: 'Only what this user did' })),
    created_gte: Type.Optional(
      Type.String({ maxLength: 40, description: 'From this date (YYYY-MM-DD, UTC) or time on' }),
    ),
    created_lt: Type.Optional(
      Type.String({
        maxLength: 40,
        description: 'Before this date (YYYY-MM-DD, UTC: that whole day is excluded) or time',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The audit log's CSV export: the page's and the API's filters, without the paging. */
export const AuditLogExportQuery = Type.Omit(AuditLogQuery, ['limit', 'cursor', 'before'], {
  additionalProperties: false,
});

export const AuditLogCsv = Type.String({
  description:
    'RFC 4180 CSV, streamed: a header line, then one line per entry, newest first (user_email empty: the operator); a cell that a spreadsheet would read as a formula starts with an apostrophe.',
});

export const AuditLog = Type.Object({
  object: Type.Literal('list'),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next (older) page; null on the last page',
  }),
  previous_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as before for the previous (newer) page; null on the first page',
  }),
  data: Type.Array(
    Type.Object({
      id: IdOf('aud'),
      action: Type.String(),
      target: Type.Union([Type.String(), Type.Null()]),
      livemode: Type.Union([Type.Boolean(), Type.Null()]),
      user_email: Type.Union([Type.String(), Type.Null()], { description: 'null: the operator' }),
      created_at: Timestamp,
    }),
  ),
});

export const SignedOut = Type.Object({ object: Type.Literal('signed_out'), sessions_ended: Type.Integer() });

export const DashboardWebhookEndpointList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(WebhookEndpoint),
});

/** The operator's body without `livemode`: the dashboard's mode switch decides it. */
export const DashboardCreateWebhookEndpointBody = Type.Omit(CreateWebhookEndpointBody, ['livemode'], {
  additionalProperties: false,
});
