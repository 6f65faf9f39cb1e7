import { type Static, Type } from 'typebox';
import { Livemode, Timestamp } from './common.ts';

export const lateCaptureRepairStatuses = [
  'REFUND_DUE',
  'REFUND_PENDING',
  'REFUNDED',
  'REFUND_FAILED',
] as const;

/**
 * A charge the gateway captured after its intent became final otherwise (CANCELED, EXPIRED,
 * FAILED), and its automatic repair: a full refund at the gateway. Operator API only.
 */
export const LateCapture = Type.Object({
  id: Type.String({ pattern: '^lc_[0-9A-Za-z]{24}$' }),
  object: Type.Literal('late_capture'),
  merchant_id: Type.String(),
  livemode: Livemode,
  payment_intent_id: Type.String(),
  attempt_number: Type.Integer({ minimum: 1 }),
  gateway_id: Type.String(),
  charge_reference: Type.String(),
  amount_minor: Type.Integer({ minimum: 1 }),
  currency: Type.String(),
  intent_status: Type.String({ description: "The intent's status when the capture arrived." }),
  detected_by: Type.Union([Type.Literal('charge'), Type.Literal('sync'), Type.Literal('notification')]),
  repair_status: Type.Union(lateCaptureRepairStatuses.map((status) => Type.Literal(status))),
  refund_reference: Type.Union([Type.String(), Type.Null()]),
  failure_message: Type.Union([Type.String(), Type.Null()]),
  tries: Type.Integer({ minimum: 0 }),
  next_repair_at: Type.Union([Timestamp, Type.Null()]),
  detected_at: Timestamp,
  updated_at: Timestamp,
});
export type LateCapture = Static<typeof LateCapture>;

export const LateCaptureList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(LateCapture),
});

export const LateCaptureIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ListLateCapturesQuery = Type.Object(
  {
    repair_status: Type.Optional(Type.Union(lateCaptureRepairStatuses.map((status) => Type.Literal(status)))),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
