import { type Static, Type } from 'typebox';
import { IdOf, Livemode, Timestamp } from './common.ts';

// A merchant's own accounts at external gateways (Stripe, Adyen), added by the operator. Which
// credential and setting fields a connector takes is checked by the server per connector, with
// the field named in the problem (`credentials.secret_key`, `settings.merchant_account`).

const FieldValues = (description: string) =>
  Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.String({ maxLength: 2000 }), {
    maxProperties: 20,
    description,
  });

export const GatewayAccountCredentials = FieldValues(
  'Secret values, by field name: sealed at rest, never returned (stripe: secret_key, webhook_secret; adyen: api_key, hmac_key)',
);

export const CreateGatewayAccountBody = Type.Object(
  {
    livemode: Livemode,
    connector: Type.String({ minLength: 1, maxLength: 40, description: 'stripe or adyen' }),
    gateway_id: Type.String({
      pattern: '^[a-z][a-z0-9_-]{0,39}$',
      description:
        'The name the merchant passes as gateway_id when it creates a payment intent; unique per merchant and mode',
    }),
    credentials: GatewayAccountCredentials,
    settings: Type.Optional(
      FieldValues(
        'Values that are not secret (stripe: api_url, hosted_fields_url; adyen: merchant_account, api_url (required in live), hosted_fields_url)',
      ),
    ),
  },
  { additionalProperties: false },
);
export type CreateGatewayAccountBody = Static<typeof CreateGatewayAccountBody>;

export const RotateGatewayAccountCredentialsBody = Type.Object(
  { credentials: GatewayAccountCredentials },
  { additionalProperties: false },
);
export type RotateGatewayAccountCredentialsBody = Static<typeof RotateGatewayAccountCredentialsBody>;

export const gatewayAccountStatuses = ['enabled', 'disabled'] as const;

export const GatewayAccount = Type.Object({
  id: IdOf('gwa'),
  object: Type.Literal('gateway_account'),
  merchant_id: IdOf('acct'),
  livemode: Livemode,
  connector: Type.String(),
  gateway_id: Type.String(),
  status: Type.Enum(gatewayAccountStatuses, {
    description:
      'disabled: no new payment goes through it; payments already made are still refunded and settled',
  }),
  settings: Type.Record(Type.String(), Type.String()),
  credentials_hint: Type.Record(Type.String(), Type.String(), {
    description: 'The last four characters of each credential (… alone for a short one)',
  }),
  notification_url: Type.String({
    description:
      "Where to point the gateway's webhooks for this account (Stripe endpoint, Adyen standard notification)",
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const GatewayAccountList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(GatewayAccount),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

export const GatewayAccountIdParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    account_id: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
