import { type TSchema, Type } from 'typebox';
import { PaymentIntent } from './payment-intent.ts';
import { Problem } from './problem.ts';

/**
 * A route's `schema.response`: the operation's resource for every 2xx and the problem document
 * for every 4xx and 5xx. Fastify serializes each answer with the schema of its status, so a member
 * the contract does not declare never leaves the service. `overrides` names a status whose answer
 * is more specific (confirm's 402 carries the failed intent).
 */
export function responseSchemas<S extends TSchema, O extends Record<number, TSchema> = Record<never, never>>(
  operation: { response: S },
  overrides?: O,
): { '2xx': S; '4xx': typeof Problem; '5xx': typeof Problem } & O {
  return { '2xx': operation.response, '4xx': Problem, '5xx': Problem, ...(overrides ?? ({} as O)) };
}

/** The problem of a declined or rejected confirm (402): the intent, now FAILED, comes with it. */
export const PaymentIntentProblem = Type.Object(
  { ...Problem.properties, payment_intent: PaymentIntent },
  { additionalProperties: true },
);

/** `GET /healthz`: the process answers. */
export const Liveness = Type.Object({ status: Type.Literal('ok') });

const readinessCheck = Type.Union([Type.Literal('ok'), Type.Literal('failing')]);

/** `GET /readyz`: 200 ready, or 503 with the dependencies that fail (or `closing` during a shutdown). */
export const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable'), Type.Literal('closing')]),
  checks: Type.Optional(Type.Record(Type.String(), readinessCheck)),
  failing: Type.Optional(Type.Array(Type.String())),
});

/**
 * `POST /gateway-notifications/{gatewayId}`, when the gateway takes any 2xx as received. A gateway
 * that reads its own acknowledgement (Adyen's `[accepted]`) gets that text instead, which no JSON
 * schema serializes.
 */
export const GatewayNotificationReceipt = Type.Object({
  received: Type.Literal(true),
  duplicate: Type.Boolean(),
});
