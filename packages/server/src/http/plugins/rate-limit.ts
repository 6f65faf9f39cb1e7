import { once } from 'node:events';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type Clock, clockedCache } from '../../clock.ts';
import { AppError } from '../../domain/errors.ts';
import { clockedRateLimitStore } from './rate-limit-store.ts';

/** Budgets are per second. */
const WINDOW_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Spends one unit of the client address's budget for unauthenticated requests (no, a
     * malformed, an unknown or a wrong credential); throws `429 rate_limited` once it is spent.
     */
    limitUnauthenticated(request: FastifyRequest): Promise<void>;
    /**
     * Throws `429 rate_limited` when this process saw the client address spend its whole budget
     * for unauthenticated requests in the current window, and spends nothing: a key not cached is
     * checked so before its database lookup (a valid key never spends that budget).
     */
    refuseExhaustedAddress(request: FastifyRequest): void;
  }
}

export interface RateLimitOptions {
  perSecond: number;
  /** Requests per second and client address that fail authentication. */
  unauthenticatedPerSecond: number;
  /** When set, budgets are shared by every process using this Redis. */
  redisUrl: string | null;
  /** Measures the windows of the in-process budgets (Redis measures its own). */
  clock: Clock;
}

function rateLimited(seconds: number, whose: string): AppError {
  return new AppError('rate_limited', `Too many requests ${whose}; retry after ${seconds} s.`, {
    retryAfterSeconds: seconds,
  });
}

/**
 * Per-API-key request budgets, using @fastify/rate-limit. The per-key limit runs after
 * authentication, so the key is known and a stolen publishable key cannot spend a secret key's
 * budget. Requests that fail authentication have no key: authentication spends a budget per
 * client address for them instead (`limitUnauthenticated`) once a key proves unknown, and an
 * address whose budget is spent is refused before any further lookup (`refuseExhaustedAddress`),
 * so guessing keys or flooding with bad ones costs neither the database nor other clients, and
 * the first look-ups of a valid key spend nothing.
 */
export const rateLimiting = fp(
  async (app: FastifyInstance, options: RateLimitOptions) => {
    // ioredis is loaded only when configured: most deployments run without Redis.
    const redis = options.redisUrl
      ? new (await import('ioredis')).Redis(options.redisUrl, {
          connectTimeout: 2000,
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
        })
      : null;
    if (redis) {
      app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
      // Commands are not queued while disconnected (a dead Redis must not stall requests), so
      // wait for the connection once; if Redis stays away, requests pass unlimited and we say so.
      const ready = await Promise.race([
        once(redis, 'ready').then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000).unref()),
      ]);
      if (!ready)
        app.log.warn('rate limiting: Redis is unreachable; requests are not limited until it is back');
    }
    await app.register(rateLimit, {
      global: true,
      hook: 'preParsing',
      max: options.perSecond,
      timeWindow: WINDOW_MS,
      ...(redis
        ? { redis, nameSpace: 'paygate-rl:', skipOnError: true }
        : { store: clockedRateLimitStore(options.clock, WINDOW_MS) }),
      keyGenerator: (request) => request.principal?.keyId ?? `ip:${request.ip}`,
      errorResponseBuilder: (_request, context) =>
        rateLimited(Math.max(1, Math.ceil(context.ttl / 1000)), 'for this API key'),
    });
    const unauthenticated = app.createRateLimit({
      max: options.unauthenticatedPerSecond,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `unauthenticated:${request.ip}`,
    });
    // Addresses whose budget is spent, until their window ends (remembered by this process).
    const exhausted = clockedCache<string, number>(options.clock, { maxEntries: 10_000, ttlMs: WINDOW_MS });
    app.decorate('limitUnauthenticated', async (request: FastifyRequest) => {
      const verdict = await unauthenticated(request);
      // `isAllowed` is only true for an allow-listed request (none here): it counts nothing.
      if (verdict.isAllowed) return;
      const retryAfter = Math.max(1, verdict.ttlInSeconds);
      if (verdict.remaining === 0 && verdict.ttl > 0) {
        exhausted.set(request.ip, retryAfter, { ttl: Math.min(verdict.ttl, WINDOW_MS) });
      }
      if (verdict.isExceeded) {
        throw rateLimited(retryAfter, 'without a valid credential from this address');
      }
    });
    app.decorate('refuseExhaustedAddress', (request: FastifyRequest) => {
      const retryAfter = exhausted.get(request.ip);
      if (retryAfter !== undefined) {
        throw rateLimited(retryAfter, 'without a valid credential from this address');
      }
    });
  },
  { name: 'rate-limiting', fastify: '5.x' },
);
