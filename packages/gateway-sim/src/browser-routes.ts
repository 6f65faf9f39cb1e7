import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { normaliseCardNumber, testCards } from './behaviours.ts';
import type { SimContext } from './context.ts';
import { hostedFieldsPage } from './hosted-fields-page.ts';
import { hostedFieldsTexts } from './hosted-fields-texts.ts';
import { SimError } from './ledger.ts';
import { challengePage, continueUrl, donePage, messagePage } from './pages.ts';

/** The parent page's origin as given, when it is exactly an http(s) origin; otherwise null. */
export function parseParentOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 300) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin === value ? value : null;
  } catch {
    return null;
  }
}

/**
 * The origins of the pages above the parent, space-separated (a checkout frame nested in a shop's
 * page names the shop). Absent is none; any one that is not exactly an http(s) origin is null.
 */
export function parseAncestorOrigins(value: unknown): string[] | null {
  if (value === undefined || value === '') return [];
  if (typeof value !== 'string' || value.length > 1000) return null;
  const origins: string[] = [];
  for (const part of value.split(' ')) {
    const origin = parseParentOrigin(part);
    if (origin === null) return null;
    origins.push(origin);
  }
  return origins.length <= 5 ? origins : null;
}

function sendHtml(reply: FastifyReply, status: number, html: string, csp: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(html);
}

function pageCsp(nonce: string, extra: string): string {
  return `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; ${extra}`;
}

const tokenBody = {
  type: 'object',
  additionalProperties: false,
  required: ['card_number'],
  properties: {
    card_number: { type: 'string', maxLength: 40 },
    // The rest of what a card form holds: checked for shape, then dropped like the number.
    exp_month: { type: 'integer', minimum: 1, maximum: 12 },
    exp_year: { type: 'integer', minimum: 2000, maximum: 2100 },
    cvc: { type: 'string', pattern: '^[0-9]{3,4}$' },
    cardholder_name: { type: 'string', minLength: 1, maxLength: 100 },
  },
} as const;

/** What the payer's browser sees: the hosted card field, its token endpoint and the challenge page. */
export async function browserRoutes(app: FastifyInstance, ctx: SimContext): Promise<void> {
  app.get<{ Querystring: { parent_origin?: string; ancestor_origins?: string; locale?: string } }>(
    '/hosted-fields',
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const parentOrigin = parseParentOrigin(request.query.parent_origin);
      const ancestors = parseAncestorOrigins(request.query.ancestor_origins);
      if (parentOrigin === null || ancestors === null) {
        const html = messagePage(
          'Bad request',
          'parent_origin (and each of ancestor_origins) must be an http(s) origin.',
          nonce,
        );
        return sendHtml(reply, 400, html, pageCsp(nonce, "frame-ancestors 'none'"));
      }
      // Only the named parent (and the pages above it, which browsers check too) may frame the
      // field; the form may talk only to this origin, and the token goes only to the parent.
      const frameAncestors = [parentOrigin, ...ancestors].join(' ');
      const csp = pageCsp(
        nonce,
        `script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; frame-ancestors ${frameAncestors}`,
      );
      const texts = hostedFieldsTexts(request.query.locale);
      return sendHtml(reply, 200, hostedFieldsPage(parentOrigin, texts, nonce), csp);
    },
  );

  // Card numbers arrive here and nowhere else; they are matched against the test cards and dropped.
  app.post<{ Body: { card_number: string } }>(
    '/v1/tokens',
    { schema: { body: tokenBody } },
    async (request, reply) => {
      const digits = normaliseCardNumber(request.body.card_number);
      const behaviour = digits === null ? undefined : testCards.get(digits);
      if (behaviour === undefined) {
        throw new SimError(
          400,
          'unknown_test_card',
          'Use one of the test card numbers of the simulated gateway.',
        );
      }
      return reply
        .header('cache-control', 'no-store')
        .send({ object: 'token', token: ctx.ledger.issueToken(behaviour) });
    },
  );

  app.get<{ Params: { id: string } }>('/challenge/:id', async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    const charge = ctx.ledger.charge(request.params.id);
    if (!charge) {
      return sendHtml(reply, 404, messagePage('Not found', 'No such payment.', nonce), pageCsp(nonce, ''));
    }
    // A form's redirect is checked against form-action by browsers, so the return origin is allowed.
    const returnOrigin = charge.return_url ? ` ${new URL(charge.return_url).origin}` : '';
    const csp = pageCsp(nonce, `form-action 'self'${returnOrigin}; frame-ancestors 'none'`);
    return sendHtml(reply, 200, challengePage(charge, nonce), csp);
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>(
    '/challenge/:id',
    async (request, reply) => {
      const decision = request.body?.decision;
      if (decision !== 'approve' && decision !== 'decline') {
        throw new SimError(400, 'invalid_request', 'decision must be approve or decline.');
      }
      const { charge, changed } = ctx.ledger.decideChallenge(request.params.id, decision);
      if (changed) ctx.notify('charge', charge);
      if (charge.return_url) return reply.code(303).header('location', continueUrl(charge)).send();
      const nonce = randomBytes(16).toString('base64');
      return sendHtml(reply, 200, donePage(charge, nonce), pageCsp(nonce, "frame-ancestors 'none'"));
    },
  );
}
