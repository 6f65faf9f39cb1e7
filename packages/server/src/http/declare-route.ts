import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Operation, Problem, routePath } from '@paygate/contract';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { TSchema } from 'typebox';
import { type IdempotentAnswer, type IdempotentRequest, requestHash } from '../app/idempotent-phases.ts';
import { ValidationError } from '../domain/errors.ts';
import type { TenantScope } from '../domain/tenant.ts';
import { problemDocument } from './problem.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract operation the route was declared from (`route` below sets it, and only it). */
    operation?: Operation;
  }
}

type Field<Op, K extends string> = Op extends { [P in K]: infer S extends TSchema } ? S : undefined;
/**
 * The request side of an operation's Fastify schema, which types a handler's request. The
 * response schemas are left out of the type (not of the route): a handler may send JSON text it
 * already holds (the transaction list), which the schemas' static types would refuse.
 */
export type OperationSchema<Op extends Operation> = {
  params: Field<Op, 'params'>;
  querystring: Field<Op, 'querystring'>;
  body: Field<Op, 'body'>;
};

/** A route's handler, its request typed by the operation's schemas. */
export type OperationHandler<Op extends Operation> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  OperationSchema<Op>,
  TypeBoxTypeProvider
>;

/**
 * Everything a route declares, derived from its operation alone: the schema (params, query, body;
 * the resource for every 2xx and the problem document for every 4xx and 5xx, so a member the
 * contract does not declare never leaves the service) and the config the authentication and
 * rate-limit plugins read. The route-table test compares every route with this.
 */
export function routeOptionsOf(operation: Operation) {
  const schema: Record<string, unknown> = {
    response: { '2xx': operation.response, '4xx': Problem, '5xx': Problem, ...operation.otherResponses },
  };
  if (operation.params) schema.params = operation.params;
  if (operation.querystring) schema.querystring = operation.querystring;
  if (operation.body) schema.body = operation.body;
  return {
    method: operation.method,
    url: routePath(operation),
    schema,
    config: {
      operation,
      credential: operation.credential,
      ...(operation.permission ? { permission: operation.permission } : {}),
      ...(operation.dashboardAccess ? { dashboard: operation.dashboardAccess } : {}),
      ...(operation.rateLimit === false ? { rateLimit: false as const } : {}),
    },
  };
}

/**
 * The one way to declare a JSON route: its contract operation and one handler that calls one use
 * case. Method, path, validation, response schemas, credential, permission, dashboard access and
 * rate limiting all come from the operation, so none of it is written twice.
 *
 * @example
 * route(app, operations.retrieveRefund, async (request) =>
 *   refundResource(await retrieveRefund(ctx, principalOf(request), request.params.id)));
 */
export function route<const Op extends Operation>(
  app: FastifyInstance,
  operation: Op,
  handler: OperationHandler<Op>,
): void {
  const { method, url, schema, config } = routeOptionsOf(operation);
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .route<RouteGenericInterface, ContextConfigDefault, OperationSchema<Op>>({
      method,
      url,
      // Built from the same operation, so it is that operation's schema; TypeScript cannot follow
      // the optional members through the generic.
      schema: schema as OperationSchema<Op>,
      config,
      handler,
    });
}

/** A request of an operation, typed by the operation's schemas. */
export type OperationRequest<Op extends Operation> = Parameters<OperationHandler<Op>>[0];

/**
 * The route of an operation whose contract requires an Idempotency-Key: its handler calls one
 * idempotent use case with `keyed(scope)`, the request as the use case takes it (key, request
 * hash, the route's serializer), and the use case's answer is sent as its exact text.
 *
 * @example
 * idempotentRoute(app, operations.createRefund, (request, keyed) =>
 *   createRefund(ctx, keyed(principalOf(request)), request.body));
 */
export function idempotentRoute<const Op extends Operation & { idempotencyKeyRequired: true }>(
  app: FastifyInstance,
  operation: Op,
  handler: (
    request: OperationRequest<Op>,
    keyed: (scope: TenantScope) => IdempotentRequest,
  ) => Promise<IdempotentAnswer>,
): void {
  route(app, operation, async (request, reply) => {
    const answer = await handler(request, (scope) => idempotentRequestOf(request, reply, scope));
    return sendIdempotentAnswer(reply, answer);
  });
}

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export function readIdempotencyKey(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  if (key === undefined) throw new ValidationError('Idempotency-Key', 'header is required on this request');
  if (typeof key !== 'string' || key.length === 0) {
    throw new ValidationError('Idempotency-Key', 'must not be empty');
  }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ValidationError('Idempotency-Key', `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  return key;
}

/**
 * The HTTP request as an idempotent use case takes it: its Idempotency-Key, the hash of method,
 * path and body, and its answers serialized by the route's own response schema for their status
 * (members the contract does not declare are left out), so a replay is the same bytes.
 */
export function idempotentRequestOf(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: TenantScope,
): IdempotentRequest {
  const key = readIdempotencyKey(request);
  const path = request.url.split('?')[0] ?? request.url;
  return {
    scope,
    key,
    method: request.method,
    path,
    hash: requestHash(request.method, path, request.body),
    serialize(status, body) {
      const text = reply.code(status).serialize(body);
      // Only a custom reply serializer answers bytes; the app sets none, but the type allows it.
      return typeof text === 'string' ? text : new TextDecoder().decode(text);
    },
    problem: (error) => problemDocument(error, request.id),
  };
}

/** Sends an idempotent use case's answer as its exact text, a repeat marked Idempotent-Replayed. */
export function sendIdempotentAnswer(reply: FastifyReply, answer: IdempotentAnswer): FastifyReply {
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply
    .code(answer.status)
    .type(answer.status >= 400 ? 'application/problem+json' : 'application/json')
    .send(answer.body);
}
