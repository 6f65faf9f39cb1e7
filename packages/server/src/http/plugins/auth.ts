import type { ApiKeyPermission, Credential } from '@paygate/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { LRUCache } from 'lru-cache';
import type { AppContext } from '../../app/context.ts';
import { clockedCache } from '../../clock.ts';
import { type ApiKeyKind, hashApiKey, hasPermission, parseApiKeyShape } from '../../domain/api-keys.ts';
import { AuthenticationError, ValidationError } from '../../domain/errors.ts';
import type { TenantScope } from '../../domain/tenant.ts';
import {
  API_KEY_CHANGES_CHANNEL,
  type ApiKeyRow,
  findActiveApiKeyByHash,
} from '../../storage/repositories/api-keys.ts';

export interface Principal extends TenantScope {
  keyId: string;
  kind: ApiKeyKind;
  permissions: string[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    credential?: Credential;
    permission?: ApiKeyPermission;
  }
}

/** The authenticated caller of a route that requires an API key. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route has no credential configured');
  return request.principal;
}

const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;

/**
 * Known keys, remembered for a few seconds so that a busy merchant's requests do not each pay a
 * database round trip for authentication. Unknown keys are never remembered (a new key works at
 * once). A revocation or a disabled merchant is announced on API_KEY_CHANGES_CHANNEL at its commit
 * and every process forgets the key then; the TTL bounds what a lost notification could cost.
 */
class ApiKeyCache {
  private readonly entries: LRUCache<string, ApiKeyRow>;
  constructor(private readonly ctx: AppContext) {
    this.entries = clockedCache<string, ApiKeyRow>(ctx.clock, {
      maxEntries: KEY_CACHE_MAX_ENTRIES,
      ttlMs: KEY_CACHE_TTL_MS,
    });
  }

  async find(keyHash: string): Promise<ApiKeyRow | null> {
    const cached = this.entries.get(keyHash);
    if (cached) return cached;
    const row = await findActiveApiKeyByHash(this.ctx.db, keyHash);
    if (row) this.entries.set(keyHash, row);
    return row;
  }

  /** A key revoked (its hash) or `*` (a merchant disabled): forget it now, not after the TTL. */
  forget(keyHashOrAll: string): void {
    if (keyHashOrAll === '*') this.entries.clear();
    else this.entries.delete(keyHashOrAll);
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
    // Every process forgets a revoked key (or a disabled merchant's keys) when the change commits.
    const stopListening = await options.ctx.db.listen(API_KEY_CHANGES_CHANNEL, (payload) =>
      keys.forget(payload),
    );
    app.addHook('onClose', async () => {
      await stopListening();
    });
    app.addHook('onRequest', async (request) => {
      const credential = request.routeOptions.config.credential;
      if (credential !== 'secret' && credential !== 'secret_or_client') return;

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
          throw invalidKey(
            'Send your API key in the X-API-Key header; Authorization: Bearer is not accepted.',
          );
        }
        throw invalidKey('No API key was sent. Send it in the X-API-Key header.');
      }
      if (!parseApiKeyShape(presented)) throw invalidKey('The API key is malformed.');
      const row = await keys.find(hashApiKey(presented));
      if (!row) throw invalidKey('The API key is not valid: it is unknown or was revoked.');

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
      };
    });
  },
  { name: 'api-key-auth', fastify: '5.x' },
);
