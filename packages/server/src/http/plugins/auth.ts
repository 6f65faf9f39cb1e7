import type { ApiKeyPermission, Credential } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeyCache } from '../../app/api-keys/key-cache.ts';
import type { AppContext } from '../../app/context.ts';
import { hashApiKey, hasPermission, parseApiKeyShape } from '../../domain/api-keys.ts';
import { AuthenticationError, ValidationError } from '../../domain/errors.ts';
import type { Principal } from '../principal.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    credential?: Credential;
    permission?: ApiKeyPermission;
  }
}

function invalidKey(detail: string) {
  return new AuthenticationError('invalid_api_key', detail);
}

/**
 * API-key authentication, before anything else about the request is looked at. Keys travel only
 * in X-API-Key; a Bearer token is refused with a detail that names the right header. Keys are
 * looked up by their SHA-256, so the database never holds one and no string compare leaks timing.
 */
export const apiKeyAuth = fp(
  async (app: FastifyInstance, options: { ctx: AppContext }) => {
    app.decorateRequest('principal', null);
    const keys = new ApiKeyCache(options.ctx);
    const stopListening = await keys.listen();
    app.addHook('onClose', async () => {
      // A database already gone (closed, or its connection lost) has no LISTEN left to end: the
      // close goes on instead of failing the shutdown.
      await stopListening().catch((error: unknown) =>
        app.log.warn({ err: error }, 'api-key changes: ending the LISTEN failed'),
      );
    });
    app.addHook('onRequest', async (request) => {
      const credential = request.routeOptions.config.credential;
      if (credential !== 'secret' && credential !== 'secret_or_client') return;

      // Every way of failing authentication spends the client address's budget for
      // unauthenticated requests (429 once it is spent), and an address that spent it is refused
      // before a database lookup of a key not cached: floods of bad or guessed keys reach
      // neither the database nor others. A key that proves valid spends nothing.
      const unauthenticated = async (error: AuthenticationError) => {
        await app.limitUnauthenticated(request);
        return error;
      };

      const query = request.query as Record<string, unknown> | undefined;
      if (query && 'client_secret' in query) {
        throw new ValidationError(
          'client_secret',
          'must be sent in the X-Client-Secret header, never in the URL (URLs end up in logs and histories)',
        );
      }

      const presented = request.headers['x-api-key'];
      if (typeof presented !== 'string' || presented === '') {
        if (request.headers.authorization) {
          throw await unauthenticated(
            invalidKey('Send your API key in the X-API-Key header; Authorization: Bearer is not accepted.'),
          );
        }
        throw await unauthenticated(invalidKey('No API key was sent. Send it in the X-API-Key header.'));
      }
      if (!parseApiKeyShape(presented)) throw await unauthenticated(invalidKey('The API key is malformed.'));
      const keyHash = hashApiKey(presented);
      const unknownKey = () => invalidKey('The API key is not valid: it is unknown or was revoked.');
      let row = keys.cached(keyHash);
      if (row === null) throw await unauthenticated(unknownKey());
      if (row === undefined) {
        app.refuseExhaustedAddress(request);
        row = await keys.lookUp(keyHash);
        if (!row) throw await unauthenticated(unknownKey());
      }

      if (row.kind === 'publishable' && credential !== 'secret_or_client') {
        throw new AuthenticationError(
          'insufficient_permissions',
          'A publishable key can only retrieve or confirm one payment intent with its client secret; use a secret key on your server.',
        );
      }
      const permission = request.routeOptions.config.permission;
      if (row.kind === 'secret' && permission && !hasPermission(row.permissions, permission)) {
        throw new AuthenticationError(
          'insufficient_permissions',
          `This API key lacks the ${permission} permission.`,
        );
      }
      request.principal = {
        keyId: row.id,
        merchantId: row.merchant_id,
        livemode: row.livemode,
        kind: row.kind,
        permissions: row.permissions,
      } satisfies Principal;
    });
  },
  { name: 'api-key-auth', fastify: '5.x', dependencies: ['rate-limiting'] },
);
