import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BooksQuery } from './books.ts';
import type { SimAccount, SimContext } from './context.ts';
import { type RefundResource, SimError } from './ledger.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The account whose API secret the request carried (set by the authentication hook). */
    simAccount: SimAccount | null;
  }
}

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
    // false: authorise only; the capture (or the void) is a call of its own.
    capture: { type: 'boolean' },
    // true: keep the method for later charges; a success carries its reusable payment_method.
    save_payment_method: { type: 'boolean' },
    // true: the payer is absent, so a method that wants authentication is declined.
    off_session: { type: 'boolean' },
  },
} as const;

const captureBody = {
  type: 'object',
  additionalProperties: false,
  required: ['idempotency_key', 'amount_minor'],
  properties: { idempotency_key: idempotencyKey, amount_minor: amountMinor },
} as const;

const voidBody = {
  type: 'object',
  additionalProperties: false,
  required: ['idempotency_key'],
  properties: { idempotency_key: idempotencyKey },
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

/** The books' window: `created` in unix seconds, `[created_gte, created_lt)`, paged by id. */
const booksQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['created_gte', 'created_lt'],
  properties: {
    created_gte: { type: 'string', pattern: '^[0-9]{1,12}$' },
    created_lt: { type: 'string', pattern: '^[0-9]{1,12}$' },
    limit: { type: 'string', pattern: '^[0-9]{1,3}$' },
    starting_after: { type: 'string', minLength: 1, maxLength: 255 },
  },
} as const;

interface BooksQuerystring {
  created_gte: string;
  created_lt: string;
  limit?: string;
  starting_after?: string;
}

const BOOKS_PAGE_MAX = 100;

function booksQueryOf(query: BooksQuerystring, account: SimAccount): BooksQuery {
  const limit = query.limit === undefined ? BOOKS_PAGE_MAX : Number(query.limit);
  if (limit < 1 || limit > BOOKS_PAGE_MAX) {
    throw new SimError(400, 'invalid_request', `limit must be from 1 to ${BOOKS_PAGE_MAX}.`);
  }
  return {
    livemode: account.livemode,
    createdFrom: Number(query.created_gte),
    createdTo: Number(query.created_lt),
    limit,
    startingAfter: query.starting_after ?? null,
  };
}

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
  capture?: boolean;
  save_payment_method?: boolean;
  off_session?: boolean;
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

/**
 * `Authorization: Bearer <apiSecret>` of one of the accounts, compared as SHA-256 digests so
 * lengths never leak; the matching account is what the request acts for.
 */
function requireSecret(accounts: readonly SimAccount[]) {
  const expected = accounts.map((account) => ({ account, digest: digest(account.apiSecret) }));
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization ?? '';
    const given = digest(header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
    let matched: SimAccount | null = null;
    for (const candidate of expected) {
      if (timingSafeEqual(given, candidate.digest)) matched = candidate.account;
    }
    if (!matched) throw new SimError(401, 'unauthorized', 'A valid API secret is required.');
    request.simAccount = matched;
  };
}

