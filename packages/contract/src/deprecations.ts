import { Type } from 'typebox';
import { IdOf, Timestamp } from './common.ts';

/** The User-Agent products of the reference clients: the clients a deprecation may name. */
export const deprecatableClients = ['paygate-node', 'paygate-python', 'paygate-php', 'paygate-java'] as const;

const ClientBound = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 40,
      description: `A client's User-Agent product: ${deprecatableClients.join(', ')}`,
    }),
    below: Type.String({
      minLength: 1,
      maxLength: 60,
      description: 'A semantic version: clients older than it (by SemVer precedence) are affected',
    }),
  },
  { additionalProperties: false },
);

// Exactly one of `clients` and `contract`: the use case says which is missing or doubled, naming
// the field, where a schema union would only say "must match exactly one schema".
const Affected = Type.Object(
  {
    clients: Type.Optional(Type.Array(ClientBound, { minItems: 1, maxItems: 20 })),
    contract: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'v1' })),
  },
  { additionalProperties: false, description: 'Exactly one of clients and contract' },
);

export const CreateDeprecationBody = Type.Object(
  {
    affected: Affected,
    withdraw_on: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'The day (YYYY-MM-DD, UTC) the deprecated versions stop working; after today',
    }),
    text: Type.String({ maxLength: 4000, description: 'What changes and what to do; sent in every notice' }),
  },
  { additionalProperties: false },
);

export const DeprecationRecipient = Type.Object({
  merchant_id: IdOf('acct'),
  email: Type.String(),
  language: Type.Union([Type.Literal('en'), Type.Literal('es')]),
  /** Which of the merchant's clients made it affected, as `name/version`. */
  clients: Type.Array(Type.String()),
  notified_at: Timestamp,
});

export const Deprecation = Type.Object({
  id: IdOf('dep'),
  object: Type.Literal('deprecation'),
  affected: Type.Union([
    Type.Object({ clients: Type.Array(Type.Object({ name: Type.String(), below: Type.String() })) }),
    Type.Object({ contract: Type.String() }),
  ]),
  withdraw_on: Type.String({ format: 'date' }),
  text: Type.String(),
  created_at: Timestamp,
  merchants_told: Type.Integer({ minimum: 0 }),
  recipients: Type.Array(DeprecationRecipient, {
    description: 'Every owner and developer told (one e-mail each), oldest first',
  }),
});

export const DeprecationSummary = Type.Omit(Deprecation, ['recipients']);

export const DeprecationList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(DeprecationSummary),
});

export const DeprecationIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
