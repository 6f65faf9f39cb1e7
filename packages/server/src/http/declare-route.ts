import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Operation, Problem, routePath } from '@paygate/contract';
import type {
  ContextConfigDefault,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { TSchema } from 'typebox';

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
