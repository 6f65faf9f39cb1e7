import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { GATEWAY_RETURN_PATH } from '../../app/gateways/connectors.ts';
import { completeGatewayReturn } from '../../app/gateways/returns.ts';

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

/** The gateway's parameters: a payer may come back with them in the query, a form body, or both. */
const RETURN_PARAMETERS = {
  type: 'object',
  maxProperties: 20,
  additionalProperties: { type: 'string', maxLength: 16384 },
} as const;

/** A 3-D Secure 1 `PaRes` is a few kilobytes; nothing a gateway posts back comes near this. */
const RETURN_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * `GET|POST /gateway-returns/:returnId`: where a gateway sends the payer back after its redirect or
 * 3-D Secure page (the address is the `returnUrl` Paygate gave it). Gateways return with a GET
 * (parameters in the query) or, for some payment methods, by having the browser POST a form
 * (Adyen's `redirectMethod: POST`: `redirectResult`, or `MD` and `PaRes`). No credential: the return id
 * carries a MAC. The gateway's parameters go to the connector's completion step; then the payer is
 * sent on (303, so a POST becomes a GET) to the intent's `return_url`.
 */
export async function gatewayReturnRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  // Registered without fastify-plugin, so this parser serves only the return route.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: RETURN_BODY_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  const params = {
    type: 'object',
    required: ['returnId'],
    properties: { returnId: { type: 'string', minLength: 1, maxLength: 100 } },
  } as const;
  const handle = async (
    request: FastifyRequest<{
      Params: { returnId: string };
      Querystring: Record<string, string>;
      Body?: Record<string, string>;
    }>,
    reply: FastifyReply,
  ) => {
    const { intent, location } = await completeGatewayReturn(ctx, request.params.returnId, {
      ...request.query,
      ...(request.body ?? {}),
    });
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (location) return reply.code(303).header('location', location).send();
    return reply.type('text/html; charset=utf-8').send(donePage(intent.status));
  };
  app.get(
    `${GATEWAY_RETURN_PATH}/:returnId`,
    { schema: { params, querystring: RETURN_PARAMETERS }, config: { credential: 'none' } },
    handle,
  );
  app.post(
    `${GATEWAY_RETURN_PATH}/:returnId`,
    {
      schema: { params, querystring: RETURN_PARAMETERS, body: RETURN_PARAMETERS },
      config: { credential: 'none' },
    },
    handle,
  );
}