function accountOf(request: FastifyRequest): SimAccount {
  if (!request.simAccount) throw new SimError(401, 'unauthorized', 'A valid API secret is required.');
  return request.simAccount;
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
  app.decorateRequest('simAccount', null);
  app.addHook('onRequest', requireSecret(ctx.accounts));
  // Refunds due to settle late settle before anything reads or changes the books.
  app.addHook('preHandler', async () => ctx.settleDueRefunds());
  if (ctx.responseDelayMs > 0) app.addHook('preHandler', async () => sleep(ctx.responseDelayMs));

  app.post<{ Body: ChargeBody }>('/v1/charges', { schema: { body: chargeBody } }, async (request, reply) => {
    const body = request.body;
    const { charge, replayed, hang } = ctx.ledger.createCharge({
      livemode: accountOf(request).livemode,
      idempotencyKey: body.idempotency_key,
      reference: body.reference,
      amountMinor: body.amount_minor,
      currency: body.currency,
      token: body.token,
      returnUrl: httpUrlOrNull(body.return_url),
      capture: body.capture !== false,
      savePaymentMethod: body.save_payment_method === true,
      offSession: body.off_session === true,
    });
    // tok_sim_hang: the charge is made, but the answer is withheld so that the caller times out.
    if (hang) await ctx.hang();
    return replay(reply, replayed).send(charge);
  });

  app.get<{ Querystring: { idempotency_key: string } }>(
    '/v1/charges',
    { schema: { querystring: lookupQuery } },
    async (request) => {
      const charge = ctx.ledger.chargeByKey(request.query.idempotency_key, accountOf(request).livemode);
      if (!charge) throw new SimError(404, 'charge_not_found', 'No charge with this idempotency key.');
      return charge;
    },
  );

  app.get<{ Params: { id: string } }>('/v1/charges/:id', async (request) => {
    const charge = ctx.ledger.charge(request.params.id, accountOf(request).livemode);
    if (!charge) throw new SimError(404, 'charge_not_found', 'No such charge.');
    return charge;
  });

  // An authorised charge's capture (all or part) and its void, once per idempotency key.
  app.post<{ Params: { id: string }; Body: { idempotency_key: string; amount_minor: number } }>(
    '/v1/charges/:id/capture',
    { schema: { body: captureBody } },
    async (request, reply) => {
      const { charge, replayed, hang } = ctx.ledger.callOnAuthorization({
        livemode: accountOf(request).livemode,
        idempotencyKey: request.body.idempotency_key,
        chargeId: request.params.id,
        amountMinor: request.body.amount_minor,
      });
      // A capture amount ending in 13 is made, but its answer is withheld: the caller times out.
      if (hang) await ctx.hang();
      return replay(reply, replayed).send(charge);
    },
  );
  app.post<{ Params: { id: string }; Body: { idempotency_key: string } }>(
    '/v1/charges/:id/void',
    { schema: { body: voidBody } },
    async (request, reply) => {
      const { charge, replayed } = ctx.ledger.callOnAuthorization({
        livemode: accountOf(request).livemode,
        idempotencyKey: request.body.idempotency_key,
        chargeId: request.params.id,
        amountMinor: null,
      });
      return replay(reply, replayed).send(charge);
    },
  );

  // A saved method detached for good: later charges of it are refused. Repeating it answers the same.
  app.post<{ Params: { id: string } }>('/v1/payment_methods/:id/detach', async (request) => {
    const method = ctx.ledger.detachMethod(request.params.id, accountOf(request).livemode);
    if (!method) throw new SimError(404, 'payment_method_not_found', 'No such payment method.');
    return { id: method.id, object: 'payment_method', status: 'detached' };
  });

  app.post<{ Body: RefundBody }>('/v1/refunds', { schema: { body: refundBody } }, async (request, reply) => {
    const body = request.body;
    const { refund, replayed } = ctx.ledger.createRefund({
      livemode: accountOf(request).livemode,
      idempotencyKey: body.idempotency_key,
      reference: body.reference ?? null,
      chargeId: body.charge,
      amountMinor: body.amount_minor,
      currency: body.currency,
    });
    return replay(reply, replayed).send(refund);
  });

  app.get<{ Querystring: { idempotency_key: string } }>(
    '/v1/refunds',
    { schema: { querystring: lookupQuery } },
    async (request) => {
      const refund = ctx.ledger.refundByKey(request.query.idempotency_key, accountOf(request).livemode);
      if (!refund) throw new SimError(404, 'refund_not_found', 'No refund with this idempotency key.');
      return refund;
    },
  );

  app.get<{ Params: { id: string } }>('/v1/refunds/:id', async (request) => {
    const refund = ctx.ledger.refund(request.params.id, accountOf(request).livemode);
    if (!refund) throw new SimError(404, 'refund_not_found', 'No such refund.');
    return refund;
  });

  // The gateway's books, for reconciliation: what this account charged and refunded in a window.
  app.get<{ Querystring: BooksQuerystring }>(
    '/v1/reports/charges',
    { schema: { querystring: booksQuery } },
    async (request) => ctx.ledger.listCharges(booksQueryOf(request.query, accountOf(request))),
  );
  app.get<{ Querystring: BooksQuerystring }>(
    '/v1/reports/refunds',
    { schema: { querystring: booksQuery } },
    async (request) => ctx.ledger.listRefunds(booksQueryOf(request.query, accountOf(request))),
  );

  app.post<{ Params: { id: string }; Body: { outcome?: 'succeeded' | 'failed' } | null }>(
    '/control/refunds/:id/settle',
    { schema: { body: settleBody } },
    async (request): Promise<RefundResource> => {
      if (!ctx.ledger.refund(request.params.id, accountOf(request).livemode)) {
        throw new SimError(404, 'refund_not_found', 'No such refund.');
      }
      return ctx.settleRefund(request.params.id, request.body?.outcome ?? 'succeeded');
    },
  );
}
