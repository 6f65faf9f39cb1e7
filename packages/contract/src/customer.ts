import { type Static, Type } from 'typebox';
import { IdOf, Livemode, Metadata, ResourceVersion, Timestamp } from './common.ts';

/** The most customers one list page holds, and how many when `limit` is omitted. */
export const CUSTOMER_LIST_MAX_LIMIT = 100;
export const CUSTOMER_LIST_DEFAULT_LIMIT = 20;

const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'An e-mail address (local@domain); a list filter compares it without regard to case',
});
const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The customer's name, as the merchant knows it",
});

export const CreateCustomerBody = Type.Object(
  {
    email: Type.Optional(Email),
    name: Type.Optional(Name),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

export const UpdateCustomerBody = Type.Object(
  {
    email: Type.Optional(Type.Union([Email, Type.Null()], { description: 'null removes it' })),
    name: Type.Optional(Type.Union([Name, Type.Null()], { description: 'null removes it' })),
    metadata: Type.Optional(
      Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
        maxProperties: 50,
        description: 'Merged into the customer\'s metadata; a key set to "" is removed',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>;

export const CustomerIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const ListCustomersQuery = Type.Object(
  {
    email: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 254,
        description: 'Only customers with this e-mail (any case)',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: CUSTOMER_LIST_MAX_LIMIT, default: CUSTOMER_LIST_DEFAULT_LIMIT }),
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
export type ListCustomersQuery = Static<typeof ListCustomersQuery>;

/**
 * A customer of the merchant, in one mode: whom saved payment methods belong to. Paygate keeps no
 * card data about a customer, only what the merchant gives: e-mail, name, metadata.
 */
export const Customer = Type.Object(
  {
    id: IdOf('cus'),
    object: Type.Literal('customer'),
    email: Type.Union([Type.String(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
    metadata: Metadata,
    livemode: Livemode,
    created_at: Timestamp,
    version: ResourceVersion,
    deleted: Type.Boolean({
      description:
        'true once the customer is deleted (the answer to DELETE, and customer.deleted); false before',
    }),
  },
  { description: 'A customer of the merchant, in one mode' },
);
export type Customer = Static<typeof Customer>;

export const CustomerList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Customer),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type CustomerList = Static<typeof CustomerList>;
