import { type Static, Type } from 'typebox';
import { IdOf, Livemode, Timestamp } from './common.ts';

export const apiKeyPermissions = [
  'payment_intents:read',
  'payment_intents:write',
  'refunds:read',
  'refunds:write',
  'transactions:read',
] as const;
export type ApiKeyPermission = (typeof apiKeyPermissions)[number];

export const CreateMerchantBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const MerchantWithKeys = Type.Object({
  id: IdOf('acct'),
  object: Type.Literal('merchant'),
  name: Type.String(),
  created_at: Timestamp,
  api_keys: Type.Object({
    secret_test: Type.String(),
    publishable_test: Type.String(),
    secret_live: Type.String(),
    publishable_live: Type.String(),
  }),
});

export const CreateApiKeyBody = Type.Object(
  {
    livemode: Livemode,
    kind: Type.Union([Type.Literal('secret'), Type.Literal('publishable')]),
    permissions: Type.Optional(Type.Array(Type.Enum(apiKeyPermissions), { minItems: 1, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const ApiKey = Type.Object({
  id: IdOf('key'),
  object: Type.Literal('api_key'),
  merchant_id: IdOf('acct'),
  livemode: Livemode,
  kind: Type.Union([Type.Literal('secret'), Type.Literal('publishable')]),
  permissions: Type.Union([Type.Array(Type.String()), Type.Null()]),
  key_hint: Type.String({ description: 'First and last characters, for recognising a key' }),
  created_at: Timestamp,
  key: Type.Optional(Type.String({ description: 'The full key: returned once, at creation' })),
});

export const MerchantIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
