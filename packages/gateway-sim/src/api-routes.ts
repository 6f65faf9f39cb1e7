import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from './context.ts';
import { type RefundResource, SimError } from './ledger.ts';

const idempotencyKey = { type: 'string', minLength: 1, maxLength: 255 } as const;
const amountMinor = { type: 'integer', minimum: 1, maximum: 999_999_999_999 } as const;
const currency = { type: 'string', pattern: '^[A-Z]{3}$' } as const;

const chargeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['idempotency_key', 'reference', 'amount_minor', 'currency', 'token'],
  properties: {
    idempotency_key: idempotencyKey,
    reference: { type: 'string', minLength: 1, maxLength: 255 },
    amount_minor: amountMinor,
    currency,
    token: { type: 'string', minLength: 1, maxLength: 255 },
    return_url: { type: ['string', 'null'], maxLength: 2048 },
  },
} as const;

const refundBody = {
  type: 'object',
  additionalProperties: false,
  required: ['idempotency_key', 'charge', 'amount_minor', 'currency'],
  properties: {
    idempotency_key: idempotencyKey,
    reference: { type: ['string', 'null'], maxLength: 255 },
    charge: { type: 'string', minLength: 1, maxLength: 255 },
    amount_minor: amountMinor,
    currency,
  },
} as const;

const lookupQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['idempotency_key'],
  properties: { idempotency_key: idempotencyKey },
} as const;

const settleBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { outcome: { type: 'string', enum: ['succeeded', 'failed'] } },
} as const;

interface ChargeBody {
  idempotency_key: string;
  reference: string;
  amount_minor: number;
  currency: string;
  token: string;
  return_url?: string | null;
}

interface RefundBody {
  idempotency_key: string;
  reference?: string | null;
  charge: string;
  amount_minor: number;
  currency: string;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** `Authorization: Bearer <apiSecret>`, compared as SHA-256 digests so lengths never leak. */
function requireSecret(apiSecret: string) {
  const expected = digest(apiSecret);
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!timingSafeEqual(digest(given), expected)) {
      throw new SimError(401, 'unauthorized', 'A valid API secret is required.');
    }
  };
}

function httpUrlOrNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SimError(400, 'invalid_request', 'return_url must be an absolute http(s) URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SimError(400, 'invalid_request', 'return_url must be an absolute http(s) URL.');
  }
  return url.toString();
}

function replay(reply: FastifyReply, replayed: boolean): FastifyReply {
  return replayed ? reply.header('idempotent-replayed', 'true') : reply;
}

/** The server-to-server API: charges, refunds and test controls, all behind the shared secret. */
export async function apiRoutes(app: FastifyInstance, ctx: SimContext): Promise<void> {
  app.addHook('onRequest', requireSecret(ctx.apiSecret));
  if (ctx.responseDelayMs > 0) app.addHook('preHandler', async () => sleep(ctx.responseDelayMs));

  app.post<{ Body: ChargeBody }>('/v1/charges', { schema: { body: chargeBody } }, async (request, reply) => {
    const body = request.body;
    const { charge, replayed, hang } = ctx.ledger.createCharge({
      idempotencyKey: body.idempotency_key,
      reference: body.reference,
      amountMinor: body.amount_minor,
      currency: body.currency,
      token: body.token,
      returnUrl: httpUrlOrNull(body.return_url),
    });
    // tok_sim_hang: the charge is made, but the answer is withheld so that the caller times out.
    if (hang) await ctx.hang();
    return replay(reply, replayed).send(charge);
  });

  app.get<{ Querystring: { idempotency_key: string } }>(
    '/v1/charges',
    { schema: { querystring: lookupQuery } },
    async (request) => {
      const charge = ctx.ledger.chargeByKey(request.query.idempotency_key);
      if (!charge) throw new SimError(404, 'charge_not_found', 'No charge with this idempotency key.');
      return charge;
    },
  );

  app.get<{ Params: { id: string } }>('/v1/charges/:id', async (request) => {
    const charge = ctx.ledger.charge(request.params.id);
    if (!charge) throw new SimError(404, 'charge_not_found', 'No such charge.');
    return charge;
  });

  app.post<{ Body: RefundBody }>('/v1/refunds', { schema: { body: refundBody } }, async (request, reply) => {
    const body = request.body;
    const { refund, replayed } = ctx.ledger.createRefund({
      idempotencyKey: body.idempotency_key,
      reference: body.reference ?? null,
      chargeId: body.charge,
      amountMinor: body.amount_minor,
      currency: body.currency,
    });
    if (!replayed && refund.status === 'pending') ctx.refundPending(refund);
    return replay(reply, replayed).send(refund);
  });

  app.get<{ Querystring: { idempotency_key: string } }>(
    '/v1/refunds',
    { schema: { querystring: lookupQuery } },
    async (request) => {
      const refund = ctx.ledger.refundByKey(request.query.idempotency_key);
      if (!refund) throw new SimError(404, 'refund_not_found', 'No refund with this idempotency key.');
      return refund;
    },
  );

  app.get<{ Params: { id: string } }>('/v1/refunds/:id', async (request) => {
    const refund = ctx.ledger.refund(request.params.id);
    if (!refund) throw new SimError(404, 'refund_not_found', 'No such refund.');
    return refund;
  });

  app.post<{ Params: { id: string }; Body: { outcome?: 'succeeded' | 'failed' } | null }>(
    '/control/refunds/:id/settle',
    { schema: { body: settleBody } },
    async (request): Promise<RefundResource> =>
      ctx.settleRefund(request.params.id, request.body?.outcome ?? 'succeeded'),
  );
}
