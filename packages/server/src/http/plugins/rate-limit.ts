import { once } from 'node:events';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../domain/errors.ts';
import { clockedRateLimitStore } from './rate-limit-store.ts';

/** Budgets are per second. */
const WINDOW_MS = 1000;

export interface RateLimitOptions {
  perSecond: number;
  /** When set, budgets are shared by every process using this Redis. */
  redisUrl: string | null;
  /** Measures the windows of the in-process budgets (Redis measures its own). */
  clock: Clock;
}

/**
 * Per-API-key request budgets (per client address for unauthenticated requests), using
 * @fastify/rate-limit. It runs after authentication, so the key is known and a stolen
 * publishable key cannot spend a secret key's budget.
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
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new AppError('rate_limited', `Too many requests for this API key; retry after ${seconds} s.`, {
          retryAfterSeconds: seconds,
        });
      },
    });
  },
  { name: 'rate-limiting', fastify: '5.x', dependencies: ['api-key-auth'] },
);
