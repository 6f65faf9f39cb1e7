import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { GATEWAY_RETURN_PATH } from '../../app/gateway-connectors.ts';
import { completeGatewayReturn } from '../../app/gateway-returns.ts';

/** Shown when the intent has no `return_url` to send the payer on to. */
function donePage(status: string): string {
  const message =
    status === 'SUCCEEDED'
      ? 'Your payment went through.'
      : status === 'FAILED'
        ? 'Your payment did not go through.'
        : 'Your payment is being processed.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment</title></head><body><p>${message} You can close this window.</p></body></html>`;
}

/**
 * `GET /gateway-returns/:returnId`: where a gateway sends the payer back after its redirect or
 * 3-D Secure page (the address is the `returnUrl` Paygate gave it). No credential: the return id
 * carries a MAC. The gateway's own query parameters (Adyen's `redirectResult`, Stripe's
 * `payment_intent`...) go to the connector's completion step; then the payer is sent on (303) to
 * the intent's `return_url`.
 */
export async function gatewayReturnRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.get<{ Params: { returnId: string }; Querystring: Record<string, string> }>(
    `${GATEWAY_RETURN_PATH}/:returnId`,
    {
      schema: {
        params: {
          type: 'object',
          required: ['returnId'],
          properties: { returnId: { type: 'string', minLength: 1, maxLength: 100 } },
        },
        querystring: {
          type: 'object',
          maxProperties: 20,
          additionalProperties: { type: 'string', maxLength: 4096 },
        },
      },
      config: { credential: 'none' },
    },
    async (request, reply) => {
      const { intent, location } = await completeGatewayReturn(ctx, request.params.returnId, {
        ...request.query,
      });
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (location) return reply.code(303).header('location', location).send();
      return reply.type('text/html; charset=utf-8').send(donePage(intent.status));
    },
  );
}
