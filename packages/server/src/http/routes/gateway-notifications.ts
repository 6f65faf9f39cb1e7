import { GatewayNotificationReceipt, Problem } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { receiveGatewayNotification } from '../../app/gateways/notifications.ts';
import { ValidationError } from '../../domain/errors.ts';

const NOTIFICATION_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * `POST /gateway-notifications/:gatewayId`: where gateways report outcomes that happen after their
 * API answered. No API key: the connector verifies the gateway's signature on the exact bytes
 * received, so this plugin is encapsulated (never wrapped in fastify-plugin) and its JSON parser
 * hands the body over as a Buffer, unparsed, to this route only.
 */
export async function gatewayNotificationRoutes(
  app: FastifyInstance,
  { ctx }: { ctx: AppContext },
): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: NOTIFICATION_BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post<{ Params: { gatewayId: string } }>(
    '/gateway-notifications/:gatewayId',
    {
      schema: {
        params: {
          type: 'object',
          required: ['gatewayId'],
          properties: { gatewayId: { type: 'string', minLength: 1, maxLength: 64 } },
        },
        response: { 200: GatewayNotificationReceipt, '4xx': Problem, '5xx': Problem },
      },
      config: { credential: 'none' },
    },
    async (request, reply) => {
      const body: unknown = request.body;
      if (!Buffer.isBuffer(body)) throw new ValidationError('body', 'must be a JSON notification');
      const result = await receiveGatewayNotification(ctx, request.params.gatewayId, body, request.headers);
      if (result.warning) request.log.warn({ gateway: request.params.gatewayId }, result.warning);
      // Some gateways retry until they read their own acknowledgement (Adyen: `[accepted]`).
      if (result.acknowledgement) {
        return reply.type(result.acknowledgement.contentType).send(result.acknowledgement.body);
      }
      return { received: true, duplicate: result.duplicate };
    },
  );
}
