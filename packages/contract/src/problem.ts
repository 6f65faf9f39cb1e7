import { type Static, Type } from 'typebox';

export const FieldError = Type.Object({
  field: Type.String({
    description: 'The request field at fault, as a dotted path (e.g. metadata.order_id)',
  }),
  message: Type.String(),
});

/** RFC 9457 problem document with Paygate's `code` and `request_id` members. */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    request_id: Type.String(),
    errors: Type.Optional(Type.Array(FieldError)),
    payment_intent: Type.Optional(Type.Unknown({ description: 'The failed intent, on 402 from confirm' })),
  },
  { additionalProperties: true },
);
export type Problem = Static<typeof Problem>;
