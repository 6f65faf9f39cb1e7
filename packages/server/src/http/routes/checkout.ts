import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app/context.ts';
import { isCanonicalEmbedOrigin } from '../../app/embed-domains/embed-origins.ts';
import { resolveFrameAccess } from '../../app/embed-domains/frame-access.ts';
import { checkoutGatewayOrigins } from '../../app/gateways/checkout-origins.ts';
import { checkoutAssets, type ServedAsset } from '../../checkout/assets.ts';
import { frameCsp, framePage } from '../../checkout/frame-page.ts';

/**
 * The page's origin exactly as `location.origin` gives it, or null. It goes into the frame's
 * `frame-ancestors`, so it follows the embed-domain rules: one exact host, no wildcard.
 */
function exactOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 300) return null;
  return isCanonicalEmbedOrigin(value) ? value : null;
}

function localeOf(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$/.test(value) ? value : 'en';
}

function sendScript(request: FastifyRequest, reply: FastifyReply, asset: ServedAsset, crossOrigin: boolean) {
  reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'public, max-age=300')
    .header('etag', asset.etag);
  if (crossOrigin) {
    // Loaded by merchants' pages: a classic script needs neither, a module script and COEP pages do.
    reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
  }
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.send(asset.body);
}

const frameQuery = {
  type: 'object',
  properties: {
    pk: { type: 'string', maxLength: 200 },
    origin: { type: 'string', maxLength: 300 },
    locale: { type: 'string', maxLength: 40 },
  },
} as const;

/**
 * The embedded checkout: the versioned component script, the hosted frame and its script. The
 * frame URL names the publishable key (not a secret) so the frame's CSP can list the merchant's
 * registered origins; the client secret reaches the frame only by postMessage.
 */
export async function checkoutRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  // The browser files are built on first use (about 50 ms), not at start-up: most processes and
  // tests never serve them.
  const config = { credential: 'none' as const };

  app.get('/checkout/v1/checkout.js', { config }, async (request, reply) =>
    sendScript(request, reply, (await checkoutAssets()).checkoutScript, true),
  );
  app.get('/checkout/v1/checkout.mjs', { config }, async (request, reply) =>
    sendScript(request, reply, (await checkoutAssets()).checkoutModule, true),
  );
  app.get('/checkout/v1/frame.js', { config }, async (request, reply) =>
    sendScript(request, reply, (await checkoutAssets()).frameScript, false),
  );

  app.get<{ Querystring: { pk?: string; origin?: string; locale?: string } }>(
    '/checkout/v1/frame',
    { config, schema: { querystring: frameQuery } },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const parentOrigin = exactOrigin(request.query.origin);
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'strict-origin')
        .header('cache-control', 'no-store');
      if (parentOrigin === null || !request.query.pk) {
        return reply
          .code(400)
          .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
          .send('<!doctype html><title>Bad request</title><p>origin and pk are required.</p>');
      }
      const access = await resolveFrameAccess(ctx, request.query.pk, parentOrigin);
      // Only the card entry origins of the gateways this key's merchant can pay with in its mode
      // (a frame that takes no payment opens none).
      const origins =
        access.mode === 'checkout' ? await checkoutGatewayOrigins(ctx, access) : { framed: [], scripts: [] };
      const csp = frameCsp({
        frameAncestors: access.frameAncestors,
        gatewayOrigins: origins.framed,
        componentScriptOrigins: origins.scripts,
        nonce,
      });
      const page = framePage(
        {
          mode: access.mode,
          parentOrigin,
          publishableKey: request.query.pk,
          locale: localeOf(request.query.locale),
        },
        nonce,
      );
      return reply.header('content-security-policy', csp).send(page);
    },
  );
}
