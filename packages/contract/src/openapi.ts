import type { TSchema } from 'typebox';
import { problemCodes, problemStatusByCode } from './errors.ts';
import { eventEnvelope, eventSummary, eventTypes } from './events.ts';
import { type Operation, operations } from './operations.ts';
import { Problem } from './problem.ts';

/** A plain JSON copy of a schema (TypeBox schemas carry symbol-keyed metadata that JSON drops). */
function plain(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema));
}

function parametersOf(operation: Operation): unknown[] {
  const params: unknown[] = [];
  const add = (schema: TSchema | undefined, location: 'path' | 'query') => {
    const properties = (
      plain(schema ?? ({} as TSchema)) as { properties?: Record<string, unknown>; required?: string[] }
    )?.properties;
    const required = new Set((schema as { required?: string[] } | undefined)?.required ?? []);
    for (const [name, property] of Object.entries(properties ?? {})) {
      params.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        schema: property,
      });
    }
  };
  add(operation.params, 'path');
  add(operation.querystring, 'query');
  if (operation.idempotencyKeyRequired) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description: 'Repeats with the same key and body return the original response (24 h).',
    });
  }
  if (operation.idempotencyKeyOptional) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description:
        'Optional: repeats with the same key and body return the original response (24 h) and create nothing again.',
    });
  }
  return params;
}

function securityOf(operation: Operation): unknown[] {
  switch (operation.credential) {
    case 'secret':
      return [{ secretKey: [] }];
    case 'secret_or_client':
      return [{ secretKey: [] }, { publishableKey: [], clientSecret: [] }];
    case 'admin':
      return [{ adminToken: [] }];
    case 'session':
      return [{ dashboardSession: [] }];
    case 'operator_session':
      return [{ operatorSession: [] }];
    case 'none':
      return [];
  }
}

/** The OpenAPI 3.1 document of the API, generated from the operation table (never hand-edited). */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, operation] of Object.entries(operations) as [string, Operation][]) {
    const problemResponses = Object.fromEntries(
      [...new Set(problemCodes.map((code) => problemStatusByCode[code]))].sort().map((status) => [
        String(status),
        {
          description: problemCodes.filter((c) => problemStatusByCode[c] === status).join(', '),
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      ]),
    );
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = {
      operationId,
      summary: operation.summary,
      tags: [operation.tag],
      security: securityOf(operation),
      parameters: parametersOf(operation),
      ...(operation.body
        ? {
            requestBody: {
              required: false,
              content: { 'application/json': { schema: plain(operation.body) } },
            },
          }
        : {}),
      responses: {
        [operation.path.startsWith('/admin') && operation.method === 'POST' ? '201' : '200']: {
          description: 'Success',
          content: {
            [operation.responseMediaType ?? 'application/json']: { schema: plain(operation.response) },
          },
        },
        ...problemResponses,
      },
    };
  }
  // What Paygate POSTs to a merchant's endpoint: one entry per event type, signed with
  // Service-Signature (see docs/webhooks.md); any 2xx acknowledges.
  const webhooks = Object.fromEntries(
    eventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `event_${type.replace('.', '_')}`,
          summary: eventSummary(type),
          tags: ['Events'],
          parameters: [
            {
              name: 'Service-Signature',
              in: 'header',
              required: true,
              schema: { type: 'string' },
              description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">[,v1=…]',
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: plain(eventEnvelope(type)) } },
          },
          responses: { '2XX': { description: 'Acknowledged; anything else is retried on the schedule' } },
        },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Paygate API', version: '1.0.0', description: 'Payment intents, refunds, transactions.' },
    servers: [{ url: 'http://localhost:8080' }],
    paths,
    webhooks,
    components: {
      schemas: { Problem: plain(Problem) },
      securitySchemes: {
        secretKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        publishableKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        clientSecret: { type: 'apiKey', in: 'header', name: 'X-Client-Secret' },
        adminToken: { type: 'apiKey', in: 'header', name: 'X-Admin-Token' },
        dashboardSession: { type: 'apiKey', in: 'cookie', name: 'paygate_session' },
        operatorSession: { type: 'apiKey', in: 'cookie', name: 'paygate_operator_session' },
      },
    },
  };
}

export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
