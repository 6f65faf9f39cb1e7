import type { ApiKeyPermission, Credential } from '@paygate/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LRUCache } from 'lru-cache';
import type { AppContext } from '../../app/context.ts';
import { clockedCache } from '../../clock.ts';
import { hashApiKey, hasPermission, parseApiKeyShape } from '../../domain/api-keys.ts';
import { AuthenticationError, ValidationError } from '../../domain/errors.ts';
import {
  API_KEY_CHANGES_CHANNEL,
  type ApiKeyRow,
  findActiveApiKeyByHash,
} from '../../storage/repositories/api-keys.ts';
import type { Principal } from '../principal.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    credential?: Credential;
    permission?: ApiKeyPermission;
  }
}

const KEY_CACHE_TTL_MS = 5_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
/** Unknown keys are remembered briefly: keys are random, so one that is unknown now stays so. */
const UNKNOWN_KEY_CACHE_TTL_MS = 5_000;
const UNKNOWN_KEY_CACHE_MAX_ENTRIES = 10_000;

/**
 * Keys, remembered for a few seconds so that a busy merchant's requests do not each pay a
 * database round trip for authentication, and a flood of one unknown key costs one lookup (keys
 * are random: one unknown now stays unknown). A revocation or a disabled merchant is announced on
 * API_KEY_CHANGES_CHANNEL at its commit and every process forgets the key then; the TTL bounds
 * what a lost notification could cost.
 */
class ApiKeyCache {
  private readonly known: LRUCache<string, ApiKeyRow>;
  private readonly unknown: LRUCache<string, true>;
  private readonly inFlight = new Map<string, Promise<ApiKeyRow | null>>();
  constructor(private readonly ctx: AppContext) {
    this.known = clockedCache<string, ApiKeyRow>(ctx.clock, {
      maxEntries: KEY_CACHE_MAX_ENTRIES,
      ttlMs: KEY_CACHE_TTL_MS,
    });
    this.unknown = clockedCache<string, true>(ctx.clock, {
      maxEntries: UNKNOWN_KEY_CACHE_MAX_ENTRIES,
      ttlMs: UNKNOWN_KEY_CACHE_TTL_MS,
    });
  }

  /** The cached answer: a row, `null` for a key known to be unknown, `undefined` when not cached. */
  cached(keyHash: string): ApiKeyRow | null | undefined {
    const row = this.known.get(keyHash);
    // A rolled key's grace period ends on the clock, with no announcement: checked on every use.
    if (row?.expires_at && row.expires_at <= this.ctx.clock.now()) {
      this.known.delete(keyHash);
      return undefined;
    }
    if (row) return row;
    return this.unknown.get(keyHash) ? null : undefined;
  }

  /**
   * One database lookup per key at a time: the concurrent first requests of a key this process
   * has not seen lately (a burst after a restart) share it instead of each paying a round trip.
   */
  lookUp(keyHash: string): Promise<ApiKeyRow | null> {
    const pending = this.inFlight.get(keyHash);
    if (pending) return pending;
    const lookup = findActiveApiKeyByHash(this.ctx.db, keyHash, this.ctx.clock.now())
      .then((row) => {
        // A revocation announced while the lookup ran (forget() dropped it) must not be undone
        // by caching what was read before it.
        if (this.inFlight.get(keyHash) === lookup) {
          if (row) this.known.set(keyHash, row);
          else this.unknown.set(keyHash, true);
        }
        return row;
      })
      .finally(() => {
        if (this.inFlight.get(keyHash) === lookup) this.inFlight.delete(keyHash);
      });
    this.inFlight.set(keyHash, lookup);
    return lookup;
  }

  /** A key revoked (its hash) or `*` (a merchant disabled or enabled): forget it now, not after the TTL. */
  forget(keyHashOrAll: string): void {
    if (keyHashOrAll === '*') {
      this.known.clear();
      this.unknown.clear();
      this.inFlight.clear();
    } else {
      this.known.delete(keyHashOrAll);
      this.unknown.delete(keyHashOrAll);
      this.inFlight.delete(keyHashOrAll);
    }
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
