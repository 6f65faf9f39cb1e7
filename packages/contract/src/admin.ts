import { type Static, type TSchema, Type } from 'typebox';
import { IdOf, Livemode, Timestamp } from './common.ts';

export const apiKeyPermissions = [
  'payment_intents:read',
  'payment_intents:write',
  'refunds:read',
  'refunds:write',
  'transactions:read',
  'customers:read',
  'customers:write',
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
  revoked_at: Type.Union([Timestamp, Type.Null()], { description: 'set once the key is revoked or rolled' }),
  expires_at: Type.Optional(
    Type.Union([Timestamp, Type.Null()], {
      description: 'When a key rolled with a grace period stops working; null: no end',
    }),
  ),
  key: Type.Optional(Type.String({ description: 'The full key: returned once, at creation or roll' })),
});

export const MerchantIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const merchantStatuses = ['active', 'disabled'] as const;

/** A merchant as the operator sees it: its keys are never shown again after creation. */
export const Merchant = Type.Object({
  id: IdOf('acct'),
  object: Type.Literal('merchant'),
  name: Type.String(),
  status: Type.Enum(merchantStatuses, {
    description: "disabled: every one of the merchant's API keys is refused",
  }),
  created_at: Timestamp,
});

export const UpdateMerchantBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const ADMIN_LIST_DEFAULT_LIMIT = 20;
export const ADMIN_LIST_MAX_LIMIT = 100;

/** Cursor pagination of the operator's lists, newest first, as the transaction list does it. */
export const AdminListQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: ADMIN_LIST_MAX_LIMIT, default: ADMIN_LIST_DEFAULT_LIMIT }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque; the next_cursor of the previous page',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AdminListQuery = Static<typeof AdminListQuery>;

function listOf<T extends TSchema>(item: T) {
  return Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(item),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  });
}

export const MerchantList = listOf(Merchant);
export const ApiKeyList = listOf(ApiKey);

export const ApiKeyIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
