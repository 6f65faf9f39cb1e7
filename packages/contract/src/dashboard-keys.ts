import { Type } from 'typebox';
import { ApiKey, apiKeyPermissions } from './admin.ts';

/** A new key in the dashboard's mode: the switch decides test or live. */
export const DashboardCreateApiKeyBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('secret'), Type.Literal('publishable')]),
    permissions: Type.Optional(Type.Array(Type.Enum(apiKeyPermissions), { minItems: 1, uniqueItems: true })),
  },
  { additionalProperties: false },
);

export const RollApiKeyBody = Type.Object(
  {
    expires_in_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        description:
          'How long the old key keeps working beside the new one (0, the default: it stops now; at most 7 days)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DashboardApiKeyList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(ApiKey),
});
